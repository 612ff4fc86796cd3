/**
 * The frozen guard of a run: before every step (and on going on from a gate) it re-judges the gates
 * the phase builds on; a gate no longer approved as it stands records `run.blocked`, aborts the run
 * and throws. Its fingerprint (guard-fingerprint.ts) spares the re-reading while nothing moved.
 */
import type { RunBlocked, RunEvent, LifecycleStateName } from '../../shared/run';
import { blockMessage, GATES_BEFORE, recordBlock, unfrozenGates } from '../gates/frozen';
import type { Ledger } from '../ledger';
import { guardFingerprint } from './guard-fingerprint';

export interface FrozenGuard {
  /** Re-judges the gates `phase` builds on; records a block, aborts the run and throws when one is not approved as it stands. */
  check(phase: LifecycleStateName, step: string, item: string | null): Promise<void>;
  /** Aborted once the run is blocked. */
  readonly signal: AbortSignal;
  readonly blocked: RunBlocked | null;
}

export class RunBlockedError extends Error {}

const beforeWords = (phase: LifecycleStateName, step: string, item: string | null): string => {
  if (item) return `${step.toUpperCase()} of ${item}`;
  if (step.startsWith('gate:')) return `going on from the ${step.slice(5)} gate`;
  return `the run started (at ${phase})`;
};

export function frozenGuard(root: string, feature: string, ledger: Ledger, emit: (event: RunEvent) => void): FrozenGuard {
  const controller = new AbortController();
  let blocked: RunBlocked | null = null;
  // The phase and fingerprint (guard-fingerprint.ts) the gates were last found intact at.
  let intactAt: string | null = null;
  return {
    signal: controller.signal,
    get blocked() {
      return blocked;
    },
    async check(phase, step, item) {
      if (blocked) throw new RunBlockedError(blocked.message);
      const fingerprint = await guardFingerprint(root, ledger);
      const at = fingerprint && `${phase}:${fingerprint}`;
      if (at && at === intactAt) return;
      intactAt = null;
      const gates = await unfrozenGates(root, feature, GATES_BEFORE[phase]);
      if (gates.length === 0) {
        intactAt = at;
        return;
      }
      const message = blockMessage(feature, gates, beforeWords(phase, step, item));
      const record = await recordBlock(ledger, feature, gates, { phase, step, item }, message);
      blocked = { record: record.hash, message, gates: gates.map(({ gate, story, status, files }) => ({ gate, story, status, files })) };
      emit({ kind: 'run.blocked', feature, message, record: record.hash });
      controller.abort();
      throw new RunBlockedError(message);
    },
  };
}

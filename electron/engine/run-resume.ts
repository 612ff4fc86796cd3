/** Where a resumed run picks up (a design step that escalated, a gate already decided when the run starts at it) and how it waits at a gate. */
import type { GateName } from '../../shared/ledger';
import type { LifecycleStateName } from '../../shared/run';
import { foldGates, gateKey } from '../gates';
import type { Ledger } from '../ledger';
import type { GateDecision, GateWait } from '../orchestrator/lifecycle-machine';
import type { CycleDeps } from './cycle-deps';
import { amendmentToRerun } from '../gates/amendments';
import { readProject } from '../project';
import { revisingError } from '../gates/revising';
import { discardedStories } from '../gates/discard';

/** The lifecycle state each gate is reached in (`--until` stops there). */
export const GATE_STATE: Readonly<Record<GateName, LifecycleStateName>> = {
  spec: 'specGate',
  design: 'designGate',
  test_list: 'testListGate',
  acceptance: 'acceptance',
  deploy: 'deployGate',
  promote: 'promoteGate',
};

/** The feature-level gate a run waits at in `state` (acceptance is per story: never one gate); null in any other state. */
export const featureGateAt = (state: string): GateName | null =>
  (Object.keys(GATE_STATE) as GateName[]).find((g) => GATE_STATE[g] === state && g !== 'acceptance') ?? null;

/** Whether the feature-level gate waited on in `state` has been approved or rejected, or an approved test amendment sends the run back to building. */
export async function decidedGate(ledger: Ledger, feature: string, state: string): Promise<boolean> {
  const records = (await ledger.read()).records;
  if (REBUILT_FROM.has(state) && amendmentToRerun(records, feature)) return true;
  // Acceptance is decided per story: it is not "already decided" as one gate.
  const gate = featureGateAt(state);
  if (!gate) return false;
  const status = foldGates(records).get(gateKey({ feature, gate }))?.status;
  return status === 'approved' || status === 'rejected';
}

/** The gate states an approved test amendment sends back to building (the items must run again before anything is accepted). */
export const REBUILT_FROM: ReadonlySet<string> = new Set(['acceptance', 'deployGate']);

/** The state a design step works in, by the step's id. */
export const DESIGN_STATE: Readonly<Record<string, LifecycleStateName>> = { specify: 'specifying', design: 'designing', listTests: 'testListing' };

/** The feature's story ids, as its folder has them now. */
export async function storiesOf(root: string, feature: string): Promise<string[]> {
  const read = await readProject(root);
  return read.ok ? (read.value.features.find((f) => f.id === feature)?.stories.map((s) => s.id) ?? []) : [];
}

/** Waits until the gate is decided (every story agreeing, for acceptance), or an approved test amendment sends the build back. */
export async function waitForGate(ledger: Ledger, wait: GateWait, pollMs: number, signal: AbortSignal, deps: CycleDeps): Promise<GateDecision> {
  let told = false;
  for (;;) {
    const records = (await ledger.read()).records;
    // An approved test amendment: its item runs again before anything built is judged.
    const rerun = REBUILT_FROM.has(GATE_STATE[wait.gate]) ? amendmentToRerun(records, wait.feature) : null;
    if (rerun)
      return {
        decision: 'rejected',
        reason: `The test amendment of ${rerun.record.subject.item} was approved: it runs RED and GREEN again against the amended test.`,
      };
    // Sent back and taken up, but the revision is not built yet (a run stopped in between): build it first.
    const refs = wait.gate === 'acceptance' ? (await storiesOf(deps.root, wait.feature)).map((story) => ({ ...wait, story })) : [wait];
    const unbuilt = refs.map((ref) => revisingError(ref, records)).find((problem) => problem !== null);
    if (unbuilt) return { decision: 'rejected', reason: unbuilt.message };
    const fold = foldGates(records);
    // Story gates (acceptance) are decided per story: every story of the feature must agree, and
    // a story nobody has decided yet keeps the gate waiting.
    const dropped = discardedStories(records, wait.feature);
    const stories = wait.gate === 'acceptance' ? (await storiesOf(deps.root, wait.feature)).filter((story) => !dropped.has(story)) : [];
    const direct = fold.get(gateKey({ feature: wait.feature, gate: wait.gate }));
    const decided = direct ? [direct] : stories.map((story) => fold.get(gateKey({ feature: wait.feature, gate: wait.gate, story })));
    if (decided.length && decided.every((f) => f?.status === 'approved')) return { decision: 'approved', reason: null };
    const rejected = decided.find((f) => f?.status === 'rejected');
    if (rejected) return { decision: 'rejected', reason: rejected.note };
    if (!told) {
      told = true;
      deps.emit({
        kind: 'waiting',
        feature: wait.feature,
        gate: wait.gate,
        message: `Waiting for the ${wait.gate} gate of ${wait.feature}: approve it in the Inbox or with \`baton approve --feature ${wait.feature} --gate ${wait.gate}\`.`,
      });
    }
    if (signal.aborted) throw new Error('stopped');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

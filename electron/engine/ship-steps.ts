/**
 * The run's last mile: its deploy (once acceptance is approved, when project.json has `deploy`) and
 * its promote step (after the deploy gate), each recorded and announced as the run's events.
 */
import { RECORD_TYPES } from '../../shared/records';
import type { RunEvent } from '../../shared/run';
import { deployIfNew, type DeployRequest } from './deploy';
import { planPromote, promoteFeature } from './promote';
import { recoverPromote } from './promote-recover';

export interface ShipSteps {
  /** Null when project.json says nothing of deploying: the deploy evidence is then made by hand. */
  readonly deploy: (() => Promise<void>) | null;
  /** Throws when the promotion was rolled back (the lifecycle escalates with the reason). */
  readonly promote: () => Promise<void>;
}

export function shipSteps(request: Omit<DeployRequest, 'onOutput'>, emit: (event: RunEvent) => void): ShipSteps {
  const onOutput = (chunk: string) => emit({ kind: 'runner.output', item: null, chunk });
  const deploy = once(async () => {
    const outcome = await deployIfNew({ ...request, onOutput });
    if (outcome) emit({ kind: 'recorded', type: RECORD_TYPES.deployRan, hash: outcome.record, item: null });
  });
  const promote = once(async () => {
    // An interrupted promotion is rolled back first: its merge would otherwise read as "already promoted".
    const recovered = await recoverPromote(request, (text) => onOutput(`[promote] ${text}\n`));
    if (recovered) emit({ kind: 'recorded', type: RECORD_TYPES.promoteRolledBack, hash: recovered.record, item: null });
    const plan = await planPromote(request);
    if (plan.alreadyPromoted) return;
    const outcome = await promoteFeature({ ...request, onOutput });
    const type = outcome.outcome === 'promoted' ? RECORD_TYPES.promoteDone : RECORD_TYPES.promoteRolledBack;
    if (outcome.record) emit({ kind: 'recorded', type, hash: outcome.record, item: null });
    if (outcome.outcome === 'rolled-back') throw new Error(`it was rolled back (${plan.tier} and its database are as they were): ${outcome.error}`);
  });
  return { deploy: request.settings.deploy ? deploy : null, promote };
}

/** `work` never runs twice at once: a second call while one is under way waits for it (a restored machine may start a step's actor again). */
function once(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => (running ??= work().finally(() => (running = null)));
}

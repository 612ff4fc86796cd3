/** `baton status`: the lifecycle phase from its persisted snapshot, the items from the ledger, the open gates. */
import { join } from 'node:path';
import type { LifecycleStateName, RunSummary } from '../../shared/run';
import type { EvidenceSummary } from '../../shared/ledger';
import { annotateGates } from '../gates';
import { evidenceSummary } from '../gates/proof';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { LIFECYCLE_VERSION, lifecycleMachine } from '../orchestrator/lifecycle-machine';
import { readSnapshot } from './persisted-machine';
import { StateStore } from './state-store';
import { openPromoteIntent } from './promote-recover';
import { summarize } from './summary';

export interface FeatureStatus extends RunSummary {
  readonly openGates: readonly string[];
  /** The feature's evidence, folded from the ledger: every item, every AC and what proves it. */
  readonly evidence: EvidenceSummary;
  /** A promotion of the feature that was interrupted (its `promote.started` record's seq), rolled back by the next run or `baton promote`; else null. */
  readonly interruptedPromote: number | null;
}

export async function featureStatus(root: string, featureId?: string): Promise<FeatureStatus> {
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const feature = featureId ? read.value.features.find((f) => f.id === featureId) : read.value.features[0];
  if (!feature) throw new Error(featureId ? `No feature "${featureId}" in ${root}.` : `No feature in ${root}/.baton/features.`);
  const ledger = Ledger.forArtifactRoot(join(read.value.artifactRoot));
  const saved = (await readSnapshot(StateStore.forProject(root, feature.id), 'lifecycle', lifecycleMachine, LIFECYCLE_VERSION)) as { value?: unknown } | null;
  const phase = (typeof saved?.value === 'string' ? saved.value : 'intake') as LifecycleStateName;
  const summary = await summarize(root, feature.id, phase, ledger);
  const records = (await ledger.read()).records;
  const view = await annotateGates(read.value, records);
  const gates = view.features.find((f) => f.id === feature.id)?.gates ?? [];
  return {
    ...summary,
    openGates: gates.filter((g) => g.status !== 'approved' && g.status !== 'superseded').map((g) => (g.story ? `${g.name} (${g.story})` : g.name)),
    evidence: evidenceSummary(feature, records),
    interruptedPromote: openPromoteIntent(records, feature.id)?.seq ?? null,
  };
}

/**
 * Frozen means frozen while running: before a run starts or resumes, before every cycle step and
 * when a gate it waits on is approved, the orchestrator re-judges every gate the work builds on. A
 * gate that drifted (an approved file changed, was removed or was added to) or is no longer approved
 * stops the run before any agent turn, with a `run.blocked` record naming the gate and the files.
 * The Inbox shows the block until the files are restored or the gate is approved again.
 */
import { discardedStories } from './discard';
import { type GateName, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordOf, recordsOf, type TypedRecord } from '../../shared/records';
import type { Feature, Gate, ProjectView, RunBlockGate, RunBlockView } from '../../shared/model';
import type { LifecycleStateName } from '../../shared/run';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { annotateGates } from './annotate';
import { projectPath } from './files';
import { featureSites } from './site';

/** The approved gates each lifecycle state's work builds on. */
export const GATES_BEFORE: Readonly<Record<LifecycleStateName, readonly GateName[]>> = {
  intake: [],
  specifying: [],
  specGate: [],
  designing: ['spec'],
  designGate: ['spec'],
  testListing: ['spec', 'design'],
  testListGate: ['spec', 'design'],
  building: ['spec', 'design', 'test_list'],
  acceptance: ['spec', 'design', 'test_list'],
  deployGate: ['spec', 'design', 'test_list', 'acceptance'],
  promoteGate: ['spec', 'design', 'test_list', 'acceptance', 'deploy'],
  promoting: ['spec', 'design', 'test_list', 'acceptance', 'deploy', 'promote'],
  done: [],
  abandoned: [],
  // A run that resumes from an escalation goes on building.
  escalated: ['spec', 'design', 'test_list'],
};

const intact = (gate: Gate): boolean => gate.status === 'approved';

/** A judged gate as a block names it: its status now and the files that drifted. */
const blockGate = (root: string, featureDir: string | null, gate: Gate): RunBlockGate => ({
  gate: gate.name,
  story: gate.story,
  status: gate.status,
  drift: gate.drift,
  files: featureDir === null ? [] : gate.drift.map((d) => projectPath(root, featureDir, d.artifact)),
});

/**
 * Of the gates named (every story's, for `acceptance`), those not approved as they stand now,
 * judged from the disk and the ledger as they are at this moment.
 */
export async function unfrozenGates(root: string, feature: string, names: readonly GateName[]): Promise<RunBlockGate[]> {
  if (names.length === 0) return [];
  const read = await readProject(root);
  if (!read.ok) throw new Error(read.error.message);
  const records = (await Ledger.forArtifactRoot(read.value.artifactRoot).read()).records;
  const view = await annotateGates(read.value, records);
  const found = view.features.find((f) => f.id === feature);
  if (!found) throw new Error(`Feature ${feature} is gone from ${read.value.artifactRoot}/features: its gates cannot be checked, so nothing runs.`);
  const site = await (await featureSites(view))(feature);
  // A gate never decided is absent from the fold but listed (open) by the view: both are "not approved".
  // A story discarded at acceptance is gone, not waiting: its rejected acceptance blocks nothing.
  const dropped = discardedStories(records, feature);
  return found.gates
    .filter((g) => (names as readonly string[]).includes(g.name) && !intact(g) && !(g.story !== null && dropped.has(g.story)))
    .map((g) => blockGate(root, site.featureDir, g));
}

const gateWords = (g: RunBlockGate, feature: string): string => {
  const which = `the ${g.gate} gate of ${feature}${g.story ? `, story ${g.story}` : ''}`;
  if (g.status !== 'drifted') return `${which} is ${g.status}, not approved`;
  const changed = g.drift.filter((d) => d.expected !== null && d.actual !== null).map((d) => d.artifact);
  const missing = g.drift.filter((d) => d.actual === null).map((d) => d.artifact);
  const added = g.drift.filter((d) => d.expected === null).map((d) => d.artifact);
  const parts = [
    changed.length ? `${changed.join(', ')} changed` : null,
    missing.length ? `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} gone` : null,
    added.length ? `${added.join(', ')} ${added.length === 1 ? 'was' : 'were'} added` : null,
  ].filter((part): part is string => part !== null);
  return `${which} has drifted (${parts.join('; ')} since it was approved${g.files.length ? `: ${g.files.join(', ')}` : ''})`;
};

/** What a person reads: which gate, which files, and the two ways on. */
export function blockMessage(feature: string, gates: readonly RunBlockGate[], before: string): string {
  const drifted = gates.some((g) => g.status === 'drifted');
  const fix = drifted
    ? 'Restore the approved files (Inbox, or `baton restore`), or withdraw the gate and approve the new version, then run again.'
    : 'Approve it again in the Inbox (or with `baton approve`), then run again.';
  return `Stopped before ${before}: ${gates.map((g) => gateWords(g, feature)).join('; ')}. Nothing was built on it. ${fix}`;
}

export interface BlockContext {
  readonly phase: LifecycleStateName;
  /** `start`, a cycle step (`plan`, `red`, …) or `gate:<name>`. */
  readonly step: string;
  readonly item: string | null;
}

const sameGates = (a: readonly unknown[], b: readonly RunBlockGate[]): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records the block (`run.blocked`), unless the feature's latest record is the same block: pressing
 * Run again on an unchanged drift says so again without growing the ledger.
 */
export async function recordBlock(ledger: Ledger, feature: string, gates: readonly RunBlockGate[], at: BlockContext, message: string): Promise<LedgerRecord> {
  return ledger.transaction(async (tx) => {
    const last = recordOf(tx.records.filter((r) => r.subject.feature === feature).at(-1), RECORD_TYPES.runBlocked);
    if (last && sameGates(last.data.gates, gates)) return last;
    return tx.append({
      type: RECORD_TYPES.runBlocked,
      actor: { kind: 'orchestrator', id: 'baton' },
      subject: { feature, ...(at.item ? { item: at.item } : {}) },
      data: { phase: at.phase, step: at.step, item: at.item, gates: gates.map((g) => ({ ...g })), message },
      blobs: [],
    });
  });
}

/**
 * Each feature's latest `run.blocked`, while a gate it named is still not approved as it stands (the
 * gates are the view's, judged now); cleared once they are approved and intact again.
 */
export async function annotateRunBlocks(view: ProjectView, records: readonly LedgerRecord[]): Promise<ProjectView> {
  if (view.layout !== 'baton') return view;
  const latest = new Map<string, BlockRecord>();
  for (const r of recordsOf(records, RECORD_TYPES.runBlocked)) if (r.subject.feature) latest.set(r.subject.feature, r);
  if (latest.size === 0) return view;
  const siteOf = await featureSites(view);
  const features = await Promise.all(
    view.features.map(async (f) => {
      const record = latest.get(f.id);
      return record ? { ...f, runBlock: blockOf(f, record, (await siteOf(f.id)).featureDir, view.root) } : f;
    }),
  );
  return { ...view, features };
}

type BlockRecord = TypedRecord<typeof RECORD_TYPES.runBlocked>;

function blockOf(feature: Feature, record: BlockRecord, featureDir: string | null, root: string): RunBlockView | null {
  const gates: RunBlockGate[] = [];
  for (const { gate, story } of record.data.gates) {
    const now = feature.gates.find((g) => g.name === gate && g.story === story);
    if (now && intact(now)) continue;
    // A gate gone from the view (its story deleted) cannot be approved again: the block stands.
    gates.push(now ? blockGate(root, featureDir, now) : { gate, story, status: 'open', drift: [], files: [] });
  }
  if (gates.length === 0) return null;
  return {
    record: { seq: record.seq, hash: record.hash, at: record.at },
    phase: record.data.phase,
    step: record.data.step,
    item: record.data.item ?? null,
    message: record.data.message,
    gates,
  };
}

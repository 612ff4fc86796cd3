/**
 * What the ledger proves about a feature's items: each item's status, cycles, repairs, violations,
 * the GREEN attestation that proves it and its last test run; each acceptance criterion and whether
 * its items prove it; each cycle with its RED, GREEN and refactor times. Pure: folded from the
 * records alone (statuses through itemStatuses, the one reading of `item.status`), so the Inbox, the
 * gate detail, `baton gates` and `baton status` cannot disagree with the Board.
 */
import {
  type AcProof,
  type DependencyProof,
  type EvidenceSummary,
  type ItemProof,
  type LedgerRecord,
  type MutationProof,
  type RecordRef,
} from '../../shared/ledger';
import { RECORD_TYPES, recordsOf, type RecordType, type TypedRecord } from '../../shared/records';
import { cycleCovers, type CycleRun, type Feature, type ProjectView, type TestItem, type TestStatus } from '../../shared/model';
import { countRecords, type CycleCounts } from '../../shared/cycle-counts';
import { effectiveStatus, itemStatuses } from './annotate-items';
import { foldEscalations } from './escalations';
import { mutationLine, mutationProof } from '../../shared/mutation-words';

const ref = (r: LedgerRecord): RecordRef => ({ seq: r.seq, hash: r.hash, at: r.at });

const PROVEN: readonly TestStatus[] = ['green', 'refactored'];

/** The records about each item of `feature`, oldest first. */
const byItem = (feature: string, records: readonly LedgerRecord[]): Map<string, LedgerRecord[]> => {
  const out = new Map<string, LedgerRecord[]>();
  for (const r of records) {
    if (r.subject.feature !== feature || !r.subject.item) continue;
    const list = out.get(r.subject.item) ?? [];
    list.push(r);
    out.set(r.subject.item, list);
  }
  return out;
};

/** The last verdict record of a step that ran the tests (red, green or refactor), by seq. */
const lastRun = (mine: readonly LedgerRecord[]) =>
  verdictRuns(mine)
    .filter((r) => r.data.totals !== undefined)
    .sort((a, b) => a.seq - b.seq)
    .at(-1);

/** A run record's sandbox line says the run was not sandboxed (sandbox.ts writes "running unsandboxed" in every such note). */
const ranUnsandboxed = (r: TypedRecord<typeof RECORD_TYPES.cycleRed | typeof RECORD_TYPES.cycleGreen | typeof RECORD_TYPES.cycleRefactored>): boolean =>
  /running unsandboxed/.test(r.data.runnerSandbox ?? '');

const verdictRuns = (mine: readonly LedgerRecord[]) => [
  ...recordsOf(mine, RECORD_TYPES.cycleRed),
  ...recordsOf(mine, RECORD_TYPES.cycleGreen),
  ...recordsOf(mine, RECORD_TYPES.cycleRefactored),
];

const pickCounts = ({ repairs, violations, rejectedRed }: CycleCounts) => ({ repairs, violations, rejectedRed });

const itemProof = (item: TestItem, status: TestStatus, mine: readonly LedgerRecord[]): ItemProof => {
  const greened = recordsOf(mine, RECORD_TYPES.cycleGreened).at(-1);
  const run = lastRun(mine);
  const totals = run?.data.totals;
  return {
    id: item.id,
    description: item.description,
    acId: item.acId,
    storyId: item.storyId,
    status,
    cycles: new Set(recordsOf(mine, RECORD_TYPES.cyclePlanned).map((r) => r.subject.cycle)).size,
    // The one definition of these counts (shared/cycle-counts.ts), over all the item's rounds.
    ...pickCounts(countRecords(mine)),
    green: greened ? { ...ref(greened), commit: greened.data.commit } : null,
    unsandboxedRuns: verdictRuns(mine)
      .filter(ranUnsandboxed)
      .sort((a, b) => a.seq - b.seq)
      .map(ref),
    mutation: withReplaced(
      mutationProof(
        recordsOf(mine, RECORD_TYPES.cycleMutated)
          .filter((r) => r.data.commit === greened?.data.commit)
          .at(-1),
      ),
      mine,
    ),
    lastRun:
      run && totals
        ? { ...ref(run), step: run.type.replace(/^cycle\./, ''), verdict: run.data.verdict, passed: totals.passed, failed: totals.failed + totals.errored }
        : null,
  };
};

/**
 * An item whose tests an approved amendment replaced: the score of the replaced tests (the item's
 * last mutation record before the amendment's lock) beside the new one, `weaker` when it fell.
 */
function withReplaced(mutation: MutationProof | null, mine: readonly LedgerRecord[]): MutationProof | null {
  const lock = recordsOf(mine, RECORD_TYPES.cycleLocked)
    .filter((l) => l.data.amendment)
    .at(-1);
  if (!mutation || !lock || mutation.seq < lock.seq) return mutation;
  const before = recordsOf(mine, RECORD_TYPES.cycleMutated)
    .filter((r) => r.seq < lock.seq)
    .at(-1);
  const amendment = mine.find((r) => r.hash === lock.data.amendment) ?? null;
  if (!before || !amendment) return mutation;
  const weaker = before.data.score !== null && mutation.score !== null && mutation.score < before.data.score;
  return { ...mutation, replaced: { seq: before.seq, score: before.data.score, amendmentSeq: amendment.seq, weaker } };
}

/** A foreign item: its file's status, and no Baton record behind it. */
const fileProof = (item: TestItem, cycles: number): ItemProof => ({
  id: item.id,
  description: item.description,
  acId: item.acId,
  storyId: item.storyId,
  status: item.status,
  cycles,
  repairs: null,
  violations: null,
  rejectedRed: null,
  green: null,
  unsandboxedRuns: null,
  mutation: null,
  lastRun: null,
});

/** Why an item does not prove its AC, in a PO's words; null when it does. */
const itemGap = (i: ItemProof, source: EvidenceSummary['source']): string | null => {
  if (i.status === 'escalated') return `${i.id} is escalated`;
  if (i.status === 'skipped') return `${i.id} was set aside`;
  if (!PROVEN.includes(i.status)) return `${i.id} is not GREEN (${i.status})`;
  // A foreign project has no GREEN record to show: its file's status is all there is.
  if (source === 'ledger' && i.green === null) return `${i.id} has no GREEN record`;
  if (i.mutation?.weak) return `${i.id}'s tests are weak (${mutationLine(i.mutation)})`;
  // Approving it anyway is the explicit "accept weaker test": an exception with a reason.
  if (i.mutation?.replaced?.weaker) return `${i.id}'s amended tests are weaker than the tests they replaced (${mutationLine(i.mutation)})`;
  return null;
};

const acsOf = (feature: Feature, story: string | null, items: readonly ItemProof[], source: EvidenceSummary['source']): AcProof[] =>
  feature.stories
    .filter((s) => story === null || s.id === story)
    .flatMap((s) =>
      s.acs.map((ac) => {
        const covering = items.filter((i) => i.acId === ac.id);
        const gaps = covering.map((i) => itemGap(i, source)).filter((gap): gap is string => gap !== null);
        const why = covering.length === 0 ? 'no test item covers it' : gaps.length > 0 ? gaps.join('; ') : null;
        return { id: ac.id, title: ac.title, storyId: s.id, items: covering.map((i) => i.id), proven: why === null, why };
      }),
    );

/**
 * The evidence summary of a feature, or of one story (`story`: its acceptance gate). `records` is
 * the ledger of a Baton project; null for a foreign layout, whose test list and cycle files speak.
 */
export function evidenceSummary(feature: Feature, records: readonly LedgerRecord[] | null, story: string | null = null): EvidenceSummary {
  // Records are a Baton project's; null means a foreign layout whose files speak for themselves.
  const inScope = (item: TestItem) => story === null || item.storyId === story;
  const testList = feature.testList.filter(inScope);
  let items: ItemProof[];
  let about: LedgerRecord[] = [];
  let escalations = 0;
  if (records === null) {
    const runs = feature.cycleRuns;
    items = testList.map((item) => fileProof(item, runs.filter((c) => cycleCovers(c, item)).length));
  } else {
    const statuses = itemStatuses(records);
    const mine = byItem(feature.id, records);
    items = testList.map((item) =>
      itemProof(item, effectiveStatus('baton', item.status, statuses.get(JSON.stringify([feature.id, item.id]))), mine.get(item.id) ?? []),
    );
    about = records.filter((r) => r.subject.feature === feature.id && (story === null || r.subject.story === story));
    const fold = foldEscalations(records);
    escalations = testList.filter((item) => fold.get(JSON.stringify([feature.id, item.id]))?.open).length;
  }
  const byStatus: Partial<Record<TestStatus, number>> = {};
  for (const item of items) byStatus[item.status] = (byStatus[item.status] ?? 0) + 1;
  const source = records === null ? 'files' : 'ledger';
  const sum = (key: 'cycles' | 'repairs' | 'violations' | 'rejectedRed'): number | null =>
    source === 'files' && key !== 'cycles' ? null : items.reduce((n, i) => n + (i[key] ?? 0), 0);
  return {
    feature: feature.id,
    story,
    source,
    testItems: items.length,
    byStatus,
    // A Consort batch cycle covers several items: count the cycles, not the items' shares of them.
    cycles: records === null ? feature.cycleRuns.filter((c) => testList.some((item) => cycleCovers(c, item))).length : (sum('cycles') ?? 0),
    repairs: sum('repairs'),
    violations: sum('violations'),
    rejectedRed: sum('rejectedRed'),
    escalations,
    records: about.length,
    lastRecordAt: about.at(-1)?.at ?? null,
    items,
    acs: acsOf(feature, story, items, source),
    dependencies: dependenciesOf(about),
  };
}

/** The packages added in cycles that went GREEN (an escalated cycle's never reached the branch). */
function dependenciesOf(about: readonly LedgerRecord[]): DependencyProof[] {
  const greened = new Set(recordsOf(about, RECORD_TYPES.cycleGreened).map((r) => r.subject.cycle));
  return recordsOf(about, RECORD_TYPES.cycleDependencies)
    .filter((r) => greened.has(r.subject.cycle))
    .flatMap((r) => r.data.installed.map((d) => ({ item: r.subject.item ?? '', name: d.name, spec: d.spec, version: d.version, dev: d.dev, record: ref(r) })));
}

/** Each Baton cycle (one per item and round) from the ledger, in the order they started. */
export function cycleRunsFromLedger(feature: Feature, records: readonly LedgerRecord[]): CycleRun[] {
  const byCycle = new Map<string, LedgerRecord[]>();
  for (const r of records) {
    if (r.subject.feature !== feature.id || !r.subject.cycle || !r.subject.item) continue;
    const list = byCycle.get(r.subject.cycle) ?? [];
    list.push(r);
    byCycle.set(r.subject.cycle, list);
  }
  return [...byCycle.entries()].map(([id, mine]) => {
    const item = mine[0]!.subject.item!;
    const last = <T extends RecordType>(type: T, when: (r: TypedRecord<T>) => boolean = () => true) => recordsOf(mine, type).filter(when).at(-1);
    const finished = last(RECORD_TYPES.cycleFinished);
    const status = last(RECORD_TYPES.itemStatus);
    const decision = last(RECORD_TYPES.cycleReviewed)?.data.decision ?? null;
    const note = last(RECORD_TYPES.cycleReviewed)?.data.note ?? null;
    return {
      id,
      source: 'ledger' as const,
      items: [item],
      story: mine[0]!.subject.story ?? null,
      ac: feature.testList.find((t) => t.id === item)?.acId ?? null,
      redAt: last(RECORD_TYPES.cycleRed, (r) => r.data.verdict === 'red')?.at ?? null,
      greenAt: last(RECORD_TYPES.cycleGreened)?.at ?? null,
      refactoredAt: last(RECORD_TYPES.itemStatus, (r) => r.data.status === 'refactored')?.at ?? null,
      attempts: recordsOf(mine, RECORD_TYPES.cycleGreen).length || null,
      counts: countRecords(mine),
      verdict: decision,
      review: decision ? (note ? `${decision}: ${note}` : decision) : null,
      outcome: finished?.data.status ?? status?.data.status ?? null,
      file: null,
      record: { seq: (finished ?? mine.at(-1)!).seq, hash: (finished ?? mine.at(-1)!).hash },
    };
  });
}

/** A Baton project's features get their cycles from the ledger (a foreign one keeps its cycle files'). */
export function annotateCycles(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  if (view.layout !== 'baton') return view;
  return {
    ...view,
    features: view.features.map((f) => {
      const cycleRuns = cycleRunsFromLedger(f, records);
      return { ...f, cycleRuns, cycles: cycleRuns.length };
    }),
  };
}

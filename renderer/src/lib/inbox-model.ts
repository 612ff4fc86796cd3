/**
 * Pure inbox logic: which decisions wait for a person (gates, escalated items, test amendments),
 * in which order, and which opens next.
 */
import { GATE_NAMES, type GateName, type LedgerRecord } from '../../../shared/ledger';
import { RECORD_TYPES, recordOf, type TypedRecord } from '../../../shared/records';
import type { AcceptanceCriterion, EscalationView, Gate, GateStatus, ProjectView, RunBlockView, TestItem } from '../../../shared/model';
import { amendmentEntries, isAmendmentRef, type AmendmentEntry, type AmendmentRef } from './amendment-model';
import { gateKey, refOf, sameRef, type GateRef } from './gate-ref';

/**
 * Statuses that need a decision: never decided, sent back, approval taken back, or changed since
 * approval (the backend gives exactly these a `pendingSince`).
 */
export const PENDING_STATUSES: readonly GateStatus[] = ['open', 'rejected', 'withdrawn', 'drifted'];

/** One escalated item: its feature and its test-list id. */
export interface EscalationRef {
  readonly feature: string;
  readonly item: string;
}

/** A feature whose run stopped on a drifted or withdrawn gate. */
export interface BlockRef {
  readonly kind: 'block';
  readonly feature: string;
}

/** What the inbox has open: a gate, an escalation, a blocked run or a test amendment. */
export type InboxRef = GateRef | EscalationRef | BlockRef | AmendmentRef;

export const isBlockRef = (ref: InboxRef): ref is BlockRef => 'kind' in ref && ref.kind === 'block';
export const isEscalationRef = (ref: InboxRef): ref is EscalationRef => 'item' in ref;

export function sameInboxRef(a: InboxRef | null, b: InboxRef | null): boolean {
  if (a === null || b === null) return false;
  if (isBlockRef(a) || isBlockRef(b)) return isBlockRef(a) && isBlockRef(b) && a.feature === b.feature;
  if (isAmendmentRef(a) || isAmendmentRef(b)) return isAmendmentRef(a) && isAmendmentRef(b) && a.feature === b.feature && a.amendment === b.amendment;
  if (isEscalationRef(a) || isEscalationRef(b)) return isEscalationRef(a) && isEscalationRef(b) && a.feature === b.feature && a.item === b.item;
  return sameRef(a, b);
}

/** `F-1-T1`: the suffix of an escalation's test ids. */
export const escalationKey = (ref: EscalationRef): string => `${ref.feature}-${ref.item}`;

/**
 * Where a gate is listed: decidable now, waiting on its evidence or artifacts (or on a change after a
 * withdrawal), waiting on an earlier gate, sent back (rejected, and its artifacts unchanged since:
 * it waits for their author's new version), or open in a project where nothing can be decided.
 */
export type GateGroup = 'ready' | 'evidence' | 'earlier' | 'sent-back' | 'read-only';

export interface GateEntry {
  readonly kind: 'gate';
  readonly ref: GateRef;
  readonly featureName: string;
  readonly gate: Gate;
  readonly group: GateGroup;
  /** The earlier gate that must be approved first, when it is not yet (display only). */
  readonly waitsFor: GateName | null;
}

const GROUP_ORDER: Readonly<Record<GateGroup, number>> = { ready: 0, evidence: 1, earlier: 2, 'sent-back': 3, 'read-only': 4 };

/**
 * Rejected, and nothing of it has changed since: the author has not answered yet, so it is not
 * waiting for the person who sent it back. Judged by the backend against the rejection's hashes
 * (`gate.sentBack`); for a rejection that recorded none, by time (no artifact changed after it).
 */
export const isSentBack = (gate: Gate): boolean => {
  if (gate.status !== 'rejected' || !gate.decidedBy) return false;
  // The backend compared the artifacts with the rejection's hashes: a file saved unchanged is no answer.
  if (gate.sentBack !== undefined) return gate.sentBack;
  const changed = gate.pendingSince ? Date.parse(gate.pendingSince) : Number.NaN;
  return Number.isNaN(changed) || changed <= Date.parse(gate.decidedBy.at);
};

/** The backend's judgement (`gate.blockedBy`, the same checks an approval runs) decides the group; a gate sent back waits for its author. */
export const groupOf = (gate: Gate): GateGroup => {
  if (gate.blockedBy?.kind !== 'read-only' && isSentBack(gate)) return 'sent-back';
  switch (gate.blockedBy?.kind) {
    case undefined:
      return 'ready';
    case 'earlier-gate':
      return 'earlier';
    case 'read-only':
      return 'read-only';
    default:
      return 'evidence';
  }
};

export interface EscalationEntry {
  readonly kind: 'escalation';
  readonly ref: EscalationRef;
  readonly featureName: string;
  readonly escalation: EscalationView;
  /** The test-list item, when the feature's test list still names it. */
  readonly item: TestItem | null;
  /** The acceptance criterion the item tests, when a story of the feature holds it. */
  readonly criterion: AcceptanceCriterion | null;
}

export interface BlockEntry {
  readonly kind: 'block';
  readonly ref: BlockRef;
  readonly featureName: string;
  readonly block: RunBlockView;
}

export type InboxEntry = GateEntry | EscalationEntry | BlockEntry | AmendmentEntry;

/** The React key and the test-id suffix of any entry. */
export function entryKey(entry: InboxEntry): string {
  switch (entry.kind) {
    case 'gate':
      return gateKey(entry.ref);
    case 'block':
      return `block-${entry.ref.feature}`;
    case 'amendment':
      return `amendment-${entry.ref.amendment}`;
    default:
      return `escalation-${escalationKey(entry.ref)}`;
  }
}

const time = (text: string | null): number => {
  const t = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

/** Oldest first by `at`, unknown times last, otherwise in the given order. */
const byTime = <T>(list: readonly T[], at: (t: T) => string | null, group: (t: T) => number = () => 0): T[] =>
  list
    .map((value, index) => ({ value, index, at: time(at(value)), group: group(value) }))
    .sort((a, b) => a.group - b.group || a.at - b.at || a.index - b.index)
    .map(({ value }) => value);

/**
 * Every pending gate across features: those that can be decided now first, then those waiting on
 * their evidence, then those waiting on an earlier gate; each group oldest `pendingSince` first,
 * unknown times last, otherwise stable.
 */
export function gateEntries(view: ProjectView | null): GateEntry[] {
  if (!view) return [];
  const entries: GateEntry[] = [];
  for (const feature of view.features) {
    const discarded = new Set(feature.stories.filter((s) => s.status === 'discarded').map((s) => s.id));
    for (const gate of feature.gates) {
      if (!PENDING_STATUSES.includes(gate.status)) continue;
      // A discarded story's acceptance waits for nobody.
      if (gate.story !== null && discarded.has(gate.story)) continue;
      const ref = refOf(feature.id, gate);
      if (!ref) continue;
      const group = groupOf(gate);
      const pre = gate.blockedBy?.kind === 'earlier-gate' ? gate.blockedBy.gate : null;
      const waitsFor = pre !== null && (GATE_NAMES as readonly string[]).includes(pre) ? (pre as GateName) : null;
      entries.push({ kind: 'gate', ref, featureName: feature.name, gate, group, waitsFor });
    }
  }
  return byTime(
    entries,
    (e) => e.gate.pendingSince,
    (e) => GROUP_ORDER[e.group],
  );
}

/** Every open escalation across features, oldest first, with the item and the AC it tests. */
export function escalationEntries(view: ProjectView | null): EscalationEntry[] {
  if (!view) return [];
  const entries: EscalationEntry[] = [];
  for (const feature of view.features) {
    for (const escalation of feature.escalations) {
      const item = feature.testList.find((t) => t.id === escalation.item) ?? null;
      const storyId = item?.storyId ?? escalation.story;
      const stories = storyId ? feature.stories.filter((s) => s.id === storyId) : feature.stories;
      const criterion = item ? (stories.flatMap((s) => s.acs).find((ac) => ac.id === item.acId) ?? null) : null;
      entries.push({ kind: 'escalation', ref: { feature: feature.id, item: escalation.item }, featureName: feature.name, escalation, item, criterion });
    }
  }
  return byTime(entries, (e) => e.escalation.at);
}

/** Every feature whose run is blocked on a drifted or withdrawn gate, oldest block first. */
export function blockEntries(view: ProjectView | null): BlockEntry[] {
  if (!view) return [];
  const entries: BlockEntry[] = view.features.flatMap((f) =>
    f.runBlock ? [{ kind: 'block' as const, ref: { kind: 'block' as const, feature: f.id }, featureName: f.name, block: f.runBlock }] : [],
  );
  return byTime(entries, (e) => e.block.record.at);
}

/**
 * The inbox in the order it is listed: blocked runs and escalations first (each holds its feature's
 * build until someone acts), then pending test amendments (each holds its feature's acceptance),
 * then the gates that can be decided, then those that must wait, and last the approved amendments
 * waiting for their re-run (for information).
 */
export function inboxEntries(view: ProjectView | null): readonly InboxEntry[] {
  if (view === null) return [];
  // A view is never changed, only replaced: the rail's badge, the title, the notifications, the
  // palette and the Inbox itself read one list per project update, worked out once.
  const known = entriesOf.get(view);
  if (known) return known;
  const amendments = amendmentEntries(view);
  const entries = Object.freeze([
    ...blockEntries(view),
    ...escalationEntries(view),
    ...amendments.filter((e) => e.group === 'pending'),
    ...gateEntries(view),
    ...amendments.filter((e) => e.group === 'rerun'),
  ]);
  entriesOf.set(view, entries);
  return entries;
}

const entriesOf = new WeakMap<ProjectView, readonly InboxEntry[]>();

/**
 * Whether an entry is a decision a person can make now (a gate waiting on something else or sent
 * back, or an approved amendment waiting for its re-run, is not): only these are ever focused for you.
 */
export const isDecidable = (e: InboxEntry): boolean => (e.kind === 'gate' ? e.group === 'ready' : e.kind === 'amendment' ? e.group === 'pending' : true);

/**
 * The badge: decisions a person can make here now — blocked runs, escalations, pending test
 * amendments and gates ready to decide. Gates waiting on evidence or on an earlier gate, and
 * approved amendments waiting for their re-run, are listed but not counted; a read-only project counts none.
 */
export const countPending = (view: ProjectView | null): number => (view === null || view.readOnly ? 0 : inboxEntries(view).filter(isDecidable).length);

/**
 * What opens after a decision on `decided`: the next decision a person can make now (the first after
 * it in the list, else the last before it), never `decided` itself, never an entry that cannot be
 * decided (a gate waiting on evidence, a gate sent back); null when nothing is left to decide.
 */
export function nextAfter(entries: readonly InboxEntry[], decided: InboxRef): InboxRef | null {
  const index = entries.findIndex((e) => sameInboxRef(e.ref, decided));
  const open = entries.map((entry, at) => ({ entry, at })).filter(({ entry }) => isDecidable(entry) && !sameInboxRef(entry.ref, decided));
  const next = open.find(({ at }) => at > index) ?? open.at(-1);
  return next ? next.entry.ref : null;
}

/** What the inbox opens on when nothing is chosen: the first decision a person can make now, or nothing. */
export const firstDecidable = (entries: readonly InboxEntry[]): InboxEntry | null => entries.find(isDecidable) ?? null;

/** The blobs that hold a test run's output, in the order they are shown. */
export const RUNNER_OUTPUT = ['runner/stdout.txt', 'runner/stderr.txt'] as const;

/** A GREEN or RED verdict: the runs a failing run is looked for in. */
export type RunRecord = TypedRecord<typeof RECORD_TYPES.cycleGreen | typeof RECORD_TYPES.cycleRed>;

/** A run whose verdict is not what the step wanted (GREEN `failing`, or RED that never went red), with its output. */
const failingRun = (r: LedgerRecord): RunRecord | null => {
  if (!r.blobs.some((b) => (RUNNER_OUTPUT as readonly string[]).includes(b.name))) return null;
  const green = recordOf(r, RECORD_TYPES.cycleGreen);
  if (green) return green.data.verdict === 'failing' ? green : null;
  const red = recordOf(r, RECORD_TYPES.cycleRed);
  return red && red.data.verdict !== 'red' ? red : null;
};

/**
 * The escalated cycle's last failing test run, from the item's records: the cycle is the one the
 * escalation's `cycle.finished` record names (its round), so an earlier round's output is never
 * shown as this one's. Null when the cycle recorded no failing run (e.g. it ran out of violations).
 */
export function lastFailingRun(records: readonly LedgerRecord[], escalation: Pick<EscalationView, 'record'>): RunRecord | null {
  const finished = records.find((r) => r.hash === escalation.record);
  const cycle = finished?.subject.cycle;
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const r = records[i]!;
    if (finished && r.seq > finished.seq) continue;
    if (cycle !== undefined && r.subject.cycle !== cycle) continue;
    const run = failingRun(r);
    if (run) return run;
  }
  return null;
}

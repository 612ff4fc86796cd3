/**
 * The smell report (issue 35): patterns in a feature's ledger a Product Owner should look at, each
 * naming the records (by `seq`) that show it. Deterministic: the same records and thresholds give the
 * same smells in the same order (kind, then the first record). Thresholds come from `smells` in
 * `.baton/project.json`. Pure.
 * - stall: an agent turn whose time (its `turnMs` plus its test run's) is `stallFactor` times or more
 *   the median of the same step's turns over the feature; a step needs 3 turns to have a median.
 * - fragile: an item that failed again after its GREEN (a later failing `cycle.green`, or a RED that
 *   broke tests which passed before, `regressed`); an item with a flaky verdict (RED or GREEN); a
 *   feature whose merged suite ran flaky (`feature.verified`).
 * - repeated-violations: one role (the violating agent's, else the step's) with `repeatedViolations`
 *   or more `cycle.violation` records in the feature.
 * - repair-loop: a cycle that escalated after at least one repair round with its last GREEN attempt
 *   still failing (or breaking the lock), not because a run asked for a person (a flaky suite, no agent).
 * - rubber-stamp: a `gate.approved` whose decider had the evidence open under `rubberStampSeconds`.
 * - long-wait: a gate decision that waited more than `gateWaitHours` (its `waitedMs`); and, given
 *   the project's gates and the time now, a gate a person could decide that has waited more than
 *   that so far (since its `pendingSince`), naming the ledger's records about that gate, if any.
 */
import type { LedgerRecord, Subject } from '../ledger';
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../records';
import { roleOf, STEPS, turnOf, type Step } from './turns';

export const SMELL_KINDS = ['stall', 'fragile', 'repeated-violations', 'repair-loop', 'rubber-stamp', 'long-wait'] as const;
export type SmellKind = (typeof SMELL_KINDS)[number];

export interface Smell {
  readonly kind: SmellKind;
  /** What it is about, as the records name it: a feature, a story, an item (with its cycle), a gate. */
  readonly subject: Subject;
  /** One plain sentence with the figures, for a Product Owner. */
  readonly says: string;
  /** The `seq` of every record that shows it, ascending. */
  readonly records: readonly number[];
}

export interface SmellThresholds {
  readonly stallFactor: number;
  readonly rubberStampSeconds: number;
  readonly gateWaitHours: number;
  readonly repeatedViolations: number;
}

export const SMELL_DEFAULTS: SmellThresholds = { stallFactor: 3, rubberStampSeconds: 30, gateWaitHours: 24, repeatedViolations: 2 };

/** A turn needs this many of its step over the feature before one can be called far above their median. */
export const STALL_SAMPLES = 3;

const STEP_NAME: Readonly<Record<Step, string>> = { red: 'RED', green: 'GREEN', refactor: 'REFACTOR', review: 'REVIEW' };

/** A duration a person reads at a glance: seconds under two minutes, minutes under two hours, then hours. */
export function duration(ms: number): string {
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const seqs = (records: readonly { seq: number }[]): number[] => [...new Set(records.map((r) => r.seq))].sort((a, b) => a - b);
const itemName = (subject: Subject): string => subject.item ?? subject.cycle ?? 'an item';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function stalls(records: readonly LedgerRecord[], factor: number): Smell[] {
  const turns = records.flatMap((record) => {
    const turn = record.subject.item === undefined ? null : turnOf(record);
    return turn ? [{ record, turn, ms: turn.turnMs + (turn.testRunMs ?? 0) }] : [];
  });
  return STEPS.flatMap((step) => {
    const mine = turns.filter((t) => t.turn.step === step);
    if (mine.length < STALL_SAMPLES) return [];
    const typical = median(mine.map((t) => t.ms));
    if (typical <= 0) return [];
    return mine
      .filter((t) => t.ms >= factor * typical)
      .map(({ record, turn, ms }) => ({
        kind: 'stall' as const,
        subject: record.subject,
        says:
          `${itemName(record.subject)}'s ${STEP_NAME[step]} turn took ${duration(ms)} (agent ${duration(turn.turnMs)}, tests ${duration(turn.testRunMs ?? 0)}), ` +
          `${(ms / typical).toFixed(1)}× the feature's median ${STEP_NAME[step]} turn of ${duration(typical)} over ${mine.length} turns: look at what held it up in its transcript.`,
        records: [record.seq],
      }));
  });
}

/** The feature's records grouped by a key, keys in first-seen order. */
function groupBy<T extends LedgerRecord>(records: readonly T[], key: (r: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of records) {
    const k = key(r);
    if (k !== undefined) groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return groups;
}

function fragile(records: readonly LedgerRecord[]): Smell[] {
  const greens = recordsOf(records, RECORD_TYPES.cycleGreen);
  const reds = recordsOf(records, RECORD_TYPES.cycleRed);
  const smells: Smell[] = [];
  for (const [item, own] of groupBy([...greens, ...reds], (r) => r.subject.item)) {
    const first = own.filter((r) => r.type === RECORD_TYPES.cycleGreen && r.data.verdict === 'green').sort((a, b) => a.seq - b.seq)[0];
    const failedAgain = first
      ? own.filter(
          (r) => r.seq > first.seq && (r.type === RECORD_TYPES.cycleGreen ? !['green', 'flaky'].includes(r.data.verdict) : r.data.verdict === 'regressed'),
        )
      : [];
    if (first && failedAgain.length) {
      smells.push({
        kind: 'fragile',
        subject: { ...first.subject, cycle: undefined, item },
        says: `${item} went red again after its GREEN: ${plural(failedAgain.length, 'later verdict')} failed, so what made it pass did not hold; look at what changed after it passed.`,
        records: seqs([first, ...failedAgain]),
      });
    }
    const flaky = own.filter((r) => r.data.verdict === 'flaky');
    if (flaky.length) {
      smells.push({
        kind: 'fragile',
        subject: { ...flaky[0]!.subject, cycle: undefined, item },
        says: `${item} had ${plural(flaky.length, 'flaky verdict')}: its tests gave different results on the same code, so its verdicts cannot be trusted until they depend on nothing outside the test.`,
        records: seqs(flaky),
      });
    }
  }
  for (const verified of recordsOf(records, RECORD_TYPES.featureVerified).filter((r) => r.data.flaky.length > 0)) {
    smells.push({
      kind: 'fragile',
      subject: verified.subject,
      says: `The merged suite of ${verified.data.feature} ran flaky: ${verified.data.flaky.join(', ')} gave different results when run twice; make them depend on nothing outside the test.`,
      records: [verified.seq],
    });
  }
  return smells;
}

function repeatedViolations(records: readonly LedgerRecord[], feature: string, atLeast: number): Smell[] {
  const violations = recordsOf(records, RECORD_TYPES.cycleViolation);
  const byRole = groupBy(violations, (v) => roleOf(v, STEPS.find((step) => step === v.data.step) ?? 'green'));
  return [...byRole]
    .filter(([, mine]) => mine.length >= atLeast)
    .map(([role, mine]) => {
      const against = [...groupBy(mine, (v) => v.data.against)].map(([kind, of]) => `${of.length} against ${kind}`);
      const items = [...new Set(mine.flatMap((v) => v.subject.item ?? []))];
      return {
        kind: 'repeated-violations' as const,
        subject: { feature },
        says: `The ${role} broke the rules ${plural(mine.length, 'time')} in ${feature} (${against.join(', ')}${items.length ? `; ${items.join(', ')}` : ''}): check its prompt, its agent or its write scope.`,
        records: seqs(mine),
      };
    });
}

function repairLoops(records: readonly LedgerRecord[]): Smell[] {
  const escalated = recordsOf(records, RECORD_TYPES.cycleFinished).filter((f) => f.data.status === 'escalated' && f.subject.cycle !== undefined);
  return escalated.flatMap((finished) => {
    const greens = recordsOf(records, RECORD_TYPES.cycleGreen).filter((g) => g.subject.cycle === finished.subject.cycle && g.seq < finished.seq);
    const last = greens.at(-1);
    const attempts = new Set(greens.map((g) => g.data.attempt)).size;
    if (!last || attempts < 2 || last.data.escalate || (last.data.verdict === 'green' && last.data.violations === 0)) return [];
    const why = finished.data.reason ? ` ("${finished.data.reason}")` : '';
    return [
      {
        kind: 'repair-loop' as const,
        subject: finished.subject,
        says: `${itemName(finished.subject)} spent its repair budget: ${plural(attempts, 'GREEN attempt')}, none passed, and it escalated${why}; read the failure, and amend the test if it asks for the wrong thing.`,
        records: seqs([...greens, finished]),
      },
    ];
  });
}

type Decision = TypedRecord<typeof RECORD_TYPES.gateApproved> | TypedRecord<typeof RECORD_TYPES.gateRejected>;

const gateName = (d: Decision): string => {
  const gate = d.subject.gate ?? d.data.gate ?? 'a';
  return d.subject.story ? `The ${gate} gate of ${d.subject.story}` : `The ${gate} gate`;
};

function gateSmells(records: readonly LedgerRecord[], thresholds: SmellThresholds): Smell[] {
  const approved = recordsOf(records, RECORD_TYPES.gateApproved);
  const decided: Decision[] = [...approved, ...recordsOf(records, RECORD_TYPES.gateRejected)];
  const stamps = approved
    .filter((a) => a.data.viewedMs !== undefined && a.data.viewedMs < thresholds.rubberStampSeconds * 1000)
    .map((a) => ({
      kind: 'rubber-stamp' as const,
      subject: a.subject,
      says: `${gateName(a)} was approved by ${a.data.approver} with its evidence open for ${duration(a.data.viewedMs!)} (under ${thresholds.rubberStampSeconds} s): make sure what it approved was read.`,
      records: [a.seq],
    }));
  const waits = decided
    .filter((d) => d.data.waitedMs !== undefined && d.data.waitedMs > thresholds.gateWaitHours * 3_600_000)
    .map((d) => ({
      kind: 'long-wait' as const,
      subject: d.subject,
      says: `${gateName(d)} waited ${duration(d.data.waitedMs!)} for a decision (over ${thresholds.gateWaitHours} h) while the work behind it stood still: decide gates sooner, or name more approvers.`,
      records: [d.seq],
    }));
  return [...stamps, ...waits];
}

/** What the smells read of a gate still open (shared/model.ts Gate). */
export interface OpenGate {
  readonly name: string;
  readonly story: string | null;
  readonly status: string;
  readonly pendingSince: string | null;
  /** Null when a person can decide it now. */
  readonly blockedBy: unknown;
}

/** Gates a person could decide now that have waited longer than `hours` by `now`. */
function waitingNow(records: readonly LedgerRecord[], feature: string, gates: readonly OpenGate[], now: number, hours: number): Smell[] {
  return gates
    .filter((g) => g.status === 'open' && g.blockedBy === null && g.pendingSince !== null && now - Date.parse(g.pendingSince) > hours * 3_600_000)
    .map((g) => {
      const about = records.filter((r) => r.subject.gate === g.name && (r.subject.story ?? null) === g.story);
      const name = g.story ? `The ${g.name} gate of ${g.story}` : `The ${g.name} gate`;
      return {
        kind: 'long-wait' as const,
        subject: { feature, gate: g.name, ...(g.story ? { story: g.story } : {}) },
        says: `${name} has waited ${duration(now - Date.parse(g.pendingSince!))} for a decision so far (over ${hours} h), and the work behind it stands still: decide it, or name more approvers.`,
        records: seqs(about),
      };
    });
}

const bySeq = (a: Smell, b: Smell): number =>
  SMELL_KINDS.indexOf(a.kind) - SMELL_KINDS.indexOf(b.kind) || (a.records[0] ?? 0) - (b.records[0] ?? 0) || a.says.localeCompare(b.says);

/** Drops the keys a spread left undefined, so a smell's subject is what the records name. */
const clean = (subject: Subject): Subject => Object.fromEntries(Object.entries(subject).filter(([, v]) => v !== undefined));

/**
 * The smells of one feature, from the whole ledger (records of other features are left out); with
 * `open` (its gates and the time now), also the gates waiting for a decision too long so far.
 */
export function featureSmells(
  records: readonly LedgerRecord[],
  feature: string,
  thresholds: SmellThresholds = SMELL_DEFAULTS,
  open?: { readonly gates: readonly OpenGate[]; readonly now: Date },
): Smell[] {
  // In seq order whatever order they came in: "later", "first" and "last" are the ledger's.
  const mine = records.filter((r) => r.subject.feature === feature).sort((a, b) => a.seq - b.seq);
  return [
    ...stalls(mine, thresholds.stallFactor),
    ...fragile(mine),
    ...repeatedViolations(mine, feature, thresholds.repeatedViolations),
    ...repairLoops(mine),
    ...gateSmells(mine, thresholds),
    ...(open ? waitingNow(mine, feature, open.gates, open.now.getTime(), thresholds.gateWaitHours) : []),
  ]
    .map((s) => ({ ...s, subject: clean(s.subject) }))
    .sort(bySeq);
}

/** Every feature's smells, feature by feature; given `now`, with the gates that have waited too long so far. */
export const projectSmells = (
  records: readonly LedgerRecord[],
  features: readonly { readonly id: string; readonly gates?: readonly OpenGate[] }[],
  thresholds: SmellThresholds = SMELL_DEFAULTS,
  now?: Date,
): Smell[] => features.flatMap((f) => featureSmells(records, f.id, thresholds, now && f.gates ? { gates: f.gates, now } : undefined));

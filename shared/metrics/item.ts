/**
 * One test-list item's metrics over all its rounds (each round is a cycle of its own, `F/T` then
 * `F/T#2`), folded from its ledger records alone. Definitions are in shared/metrics.ts. Pure.
 */
import { countRecords, type CycleCounts } from '../cycle-counts';
import type { LedgerRecord } from '../ledger';
import type { EscalationDecision } from '../model';
import { RECORD_TYPES, recordOf, recordsOf } from '../records';
import { hostModel, STEPS, sumOf, turnsOf, usageBy, usageOf, type Step, type Usage } from './turns';

export type StepTimes = Readonly<Record<Step, number | null>>;

export interface EscalationMetric {
  readonly cycle: string;
  readonly at: string;
  readonly reason: string | null;
  /** The person's `escalation.decided` decision for that cycle; null while nobody has decided. */
  readonly decision: EscalationDecision | null;
  readonly decidedBy: string | null;
  /** From the escalation to the decision; null while undecided. */
  readonly waitedMs: number | null;
}

export interface MutationMetric {
  readonly score: number | null;
  readonly killed: number;
  readonly tested: number;
  readonly survived: number;
}

export interface ItemMetrics {
  readonly item: string;
  readonly story: string | null;
  /** The item's status as the project view shows it (shared/metrics.ts), else its latest `item.status` record; null when neither. */
  readonly status: string | null;
  readonly rounds: number;
  /** The first `cycle.planned`, and the first `cycle.finished` done after it (any round); null when not recorded. */
  readonly plannedAt: string | null;
  readonly doneAt: string | null;
  readonly cycleTimeMs: number | null;
  readonly stepMs: StepTimes;
  readonly agentMs: number | null;
  readonly testRunMs: number | null;
  readonly firstPassGreen: boolean | null;
  /** Null when the item has no cycle record. */
  readonly counts: CycleCounts | null;
  readonly violationsByStep: Readonly<Record<string, number>>;
  readonly violationsByKind: Readonly<Record<string, number>>;
  readonly escalations: readonly EscalationMetric[];
  readonly usage: Usage;
  readonly usageByRole: Readonly<Record<string, Usage>>;
  readonly usageByAgent: Readonly<Record<string, Usage>>;
  /** The latest `cycle.mutated` of the item; null when its GREEN was never mutated. */
  readonly mutation: MutationMetric | null;
}

const ms = (from: string, to: string): number => Date.parse(to) - Date.parse(from);
const isStep = (step: string): step is Step => (STEPS as readonly string[]).includes(step);

/** The step whose work a record ends: the interval since the cycle's previous record is that step's time. */
function stepOf(record: LedgerRecord): Step | null {
  switch (record.type) {
    case RECORD_TYPES.cycleRed:
    case RECORD_TYPES.cycleLocked:
      return 'red';
    case RECORD_TYPES.cycleGreen:
    case RECORD_TYPES.cycleGreened:
      return 'green';
    case RECORD_TYPES.cycleRefactored:
      return 'refactor';
    case RECORD_TYPES.cycleReviewed:
      return 'review';
  }
  const step = recordOf(record, RECORD_TYPES.cycleViolation)?.data.step ?? recordOf(record, RECORD_TYPES.cycleDependencies)?.data.step;
  return step !== undefined && isStep(step) ? step : null;
}

/** The records of each cycle, cycles in the order they were planned (or first met). */
function byCycle(records: readonly LedgerRecord[]): Map<string, LedgerRecord[]> {
  const cycles = new Map<string, LedgerRecord[]>();
  for (const r of records) {
    const cycle = r.subject.cycle;
    if (cycle === undefined) continue;
    const mine = cycles.get(cycle);
    if (mine) mine.push(r);
    else cycles.set(cycle, [r]);
  }
  return cycles;
}

function stepTimes(cycles: Map<string, LedgerRecord[]>): StepTimes {
  const times: Record<Step, number | null> = { red: null, green: null, refactor: null, review: null };
  for (const records of cycles.values()) {
    records.forEach((r, i) => {
      const step = stepOf(r);
      const previous = records[i - 1];
      if (step !== null) times[step] = (times[step] ?? 0) + (previous ? Math.max(0, ms(previous.at, r.at)) : 0);
    });
  }
  return times;
}

/** The first cycle went GREEN at attempt 1, nothing repaired; null while it has neither a GREEN verdict nor an end. */
function firstPass(first: readonly LedgerRecord[] | undefined): boolean | null {
  if (!first) return null;
  const greens = recordsOf(first, RECORD_TYPES.cycleGreen);
  if (greens.length === 0) return recordsOf(first, RECORD_TYPES.cycleFinished).length ? false : null;
  return greens.some((g) => g.data.attempt === 1 && g.data.verdict === 'green') && countRecords(first).repairs === 0;
}

function tally(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) out[k] = (out[k] ?? 0) + 1;
  return out;
}

function escalationsOf(records: readonly LedgerRecord[]): EscalationMetric[] {
  const decisions = recordsOf(records, RECORD_TYPES.escalationDecided);
  return recordsOf(records, RECORD_TYPES.cycleFinished)
    .filter((f) => f.data.status === 'escalated')
    .map((f) => {
      const cycle = f.subject.cycle ?? '';
      const decided = decisions.find((d) => d.subject.cycle === cycle && d.seq > f.seq) ?? null;
      return {
        cycle,
        at: f.at,
        reason: f.data.reason ?? null,
        decision: decided?.data.decision ?? null,
        decidedBy: decided?.actor.id ?? null,
        waitedMs: decided ? ms(f.at, decided.at) : null,
      };
    });
}

function mutationOf(records: readonly LedgerRecord[]): MutationMetric | null {
  const latest = recordsOf(records, RECORD_TYPES.cycleMutated).at(-1);
  if (!latest) return null;
  const d = latest.data;
  return { score: d.score, killed: d.killed, tested: d.tested, survived: d.survived.length };
}

/** `records`: the item's own (subject feature and item), in ledger order. */
export function itemMetrics(item: string, story: string | null, records: readonly LedgerRecord[]): ItemMetrics {
  const cycles = byCycle(records);
  const planned = recordsOf(records, RECORD_TYPES.cyclePlanned);
  const done = recordsOf(records, RECORD_TYPES.cycleFinished).find((f) => f.data.status === 'done');
  const turns = turnsOf(records);
  const violations = recordsOf(records, RECORD_TYPES.cycleViolation);
  const firstCycle = planned[0]?.subject.cycle ?? cycles.keys().next().value;
  return {
    item,
    story,
    status: recordsOf(records, RECORD_TYPES.itemStatus).at(-1)?.data.status ?? null,
    rounds: new Set(planned.map((p) => p.subject.cycle)).size,
    plannedAt: planned[0]?.at ?? null,
    doneAt: done?.at ?? null,
    cycleTimeMs: planned[0] && done ? ms(planned[0].at, done.at) : null,
    stepMs: stepTimes(cycles),
    agentMs: sumOf(turns, (t) => t.turnMs),
    testRunMs: sumOf(turns, (t) => t.testRunMs),
    firstPassGreen: firstPass(firstCycle === undefined ? undefined : cycles.get(firstCycle)),
    counts: cycles.size ? countRecords(records) : null,
    violationsByStep: tally(violations.map((v) => v.data.step)),
    violationsByKind: tally(violations.map((v) => v.data.against)),
    escalations: escalationsOf(records),
    usage: usageOf(turns),
    usageByRole: usageBy(turns, (t) => t.role),
    usageByAgent: usageBy(turns, hostModel),
    mutation: mutationOf(records),
  };
}

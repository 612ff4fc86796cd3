/**
 * Outcome metrics from the ledger (issue 35), one definition each, the same numbers in every host.
 * Null means "not recorded", never a made-up zero. Per item, over all its rounds (cycles `F/T`, `F/T#2`):
 * - cycleTimeMs: the item's first `cycle.planned` → its first `cycle.finished` with status `done`.
 * - stepMs: per step (red, green incl. repairs, refactor, review), the time between each of the
 *   item's cycle records and the cycle's previous record, counted to the step the later record
 *   ends (`cycle.red`/`cycle.locked` RED; `cycle.green`/`cycle.greened` GREEN; `cycle.refactored`;
 *   `cycle.reviewed`; a violation's or dependency request's own `step`). Waiting for a person
 *   (an escalation's decision) ends in no step and is in none; null for a step with no record.
 * - agentMs: the sum of the turns' `turnMs` (RED, GREEN, REFACTOR and REVIEW verdict records).
 * - testRunMs: the sum of the orchestrator's test runs after those turns: `testRunMs` (both runs,
 *   GREEN's re-check of RED's tree, the throwaway database) or, on a record without it, `runMs`.
 * - firstPassGreen: its first cycle went GREEN at attempt 1 with no repair (false when it went
 *   GREEN later, or ended without GREEN; null while it has neither).
 * - counts: repairs, violations, rejected REDs, refactors (shared/cycle-counts.ts, the one definition);
 *   violations by `step` and by kind (`against`: the lock, the test run, code that tells a run apart).
 * - escalations: each `cycle.finished` escalated, with its `escalation.decided` decision and wait.
 * - usage: tokens and cost of the turns whose agent reported them (`agent`), by role and by host/model.
 * - mutation: the latest `cycle.mutated` score, killed, tested, survived.
 * A story and a feature add their items up; their firstPassGreenRate is the share of items with a
 * first-pass answer that passed first time. Gates: each decision's `waitedMs`/`viewedMs`. A feature's
 * interventions are the records a person made after the request (gate decisions, escalation and
 * amendment decisions, tells allowed, restores), by type; its waitingForPersonMs adds up the gates'
 * recorded waits and the decided escalations' waits (null when none is recorded). Pure.
 */
import { addCounts, type CycleCounts } from './cycle-counts';
import type { LedgerRecord } from './ledger';
import type { TestItem } from './model';
import { RECORD_TYPES } from './records';
import { gateDecisions, gateLatency, type GateDecisionMetric, type GateLatency } from './metrics/gates';
import { itemMetrics, type ItemMetrics } from './metrics/item';
import { addUsage, NO_USAGE, sumOf, type Usage } from './metrics/turns';

export type { EscalationMetric, ItemMetrics, MutationMetric, StepTimes } from './metrics/item';
export type { GateDecisionMetric, GateLatency } from './metrics/gates';
export type { Usage } from './metrics/turns';

export interface Totals {
  readonly items: number;
  readonly done: number;
  /** Earliest plan → latest done of the items; null unless every item is done. */
  readonly cycleTimeMs: number | null;
  readonly agentMs: number | null;
  readonly testRunMs: number | null;
  readonly firstPassGreenRate: number | null;
  readonly counts: CycleCounts | null;
  /** Escalations by how they were decided (`undecided`: waiting for a person). */
  readonly escalations: Readonly<Record<string, number>>;
  readonly usage: Usage;
  readonly usageByRole: Readonly<Record<string, Usage>>;
  readonly usageByAgent: Readonly<Record<string, Usage>>;
}

export interface StoryMetrics extends Totals {
  readonly story: string;
  /** Its latest acceptance decision approved it. */
  readonly accepted: boolean;
}

export interface FeatureMetrics {
  readonly feature: string;
  readonly items: readonly ItemMetrics[];
  readonly stories: readonly StoryMetrics[];
  readonly totals: Totals;
  readonly gates: readonly GateDecisionMetric[];
  readonly gateLatency: readonly GateLatency[];
  /** Every human action that changed the course: the records a person made after the request, by type. */
  readonly interventions: { readonly total: number; readonly byType: Readonly<Record<string, number>> };
  /** Time the work waited for a person: the gates' recorded waits plus decided escalations' waits; null when none is recorded. */
  readonly waitingForPersonMs: number | null;
}

/** What the metrics need of a feature: its id and its test list (each item's story, and its status as the project view shows it, when known). */
export interface FeatureOutline {
  readonly id: string;
  readonly testList: readonly (Pick<TestItem, 'id' | 'storyId'> & { readonly status?: string })[];
}

const mergeUsage = (a: Readonly<Record<string, Usage>>, b: Readonly<Record<string, Usage>>): Record<string, Usage> => {
  const out: Record<string, Usage> = { ...a };
  for (const [k, u] of Object.entries(b)) out[k] = addUsage(out[k] ?? NO_USAGE, u);
  return out;
};

export function totalsOf(items: readonly ItemMetrics[]): Totals {
  const answered = items.filter((i) => i.firstPassGreen !== null);
  const planned = items.flatMap((i) => i.plannedAt ?? []).sort();
  const done = items.flatMap((i) => i.doneAt ?? []).sort();
  const allDone = items.length > 0 && done.length === items.length && planned.length > 0;
  const escalations: Record<string, number> = {};
  for (const e of items.flatMap((i) => i.escalations)) escalations[e.decision ?? 'undecided'] = (escalations[e.decision ?? 'undecided'] ?? 0) + 1;
  const counted = items.flatMap((i) => i.counts ?? []);
  return {
    items: items.length,
    done: done.length,
    cycleTimeMs: allDone ? Date.parse(done.at(-1)!) - Date.parse(planned[0]!) : null,
    agentMs: sumOf(items, (i) => i.agentMs),
    testRunMs: sumOf(items, (i) => i.testRunMs),
    firstPassGreenRate: answered.length ? answered.filter((i) => i.firstPassGreen).length / answered.length : null,
    counts: counted.length ? counted.reduce(addCounts) : null,
    escalations,
    usage: items.reduce((u, i) => addUsage(u, i.usage), NO_USAGE),
    usageByRole: items.reduce<Record<string, Usage>>((u, i) => mergeUsage(u, i.usageByRole), {}),
    usageByAgent: items.reduce<Record<string, Usage>>((u, i) => mergeUsage(u, i.usageByAgent), {}),
  };
}

/** The feature's metrics from the whole ledger (records of other features are left out). */
export function featureMetrics(records: readonly LedgerRecord[], feature: FeatureOutline): FeatureMetrics {
  const mine = records.filter((r) => r.subject.feature === feature.id);
  const byItem = new Map<string, LedgerRecord[]>(feature.testList.map((t) => [t.id, []]));
  for (const r of mine) {
    if (r.subject.item === undefined) continue;
    const list = byItem.get(r.subject.item);
    if (list) list.push(r);
    else byItem.set(r.subject.item, [r]);
  }
  const listed = new Map(feature.testList.map((t) => [t.id, t]));
  const items = [...byItem].map(([id, own]) => {
    const item = itemMetrics(id, listed.get(id)?.storyId ?? own.find((r) => r.subject.story)?.subject.story ?? null, own);
    const status = listed.get(id)?.status;
    return status === undefined ? item : { ...item, status };
  });
  const gates = gateDecisions(mine);
  const storyIds = [...new Set(items.flatMap((i) => i.story ?? []))];
  const stories = storyIds.map((story) => {
    const acceptance = gates.filter((g) => g.story === story && g.gate === 'acceptance').at(-1);
    return { story, accepted: acceptance?.decision === 'approved', ...totalsOf(items.filter((i) => i.story === story)) };
  });
  const byType: Record<string, number> = {};
  for (const r of mine) if (r.actor.kind === 'person' && r.type !== RECORD_TYPES.featureRequested) byType[r.type] = (byType[r.type] ?? 0) + 1;
  const waits = [...gates.map((g) => g.waitedMs), ...items.flatMap((i) => i.escalations.map((e) => e.waitedMs))].filter((ms): ms is number => ms !== null);
  return {
    feature: feature.id,
    items,
    stories,
    totals: totalsOf(items),
    gates,
    gateLatency: gateLatency(gates),
    interventions: { total: Object.values(byType).reduce((n, k) => n + k, 0), byType },
    waitingForPersonMs: waits.length ? waits.reduce((n, ms) => n + ms, 0) : null,
  };
}

/** Every feature's metrics, and the project's totals over them. */
export function projectMetrics(records: readonly LedgerRecord[], features: readonly FeatureOutline[]): { features: FeatureMetrics[]; totals: Totals } {
  const each = features.map((f) => featureMetrics(records, f));
  return { features: each, totals: totalsOf(each.flatMap((f) => f.items)) };
}

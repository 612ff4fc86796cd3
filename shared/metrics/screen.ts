/**
 * What the Metrics screen shows (issue 35): the figures of shared/metrics.ts exactly as `baton metrics
 * --json` prints them, the smell report, and the records behind each figure (by `seq`) so every point
 * and row of a chart links to the Evidence screen. The links add no figure of their own; the burn-up
 * is the one series the metrics do not hold, folded here from the same records. Pure.
 */
import type { LedgerRecord } from '../ledger';
import { projectMetrics, type FeatureMetrics, type FeatureOutline, type Totals } from '../metrics';
import { RECORD_TYPES, recordOf, recordsOf } from '../records';
import { projectSmells, type Smell, type SmellThresholds } from './smells';
import { hostModel, turnOf } from './turns';

/**
 * One step of the burn-up: after record `seq` (at `at`), how many of the feature's `scope` items had
 * started (a first cycle record), gone GREEN (a GREEN verdict) and finished done.
 */
export interface BurnPoint {
  readonly seq: number;
  readonly at: string;
  readonly started: number;
  readonly green: number;
  readonly done: number;
  readonly scope: number;
}

export interface FeatureLinks {
  readonly feature: string;
  /** Item → the seq of each of its records, ascending. */
  readonly items: Readonly<Record<string, readonly number[]>>;
  /** Story → the seqs of its repaired GREEN attempts (attempt 2 on) and of its violations. */
  readonly repairs: Readonly<Record<string, readonly number[]>>;
  readonly violations: Readonly<Record<string, readonly number[]>>;
  /** The seq of each gate decision, in the order of FeatureMetrics.gates. */
  readonly gates: readonly number[];
  /** Agent host/model (as usageByAgent keys it) → the seqs of its turns. */
  readonly agents: Readonly<Record<string, readonly number[]>>;
  readonly burnUp: readonly BurnPoint[];
}

export interface MetricsScreen {
  readonly layout: string;
  readonly features: readonly FeatureMetrics[];
  readonly totals: Totals;
  /** In the order of `features`. */
  readonly links: readonly FeatureLinks[];
  readonly smells: readonly Smell[];
  /** Why the smell report could not be made (a bad `smells` setting), or null. */
  readonly smellsProblem: string | null;
  /** False when the ledger's chain does not verify: the figures may rest on altered records. */
  readonly chainOk: boolean;
}

const push = (map: Record<string, number[]>, key: string, seq: number): void => {
  (map[key] ??= []).push(seq);
};

function burnUp(mine: readonly LedgerRecord[], scope: number): BurnPoint[] {
  const started = new Set<string>();
  const green = new Set<string>();
  const done = new Set<string>();
  const points: BurnPoint[] = [];
  for (const r of mine) {
    const item = r.subject.item;
    if (item === undefined) continue;
    const greened =
      r.type === RECORD_TYPES.cycleGreened || recordOf(r, RECORD_TYPES.cycleGreen)?.data.verdict === 'green' ? !green.has(item) && green.add(item) : false;
    // Started: the item's first cycle record (a plan, or a RED of a cycle resumed from elsewhere).
    const planned = r.subject.cycle !== undefined && !started.has(item) && started.add(item);
    const finished = recordOf(r, RECORD_TYPES.cycleFinished)?.data.status === 'done' && !done.has(item) && done.add(item);
    if (greened || planned || finished) points.push({ seq: r.seq, at: r.at, started: started.size, green: green.size, done: done.size, scope });
  }
  return points;
}

/** The records behind a feature's figures. `records`: the whole ledger, in order. */
export function featureLinks(records: readonly LedgerRecord[], feature: FeatureOutline, metrics: FeatureMetrics): FeatureLinks {
  const mine = records.filter((r) => r.subject.feature === feature.id);
  const storyOf = new Map(metrics.items.map((i) => [i.item, i.story]));
  const items: Record<string, number[]> = {};
  const repairs: Record<string, number[]> = {};
  const violations: Record<string, number[]> = {};
  const agents: Record<string, number[]> = {};
  for (const r of mine) {
    if (r.subject.item === undefined) continue;
    push(items, r.subject.item, r.seq);
    const story = storyOf.get(r.subject.item) ?? r.subject.story;
    const green = recordOf(r, RECORD_TYPES.cycleGreen);
    if (story && green && green.data.attempt > 1) push(repairs, story, r.seq);
    if (story && r.type === RECORD_TYPES.cycleViolation) push(violations, story, r.seq);
    const turn = turnOf(r);
    const agent = turn ? hostModel(turn) : null;
    if (agent !== null) push(agents, agent, r.seq);
  }
  const gates = [...recordsOf(mine, RECORD_TYPES.gateApproved), ...recordsOf(mine, RECORD_TYPES.gateRejected)].map((r) => r.seq).sort((a, b) => a - b);
  return { feature: feature.id, items, repairs, violations, gates, agents, burnUp: burnUp(mine, feature.testList.length) };
}

/** The screen's whole answer; `thresholds` is a problem sentence when the project's `smells` settings do not validate. */
export function metricsScreen(
  records: readonly LedgerRecord[],
  features: readonly FeatureOutline[],
  thresholds: SmellThresholds | string,
  chain: { readonly layout: string; readonly chainOk: boolean },
  now?: Date,
): MetricsScreen {
  const metrics = projectMetrics(records, features);
  return {
    layout: chain.layout,
    ...metrics,
    links: features.map((f, i) => featureLinks(records, f, metrics.features[i]!)),
    smells: typeof thresholds === 'string' ? [] : projectSmells(records, features, thresholds, now),
    smellsProblem: typeof thresholds === 'string' ? thresholds : null,
    chainOk: chain.chainOk,
  };
}

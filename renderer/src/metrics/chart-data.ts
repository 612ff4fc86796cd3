/**
 * The Metrics screen's charts as data, pure: each chart's bars (or points) from the figures main
 * folded (shared/metrics.ts, the numbers `baton metrics` prints) and the records behind them
 * (shared/metrics/screen.ts), each with the link that opens its record. A figure the ledger does not
 * hold stays null ("not recorded"), never a zero.
 */
import type { FeatureMetrics, Usage } from '../../../shared/metrics';
import type { FeatureLinks } from '../../../shared/metrics/screen';
import { duration } from '../../../shared/metrics/smells';

export type Tone = 'red' | 'green' | 'refactor' | 'review' | 'repairs' | 'violations' | 'wait' | 'cost' | 'agent';

export interface Series {
  readonly key: string;
  readonly label: string;
  readonly tone: Tone;
}

export interface Bar {
  readonly key: string;
  readonly label: string;
  /** One value per series, in the chart's series order; null: not recorded. */
  readonly values: readonly (number | null)[];
  /** The record this bar opens (`#/evidence/<seq>`); null when no record shows it. */
  readonly seq: number | null;
  /** Every record behind it, for the table. */
  readonly seqs: readonly number[];
}

export interface BarChart {
  readonly id: string;
  readonly series: readonly Series[];
  readonly bars: readonly Bar[];
  readonly unit: 'ms' | 'count' | 'usd' | 'tokens';
}

export const NOT_RECORDED = 'not recorded';

/** A value as the screen writes it, in the chart's unit. */
export function formatValue(value: number | null, unit: BarChart['unit']): string {
  if (value === null) return NOT_RECORDED;
  switch (unit) {
    case 'ms':
      // Under a second in milliseconds: a scale of small steps reads "50 ms", not "0.1 s" twice.
      return value < 1000 ? `${Math.round(value)} ms` : duration(value);
    case 'usd':
      return `$${value.toFixed(4)}`;
    default:
      return String(value);
  }
}

/** A bar's total: the sum of its recorded values; null when none is recorded. */
export const barTotal = (bar: Bar): number | null => bar.values.reduce<number | null>((sum, v) => (v === null ? sum : (sum ?? 0) + v), null);

/** The first of some seqs, or null. */
const first = (seqs: readonly number[] | undefined): number | null => seqs?.[0] ?? null;

export const STEP_SERIES: readonly Series[] = [
  { key: 'red', label: 'RED', tone: 'red' },
  { key: 'green', label: 'GREEN (with repairs)', tone: 'green' },
  { key: 'refactor', label: 'REFACTOR', tone: 'refactor' },
  { key: 'review', label: 'REVIEW', tone: 'review' },
];

/** Cycle time per item, stacked by step: each step's recorded time (shared/metrics/item.ts stepMs). */
export function cycleTimeChart(f: FeatureMetrics, links: FeatureLinks): BarChart {
  return {
    id: 'cycle-time',
    unit: 'ms',
    series: STEP_SERIES,
    bars: f.items.map((i) => ({
      key: i.item,
      label: i.item,
      values: [i.stepMs.red, i.stepMs.green, i.stepMs.refactor, i.stepMs.review],
      seq: first(links.items[i.item]),
      seqs: links.items[i.item] ?? [],
    })),
  };
}

/** Repairs and violations per story (shared/cycle-counts.ts): null counts when the story has no cycle. */
export function storyChart(f: FeatureMetrics, links: FeatureLinks): BarChart {
  return {
    id: 'story-repairs',
    unit: 'count',
    series: [
      { key: 'repairs', label: 'Repairs', tone: 'repairs' },
      { key: 'violations', label: 'Violations', tone: 'violations' },
    ],
    bars: f.stories.map((s) => {
      const seqs = [...(links.repairs[s.story] ?? []), ...(links.violations[s.story] ?? [])].sort((a, b) => a - b);
      return { key: s.story, label: s.story, values: [s.counts?.repairs ?? null, s.counts?.violations ?? null], seq: first(seqs), seqs };
    }),
  };
}

/** Approval latency: each gate decision's recorded wait (opened for a decision → decided). */
export function gateChart(f: FeatureMetrics, links: FeatureLinks): BarChart {
  return {
    id: 'gate-latency',
    unit: 'ms',
    series: [{ key: 'waited', label: 'Waited for a decision', tone: 'wait' }],
    bars: f.gates.map((g, index) => {
      const seq = links.gates[index] ?? null;
      return { key: `${index}`, label: g.story ? `${g.gate} ${g.story}` : g.gate, values: [g.waitedMs], seq, seqs: seq === null ? [] : [seq] };
    }),
  };
}

/** Cost per accepted story: the agents' reported cost of its items; the bar opens the acceptance. */
export function costChart(f: FeatureMetrics, links: FeatureLinks): BarChart {
  const acceptanceSeq = (story: string): number | null => {
    // The latest approval of the story's acceptance gate (the one that made it accepted).
    let index = -1;
    f.gates.forEach((g, i) => {
      if (g.gate === 'acceptance' && g.story === story && g.decision === 'approved') index = i;
    });
    return index < 0 ? null : (links.gates[index] ?? null);
  };
  return {
    id: 'story-cost',
    unit: 'usd',
    series: [{ key: 'cost', label: 'Cost (USD)', tone: 'cost' }],
    bars: f.stories
      .filter((s) => s.accepted)
      .map((s) => {
        const seq = acceptanceSeq(s.story);
        return { key: s.story, label: s.story, values: [s.usage.costUsd], seq, seqs: seq === null ? [] : [seq] };
      }),
  };
}

/** The measures agent hosts are compared on, each a chart of its own (one bar per host/model). */
export const AGENT_MEASURES = [
  { key: 'turns', label: 'Turns', unit: 'count', of: (u: Usage): number | null => u.turns },
  { key: 'input', label: 'Input tokens', unit: 'tokens', of: (u: Usage): number | null => u.inputTokens },
  { key: 'output', label: 'Output tokens', unit: 'tokens', of: (u: Usage): number | null => u.outputTokens },
  { key: 'cost', label: 'Cost (USD)', unit: 'usd', of: (u: Usage): number | null => u.costUsd },
] as const;

/** Agent hosts side by side: one chart per measure, the same hosts in the same order in each. */
export function agentCharts(usageByAgent: Readonly<Record<string, Usage>>, links: readonly FeatureLinks[]): BarChart[] {
  const seqsOf = (agent: string): number[] => links.flatMap((l) => l.agents[agent] ?? []).sort((a, b) => a - b);
  return AGENT_MEASURES.map((m) => ({
    id: `agents-${m.key}`,
    unit: m.unit,
    series: [{ key: m.key, label: m.label, tone: 'agent' as const }],
    bars: Object.entries(usageByAgent).map(([agent, usage]) => {
      const seqs = seqsOf(agent);
      return { key: agent, label: agent, values: [m.of(usage)], seq: first(seqs), seqs };
    }),
  }));
}

/** A scale's top: the largest value rounded up to 1, 2 or 5 times a power of ten (0 → 1). */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

export interface BurnSeries {
  readonly key: 'started' | 'green' | 'done';
  readonly label: string;
  readonly tone: Tone;
  /** `x` from 0 (the first step) to 1 (the last), by time; by order when all share one instant. */
  readonly points: readonly { readonly x: number; readonly y: number; readonly seq: number; readonly at: string }[];
}

/** Items by status over time, a burn-up: started, GREEN and done against the feature's scope. */
export function burnUpChart(links: FeatureLinks): { readonly scope: number; readonly series: readonly BurnSeries[] } {
  const points = links.burnUp;
  const times = points.map((p) => Date.parse(p.at));
  const t0 = times[0] ?? 0;
  const span = (times.at(-1) ?? 0) - t0;
  const xOf = (i: number): number => (points.length < 2 ? 0 : span > 0 ? (times[i]! - t0) / span : i / (points.length - 1));
  const line = (key: BurnSeries['key'], label: string, tone: Tone): BurnSeries => ({
    key,
    label,
    tone,
    points: points.map((p, i) => ({ x: xOf(i), y: p[key], seq: p.seq, at: p.at })),
  });
  return {
    scope: points[0]?.scope ?? 0,
    series: [line('started', 'Started', 'refactor'), line('green', 'GREEN', 'green'), line('done', 'Done', 'review')],
  };
}

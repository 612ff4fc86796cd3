/** The charts' data from the Metrics screen's answer: bars, values left null when not recorded, each linked to its records. */
import { describe, expect, it } from 'vitest';
import { metricsScreen } from '../../../shared/metrics/screen';
import { screenLedger } from '../../../shared/metrics/screen.fixture';
import { SMELL_DEFAULTS } from '../../../shared/metrics/smells';
import { agentCharts, barTotal, burnUpChart, costChart, cycleTimeChart, formatValue, gateChart, niceMax, storyChart } from './chart-data';

const { records, feature } = screenLedger();
const screen = metricsScreen(records, [feature], SMELL_DEFAULTS, { layout: 'baton', chainOk: true });
const f = screen.features[0]!;
const links = screen.links[0]!;

describe('chart data', () => {
  it('stacks each item by step and opens its first record; an item that never ran has no value, not a zero', () => {
    const chart = cycleTimeChart(f, links);
    expect(chart.bars.map((b) => [b.key, b.values, b.seq])).toEqual([
      ['T1', [10_000, 20_000, null, null], 2],
      ['T2', [null, 20_000, null, null], 6],
      ['T3', [null, null, null, null], null],
    ]);
    expect(chart.bars.map(barTotal)).toEqual([30_000, 20_000, null]);
  });

  it('counts repairs and violations per story from the same fold as the CLI', () => {
    const chart = storyChart(f, links);
    expect(chart.bars.map((b) => [b.key, b.values, b.seqs])).toEqual([
      ['S-1', [1, 1], [8, 9]],
      ['S-2', [null, null], []],
    ]);
  });

  it('shows each gate decision with its recorded wait, a decision without one as not recorded', () => {
    const chart = gateChart(f, links);
    expect(chart.bars.map((b) => [b.label, b.values, b.seq])).toEqual([
      ['test_list', [5000], 1],
      ['acceptance S-1', [null], 11],
    ]);
    expect(formatValue(null, 'ms')).toBe('not recorded');
    expect([formatValue(0, 'ms'), formatValue(640, 'ms'), formatValue(5000, 'ms')]).toEqual(['0 ms', '640 ms', '5.0 s']);
  });

  it('charts the cost of accepted stories only, opening the acceptance', () => {
    expect(costChart(f, links).bars.map((b) => [b.key, b.values, b.seq])).toEqual([['S-1', [0.04], 11]]);
  });

  it('compares agent hosts on the same measures, each linking to its turns', () => {
    const charts = agentCharts(f.totals.usageByAgent, [links]);
    expect(charts.map((c) => c.bars.map((b) => [b.key, b.values[0], b.seq]))).toEqual([
      [['claude-code/sonnet', 2, 3]],
      [['claude-code/sonnet', 2000, 3]],
      [['claude-code/sonnet', 400, 3]],
      [['claude-code/sonnet', 0.04, 3]],
    ]);
  });

  it('places burn-up points by time, by order when all share one instant', () => {
    const data = burnUpChart(links);
    expect(data.scope).toBe(3);
    expect(data.series.find((s) => s.key === 'done')!.points.map((p) => [p.x, p.y])).toEqual([
      [0, 0],
      [0.6, 0],
      [0.8, 1],
      [1, 1],
    ]);
    const sameInstant = burnUpChart({ ...links, burnUp: links.burnUp.map((p) => ({ ...p, at: '2026-12-01T09:00:00.000Z' })) });
    expect(sameInstant.series[0]!.points.map((p) => p.x)).toEqual([0, 1 / 3, 2 / 3, 1]);
  });

  it('rounds a scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.3, 3, 7, 10, 4100].map(niceMax)).toEqual([1, 0.5, 5, 10, 10, 5000]);
  });
});

/** The Metrics screen's answer: the CLI's figures unchanged, and the records behind each one (shared/metrics/screen.ts). */
import { describe, expect, it } from 'vitest';
import { projectMetrics } from '../metrics';
import { metricsScreen } from './screen';
import { screenLedger } from './screen.fixture';
import { SMELL_DEFAULTS } from './smells';

const { records, feature } = screenLedger();

describe('metricsScreen', () => {
  const screen = metricsScreen(records, [feature], SMELL_DEFAULTS, { layout: 'baton', chainOk: true });
  const links = screen.links[0]!;

  it('carries the figures of projectMetrics (what `baton metrics --json` prints) unchanged', () => {
    const cli = projectMetrics(records, [feature]);
    expect(screen.features).toEqual(cli.features);
    expect(screen.totals).toEqual(cli.totals);
  });

  it('links each item, repair, violation, gate decision and agent to its records', () => {
    expect(links.items).toEqual({ T1: [2, 3, 4, 5], T2: [6, 7, 8, 9, 10] });
    expect(links.repairs).toEqual({ 'S-1': [9] });
    expect(links.violations).toEqual({ 'S-1': [8] });
    expect(links.gates).toEqual([1, 11]);
    expect(screen.features[0]!.gates.map((g) => g.gate)).toEqual(['test_list', 'acceptance']);
    expect(links.agents).toEqual({ 'claude-code/sonnet': [3, 4] });
  });

  it('burns up at each record that started, greened or finished an item, against the test list', () => {
    expect(links.burnUp.map((p) => [p.seq, p.started, p.green, p.done, p.scope])).toEqual([
      [2, 1, 0, 0, 3],
      [4, 1, 1, 0, 3],
      [5, 1, 1, 1, 3],
      [6, 2, 1, 1, 3],
    ]);
  });

  it('says why the smell report is missing instead of making one with other thresholds', () => {
    const bad = metricsScreen(records, [feature], 'smells.stallFactor must be a number', { layout: 'baton', chainOk: false });
    expect(bad.smells).toEqual([]);
    expect(bad.smellsProblem).toBe('smells.stallFactor must be a number');
    expect(bad.chainOk).toBe(false);
  });
});

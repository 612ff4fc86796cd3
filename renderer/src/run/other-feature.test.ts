/**
 * The Live run panel is keyed by the feature the board shows (issue 34): a new feature never appears
 * to have the last run's cycles, and an item's counts are the ledger's (its card's), never the cycle
 * machine's repair budget (a lock violation is a violation, not a repair). Rendered statically: the
 * store's hooks read its initial state there, so the panel's parts are rendered one by one.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CycleRun, Feature, ProjectView } from '../../../shared/model';
import { IDLE_RUN } from '../../../shared/run-view';
import { CycleView } from './cycle-view';
import { OtherFeatureNotice, otherFeature, panelScope } from './other-feature';
import { runCountsOf } from './run-counts';

const cycle = (item: string, counts: CycleRun['counts']): CycleRun => ({
  id: `F-inventory/${item}`,
  source: 'ledger',
  items: [item],
  story: 'S-2',
  ac: null,
  redAt: null,
  greenAt: null,
  refactoredAt: null,
  attempts: 1,
  verdict: null,
  review: null,
  outcome: 'done',
  file: null,
  record: null,
  counts,
});

const feature = (id: string, cycleRuns: CycleRun[] = []): Feature => ({
  id,
  name: id,
  description: '',
  stories: [],
  testList: [],
  gates: [],
  cycles: cycleRuns.length,
  cycleRuns,
  escalations: [],
  amendments: [],
  lockedTests: [],
  runBlock: null,
});

const project: ProjectView = {
  root: '/p',
  name: 'p',
  layout: 'baton',
  artifactRoot: '/p/.baton',
  readOnly: false,
  bundle: null,
  // T8's cycle changed a locked file once and went GREEN at its first attempt.
  features: [feature('F-inventory', [cycle('T8', { repairs: 0, violations: 1, rejectedRed: 0, refactors: 1 })]), feature('F-gift')],
  problems: [],
};

/** What the panel shows after a restart: the last run's feature, its lifecycle and items from the saved machines. */
const lastRun = { ...IDLE_RUN, feature: 'F-inventory', lifecycle: 'done' as const, items: [{ item: 'T8', state: 'done' as const, status: 'green' as const }] };

describe('the Live run panel and the feature the board shows', () => {
  it('names the run’s feature and shows none of its machines when the board shows another feature', () => {
    expect(panelScope(lastRun, 'F-gift')).toEqual({ other: 'F-gift', machines: false });
    const html = renderToStaticMarkup(createElement(OtherFeatureNotice, { runFeature: 'F-inventory', viewed: 'F-gift', running: false }));
    expect(html).toContain('data-testid="run-other-feature"');
    expect(html).toMatch(
      /This panel shows the last run, of <span class="mono">F-inventory<\/span>; the board shows <span class="mono">F-gift<\/span>, which has not run in this window/,
    );
    expect(html).toContain('Show F-inventory');
  });

  it('while that run runs, its machines stay under the notice; on its own feature, or all features, no notice', () => {
    expect(panelScope({ ...lastRun, running: true }, 'F-gift')).toEqual({ other: 'F-gift', machines: true });
    const running = renderToStaticMarkup(createElement(OtherFeatureNotice, { runFeature: 'F-inventory', viewed: 'F-gift', running: true }));
    expect(running).toMatch(/Running <span class="mono">F-inventory<\/span>; the board shows <span class="mono">F-gift<\/span>, which is not running/);
    expect(panelScope(lastRun, 'F-inventory')).toEqual({ other: null, machines: true });
    expect(panelScope(lastRun, null)).toEqual({ other: null, machines: true });
    expect(panelScope(IDLE_RUN, 'F-gift')).toEqual({ other: null, machines: true });
  });

  it('the cycle view counts what the ledger holds for the item, as its card does: a lock violation is not a repair', () => {
    const countsOf = runCountsOf(project, 'F-inventory');
    const html = renderToStaticMarkup(createElement(CycleView, { items: lastRun.items, current: 'T8', active: [], countsOf }));
    expect(html).toMatch(/data-testid="run-counter-violations">1</);
    expect(html).toMatch(/data-testid="run-counter-repairs">0</);
    expect(html).toMatch(/data-testid="run-counter-refactors">1</);
    // Another feature's items have no counts of this one's.
    expect(runCountsOf(project, 'F-gift')('T8')).toBeNull();
  });
});

it('otherFeature: only a feature the board shows that is not the run’s', () => {
  expect(otherFeature('F-1', 'F-2')).toBe('F-2');
  expect(otherFeature('F-1', 'F-1')).toBeNull();
  expect(otherFeature('F-1', null)).toBeNull();
  expect(otherFeature(null, 'F-2')).toBeNull();
});

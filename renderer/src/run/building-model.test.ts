import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RunFeedEvent } from '../../../shared/run';
import { foldRunEvents, IDLE_RUN } from '../../../shared/run-view';
import { buildingAnnouncement, buildingRows, followedItem, isBuilding } from './building-model';
import { BuildingNow } from './building-now';
import { CycleView } from './cycle-view';

const cycle = (item: string, state: 'plan' | 'red' | 'green' | 'done'): RunFeedEvent => ({ kind: 'cycle.state', feature: 'F-1', item, state });

// Two stories built in parallel: T1's and T3's cycles interleave.
const parallel = foldRunEvents(
  IDLE_RUN,
  [
    { kind: 'run.requested', runId: 'r1', feature: 'F-1', at: 't0' },
    { kind: 'lifecycle.state', feature: 'F-1', state: 'building' },
    cycle('T1', 'plan'),
    cycle('T3', 'plan'),
    cycle('T1', 'green'),
    { kind: 'turn.started', item: 'T1', role: 'driver', step: 'green', attempt: 2 },
    cycle('T3', 'red'),
    { kind: 'runner.started', item: 'T3', step: 'red', command: 'npm test' },
  ],
  100,
);
const single = foldRunEvents(parallel, [cycle('T1', 'done')], 100);

/** The text of each list row whose test id starts with the prefix, tags left out, in document order. */
const texts = (html: string, testIdPrefix: string): string[] =>
  [...html.matchAll(new RegExp(`<li[^>]*data-testid="${testIdPrefix}[^"]*"[^>]*>(.*?)</li>`, 'g'))].map((m) => m[1]!.replace(/<[^>]+>/g, ''));

describe('what the run builds now', () => {
  it('names every item being built, with its cycle state and its turn or test run', () => {
    expect(buildingRows(parallel)).toEqual([
      { item: 'T1', state: 'green', doing: 'driver turn · green · attempt 2' },
      { item: 'T3', state: 'red', doing: 'test run · red' },
    ]);
    expect(buildingAnnouncement(parallel.active)).toBe('Building T1 and T3');
    expect(buildingAnnouncement(['T1', 'T2', 'T3'])).toBe('Building T1, T2 and T3');
    expect(buildingRows(single)).toEqual([{ item: 'T3', state: 'red', doing: 'test run · red' }]);
  });

  it('marks every card being built live, and none once the run has ended', () => {
    expect(['T1', 'T2', 'T3'].filter((item) => isBuilding(parallel, 'F-1', item))).toEqual(['T1', 'T3']);
    expect(isBuilding(parallel, 'F-2', 'T1')).toBe(false);
    const ended = foldRunEvents(parallel, [{ kind: 'run.ended', runId: 'r1', outcome: 'stopped', message: null, at: 'now' }], 100);
    expect(['T1', 'T3'].filter((item) => isBuilding(ended, 'F-1', item))).toEqual([]);
  });

  it('follows the first item being built, not whichever moved last; after the run, the last one that moved', () => {
    expect(parallel.currentItem).toBe('T3');
    expect(followedItem(parallel)).toBe('T1');
    expect(followedItem(single)).toBe('T3');
    expect(followedItem({ active: [], currentItem: 'T1' })).toBe('T1');
  });
});

describe('the panel with two items being built', () => {
  it('lists both under "Building now", with their states and what they do', () => {
    const html = renderToStaticMarkup(createElement(BuildingNow, { rows: buildingRows(parallel) }));
    expect(html).toContain('Building now');
    expect(html).toContain('2 items in parallel');
    expect(texts(html, 'run-building-')).toEqual(['T1green· driver turn · green · attempt 2', 'T3red· test run · red']);
    expect(html).toContain('Building T1 and T3');
  });

  it('with one item, names it alone and says nothing of parallel work; with none, shows nothing', () => {
    const html = renderToStaticMarkup(createElement(BuildingNow, { rows: buildingRows(single) }));
    expect(texts(html, 'run-building-')).toEqual(['T3red· test run · red']);
    expect(html).not.toContain('parallel');
    expect(renderToStaticMarkup(createElement(BuildingNow, { rows: [] }))).toBe('');
  });

  it('marks both chips of the cycle view live, in words, and shows the first one’s cycle', () => {
    // The counts are the ledger's, for the item shown (T1): never the cycle machine's repair budget.
    const countsOf = (item: string) => (item === 'T1' ? { repairs: 0, violations: 1, rejectedRed: 2, refactors: 0 } : null);
    const html = renderToStaticMarkup(createElement(CycleView, { items: parallel.items, current: followedItem(parallel), active: parallel.active, countsOf }));
    expect(html).toMatch(/data-testid="run-counter-violations">1</);
    expect(html).toMatch(/data-testid="run-counter-rejected">2</);
    expect(html).toMatch(/data-testid="run-counter-repairs">0</);
    const live = [...html.matchAll(/data-testid="run-item-(T\d)" data-live="true"/g)].map((m) => m[1]);
    expect(live).toEqual(['T1', 'T3']);
    expect(html.match(/\(building now\)/g)).toHaveLength(2);
    expect(html).toMatch(/data-testid="cycle-machine" data-current="green"/);
    const after = renderToStaticMarkup(createElement(CycleView, { items: single.items, current: followedItem(single), active: single.active, countsOf }));
    expect([...after.matchAll(/data-testid="run-item-(T\d)" data-live="true"/g)].map((m) => m[1])).toEqual(['T3']);
  });
});

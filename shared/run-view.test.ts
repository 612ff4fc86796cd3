import { describe, expect, it } from 'vitest';
import type { RunFeedEvent, RunLog } from './run';
import { appendHead, appendText, EMPTY_LOG, foldRunEvents, IDLE_RUN, MAX_LINE_CHARS, runItem } from './run-view';

const texts = (log: RunLog) => log.lines.map((l) => l.text);

describe('the streaming panes', () => {
  it('joins a line split across chunks and keeps blank lines', () => {
    let log = appendText(EMPTY_LOG, 'ok 1 - adds', 10);
    expect(log.open).toBe(true);
    log = appendText(log, ' a product\n\nok 2', 10);
    log = appendText(log, ' - reads it\n', 10);
    expect(texts(log)).toEqual(['ok 1 - adds a product', '', 'ok 2 - reads it']);
    expect(log.open).toBe(false);
  });

  it('never joins output onto a section head, and strips terminal colour codes and CRs', () => {
    let log = appendText(EMPTY_LOG, 'partial', 10);
    log = appendHead(log, 'driver · green · T1 · attempt 1', 10);
    log = appendText(log, '\u001b[32mpass\u001b[39m\r\n', 10);
    expect(log.lines).toEqual([
      { kind: 'text', text: 'partial' },
      { kind: 'head', text: 'driver · green · T1 · attempt 1' },
      { kind: 'text', text: 'pass' },
    ]);
  });

  it('keeps the last lines and counts the ones it let go; cuts very long lines', () => {
    const log = appendText(EMPTY_LOG, Array.from({ length: 25 }, (_, i) => `line ${i}`).join('\n') + '\n', 10);
    expect(texts(log)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i + 15}`));
    expect(log.dropped).toBe(15);
    const long = appendText(EMPTY_LOG, 'x'.repeat(MAX_LINE_CHARS * 2), 10);
    expect(long.lines[0]!.text.length).toBeLessThan(MAX_LINE_CHARS + 5);
  });
});

describe('folding a run', () => {
  const run: RunFeedEvent[] = [
    { kind: 'run.requested', runId: 'r1', feature: null, at: '2025-01-01T00:00:00Z' },
    { kind: 'run.started', runId: 'x', feature: 'F-1', at: '2025-01-01T00:00:01Z' },
    { kind: 'lifecycle.state', feature: 'F-1', state: 'building' },
    { kind: 'cycle.state', feature: 'F-1', item: 'T1', state: 'red' },
    { kind: 'turn.started', item: 'T1', role: 'navigator', step: 'red', attempt: 1 },
    { kind: 'turn.output', item: 'T1', chunk: 'wrote test/a.test.js\n' },
    { kind: 'item.status', feature: 'F-1', item: 'T1', status: 'red' },
    { kind: 'cycle.state', feature: 'F-1', item: 'T1', state: 'green' },
  ];

  it('follows the lifecycle, each item and the current turn', () => {
    const state = foldRunEvents(IDLE_RUN, run, 100);
    expect(state).toMatchObject({ running: true, outcome: 'running', runId: 'r1', feature: 'F-1', lifecycle: 'building', currentItem: 'T1' });
    expect(state.turn).toEqual({ item: 'T1', role: 'navigator', step: 'red', attempt: 1 });
    expect(state.items).toEqual([{ item: 'T1', state: 'green', status: 'red' }]);
    expect(texts(state.transcript)).toEqual(['navigator · red · T1 · attempt 1', 'wrote test/a.test.js']);
    expect(runItem(state, 'F-1', 'T1')?.state).toBe('green');
    expect(runItem(state, 'F-2', 'T1')).toBeNull();
  });

  it('shows a note of the run (a copied run lock replaced) in the transcript, changing nothing else', () => {
    const before = foldRunEvents(IDLE_RUN, run.slice(0, 1), 100);
    const noted = foldRunEvents(before, [{ kind: 'run.note', message: 'Ignored the run lock …' }], 100);
    expect(texts(noted.transcript)).toEqual(['Ignored the run lock …']);
    expect({ ...noted, transcript: before.transcript }).toEqual(before);
  });

  it('ends only the run it names; a new run keeps what is known of the items and the batch count', () => {
    const state = foldRunEvents({ ...IDLE_RUN, seq: 7 }, run, 100);
    expect(foldRunEvents(state, [{ kind: 'run.ended', runId: 'other', outcome: 'failed', message: 'x', at: 'now' }], 100)).toBe(state);
    const ended = foldRunEvents(
      state,
      [
        { kind: 'run.stopping', runId: 'r1' },
        { kind: 'run.ended', runId: 'r1', outcome: 'stopped', message: null, at: 'now' },
      ],
      100,
    );
    expect(ended).toMatchObject({ running: false, stopping: false, outcome: 'stopped', finishedAt: 'now' });
    expect(ended.turn).toEqual(state.turn);
    const again = foldRunEvents(ended, [{ kind: 'run.requested', runId: 'r2', feature: null, at: 'later' }], 100);
    expect(again).toMatchObject({ runId: 'r2', running: true, feature: 'F-1', lifecycle: 'building', seq: 7, transcript: EMPTY_LOG });
    expect(again.items).toBe(ended.items);
  });
});

describe('items built in parallel', () => {
  const cycle = (item: string, state: 'plan' | 'red' | 'green' | 'done' | 'escalated'): RunFeedEvent => ({
    kind: 'cycle.state',
    feature: 'F-1',
    item,
    state,
  });
  const start: RunFeedEvent[] = [
    { kind: 'run.requested', runId: 'r1', feature: 'F-1', at: 't0' },
    { kind: 'lifecycle.state', feature: 'F-1', state: 'building' },
  ];
  // T1 (story S-1) and T3 (story S-2) interleave, as two cycles running at once send them.
  const interleaved: RunFeedEvent[] = [
    ...start,
    cycle('T1', 'plan'),
    cycle('T3', 'plan'),
    cycle('T1', 'red'),
    { kind: 'turn.started', item: 'T1', role: 'navigator', step: 'red', attempt: 1 },
    cycle('T3', 'red'),
    { kind: 'turn.started', item: 'T3', role: 'navigator', step: 'red', attempt: 1 },
    { kind: 'runner.started', item: 'T1', step: 'red', command: 'npm test' },
    { kind: 'turn.output', item: 'T3', chunk: 'wrote test/b.test.js\n' },
  ];

  it('lists every item whose cycle runs, in the order they started, each with what it did last', () => {
    const state = foldRunEvents(IDLE_RUN, interleaved, 100);
    expect(state.active).toEqual(['T1', 'T3']);
    expect(state.activity).toEqual({
      T1: { kind: 'runner', runner: { item: 'T1', step: 'red', command: 'npm test' } },
      T3: { kind: 'turn', turn: { item: 'T3', role: 'navigator', step: 'red', attempt: 1 } },
    });
    // The single-item fields still say what moved last.
    expect(state).toMatchObject({ currentItem: 'T3', turn: { item: 'T3' }, runner: { item: 'T1' } });
  });

  it('lets an item go when its cycle is done or escalated, and keeps the other', () => {
    const oneDone = foldRunEvents(IDLE_RUN, [...interleaved, cycle('T1', 'green'), cycle('T1', 'done')], 100);
    expect(oneDone.active).toEqual(['T3']);
    expect(Object.keys(oneDone.activity)).toEqual(['T3']);
    expect(oneDone.items.find((i) => i.item === 'T1')?.state).toBe('done');
    const both = foldRunEvents(oneDone, [cycle('T3', 'escalated')], 100);
    expect(both.active).toEqual([]);
    expect(both.activity).toEqual({});
  });

  it('adds an item at its next cycle after the first finished, at the end of the list', () => {
    const state = foldRunEvents(IDLE_RUN, [...interleaved, cycle('T1', 'done'), cycle('T2', 'plan')], 100);
    expect(state.active).toEqual(['T3', 'T2']);
  });

  it('does not add an item for a final state of a cycle it never saw start, nor for turns outside a cycle', () => {
    const state = foldRunEvents(
      IDLE_RUN,
      [
        ...start,
        cycle('T1', 'done'),
        cycle('T2', 'escalated'),
        { kind: 'turn.started', item: null, role: 'author', step: 'artifact', attempt: 1 },
        { kind: 'runner.started', item: 'T9', step: 'green', command: 'npm test' },
      ],
      100,
    );
    expect(state.active).toEqual([]);
    expect(state.activity).toEqual({});
    expect(state.items.map((i) => i.item)).toEqual(['T1', 'T2']);
  });

  it('empties the list when the run ends, and a new run starts with none', () => {
    const state = foldRunEvents(IDLE_RUN, interleaved, 100);
    const other = foldRunEvents(state, [{ kind: 'run.ended', runId: 'other', outcome: 'failed', message: null, at: 'now' }], 100);
    expect(other.active).toEqual(['T1', 'T3']);
    const ended = foldRunEvents(state, [{ kind: 'run.ended', runId: 'r1', outcome: 'stopped', message: null, at: 'now' }], 100);
    expect(ended.active).toEqual([]);
    expect(ended.activity).toEqual({});
    expect(ended.currentItem).toBe('T3');
    const again = foldRunEvents(state, [{ kind: 'run.requested', runId: 'r2', feature: null, at: 'later' }], 100);
    expect(again.active).toEqual([]);
    expect(again.activity).toEqual({});
  });
});

import { describe, expect, it } from 'vitest';
import type { RunFeedEvent, RunLog } from './run';
import { appendHead, appendText, EMPTY_LOG, foldRunEvents, IDLE_RUN, MAX_LINE_CHARS, runItem } from './run-view';

const texts = (log: RunLog) => log.lines.map((l) => l.text);
const counters = { repairs: 0, violations: 0, rejectedRed: 0, refactors: 0 };

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
    { kind: 'cycle.state', feature: 'F-1', item: 'T1', state: 'red', counters },
    { kind: 'turn.started', item: 'T1', role: 'navigator', step: 'red', attempt: 1 },
    { kind: 'turn.output', item: 'T1', chunk: 'wrote test/a.test.js\n' },
    { kind: 'item.status', feature: 'F-1', item: 'T1', status: 'red' },
    { kind: 'cycle.state', feature: 'F-1', item: 'T1', state: 'green', counters: { ...counters, repairs: 1 } },
  ];

  it('follows the lifecycle, each item and the current turn', () => {
    const state = foldRunEvents(IDLE_RUN, run, 100);
    expect(state).toMatchObject({ running: true, outcome: 'running', runId: 'r1', feature: 'F-1', lifecycle: 'building', currentItem: 'T1' });
    expect(state.turn).toEqual({ item: 'T1', role: 'navigator', step: 'red', attempt: 1 });
    expect(state.items).toEqual([{ item: 'T1', state: 'green', counters: { ...counters, repairs: 1 }, status: 'red' }]);
    expect(texts(state.transcript)).toEqual(['navigator · red · T1 · attempt 1', 'wrote test/a.test.js']);
    expect(runItem(state, 'F-1', 'T1')?.counters.repairs).toBe(1);
    expect(runItem(state, 'F-2', 'T1')).toBeNull();
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

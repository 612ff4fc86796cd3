/**
 * The run session without a real run: a controllable runFeature stands in so the tests choose
 * when events arrive and when the run ends. Timers are fake: batching and throttling are about time.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunProgressedEvent } from '../../shared/contract';
import type { RunEvent, RunFeedEvent, RunSummary } from '../../shared/run';
import type { RunOptions } from '../engine/run-feature';
import { capChunk, compactBatch, Throttle } from './run-batch';
import { RunSession } from './run-session';

const SUMMARY: RunSummary = {
  project: '/p',
  feature: 'F-1',
  phase: 'acceptance',
  items: { total: 1, byStatus: { refactored: 1 } },
  repairs: 0,
  violations: 0,
  rejectedRed: 0,
  escalations: [],
  blocked: null,
  ledgerHead: null,
  stoppedAt: 'waiting at the acceptance gate',
};

/** A runFeature the test drives: it emits when told and settles when told, or rejects on abort. */
function controlledRun() {
  const calls: RunOptions[] = [];
  let settle: { resolve(s: RunSummary): void; reject(e: unknown): void } | null = null;
  const runFeature = (options: RunOptions) => {
    calls.push(options);
    return new Promise<RunSummary>((resolve, reject) => {
      settle = { resolve, reject };
      options.signal?.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
    });
  };
  return {
    runFeature,
    calls,
    emit: (event: RunEvent) => calls.at(-1)!.onEvent!(event),
    finish: (summary = SUMMARY) => settle!.resolve(summary),
    fail: (error: unknown) => settle!.reject(error),
  };
}

function session(extra: Partial<ConstructorParameters<typeof RunSession>[0]> = {}) {
  const run = controlledRun();
  const batches: RunProgressedEvent[] = [];
  const refreshes: number[] = [];
  const s = new RunSession({
    root: '/p',
    runFeature: run.runFeature,
    emit: (payload) => batches.push(payload),
    refresh: async () => void refreshes.push(Date.now()),
    newRunId: () => 'run-1',
    ...extra,
  });
  const kinds = () => batches.flatMap((b) => b.events.map((e) => e.kind));
  return { s, run, batches, refreshes, kinds };
}

const T0 = Date.parse('2025-01-01T00:00:00Z');
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('batching the live events', () => {
  it('holds events for flushMs, then sends them as one batch with neighbouring output merged', async () => {
    const { s, run, batches } = session();
    expect(s.start({})).toEqual({ ok: true, value: { runId: 'run-1' } });
    for (let i = 0; i < 200; i += 1) run.emit({ kind: 'turn.output', item: 'T1', chunk: `line ${i}\n` });
    run.emit({ kind: 'runner.started', item: 'T1', step: 'red', command: 'node --test' });
    run.emit({ kind: 'runner.output', item: 'T1', chunk: 'not ok 1\n' });
    await vi.advanceTimersByTimeAsync(99);
    expect(batches).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(batches).toHaveLength(1);
    const { events, seq, runId } = batches[0]!;
    expect({ seq, runId }).toEqual({ seq: 1, runId: 'run-1' });
    expect(events.map((e) => e.kind)).toEqual(['run.requested', 'turn.output', 'runner.started', 'runner.output']);
    const merged = events[1] as Extract<RunFeedEvent, { kind: 'turn.output' }>;
    expect(merged.chunk.split('\n')).toHaveLength(201);
    expect(merged.chunk.startsWith('line 0\nline 1\n')).toBe(true);
    // A quiet run sends nothing.
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toHaveLength(1);
  });

  it('cuts an output chunk longer than maxChunk to its two ends and says how much was left out', async () => {
    const { s, run, batches } = session({ maxChunk: 1000 });
    s.start({});
    run.emit({ kind: 'runner.output', item: 'T1', chunk: `FIRST${'x'.repeat(100_000)}LAST` });
    await vi.advanceTimersByTimeAsync(100);
    const chunk = (batches[0]!.events[1] as Extract<RunFeedEvent, { kind: 'runner.output' }>).chunk;
    expect(chunk.length).toBeLessThan(1200);
    expect(chunk.startsWith('FIRST')).toBe(true);
    expect(chunk.endsWith('LAST')).toBe(true);
    expect(chunk).toContain('99,009 characters left out here');
    expect(capChunk('short', 1000)).toBe('short');
  });

  it('merges only output of the same stream and item that follow each other', () => {
    const out = (kind: 'turn.output' | 'runner.output', item: string, chunk: string) => ({ kind, item, chunk }) as RunFeedEvent;
    const batch = compactBatch(
      [
        out('turn.output', 'T1', 'a'),
        out('turn.output', 'T1', 'b'),
        out('turn.output', 'T2', 'c'),
        out('runner.output', 'T2', 'd'),
        { kind: 'recorded', type: 'cycle.red', hash: 'h', item: 'T2' },
        out('runner.output', 'T2', 'e'),
      ],
      100,
    );
    expect(batch).toEqual([
      out('turn.output', 'T1', 'ab'),
      out('turn.output', 'T2', 'c'),
      out('runner.output', 'T2', 'd'),
      { kind: 'recorded', type: 'cycle.red', hash: 'h', item: 'T2' },
      out('runner.output', 'T2', 'e'),
    ]);
  });

  it('answers run:state as of the last batch, so a client folding batches never counts an event twice', async () => {
    const { s, run, batches } = session();
    s.start({});
    run.emit({ kind: 'lifecycle.state', feature: 'F-1', state: 'building' });
    const state = s.state;
    expect(batches).toHaveLength(1);
    expect(state.seq).toBe(1);
    expect(state.lifecycle).toBe('building');
    run.emit({ kind: 'cycle.state', feature: 'F-1', item: 'T1', state: 'red' });
    await vi.advanceTimersByTimeAsync(100);
    expect(batches.map((b) => b.seq)).toEqual([1, 2]);
    expect(s.state).toMatchObject({ seq: 2, currentItem: 'T1' });
  });
});

describe('re-reading the project while a run writes', () => {
  it('re-reads at once, then at most once per refreshMs, and always after the last change', async () => {
    const { s, run, refreshes } = session({ refreshMs: 500 });
    s.start({});
    for (let t = 0; t < 1000; t += 50) {
      run.emit({ kind: 'recorded', type: 'cycle.red', hash: `h${t}`, item: 'T1' });
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(2000);
    expect(refreshes.map((t) => t - T0)).toEqual([0, 500, 1000]);
  });

  it('lets lifecycle and output events pass without a re-read', async () => {
    const { s, run, refreshes } = session();
    s.start({});
    run.emit({ kind: 'lifecycle.state', feature: 'F-1', state: 'building' });
    run.emit({ kind: 'turn.output', item: 'T1', chunk: 'x' });
    await vi.advanceTimersByTimeAsync(2000);
    expect(refreshes).toEqual([]);
  });

  it('never runs two re-reads at once, and folds requests made during one into a single next one', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    const throttle = new Throttle(async () => {
      calls += 1;
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 800));
      running -= 1;
    }, 500);
    for (let t = 0; t < 1200; t += 100) {
      throttle.request();
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.advanceTimersByTimeAsync(5000);
    await throttle.idle();
    expect(most).toBe(1);
    // t=0 runs until 800; requests meanwhile make one call at 800, which runs to 1600 and covers the rest.
    expect(calls).toBe(3);
  });
});

describe('one run at a time, stopped by its AbortController', () => {
  it('refuses a second run, stops the first, and starts again once it has ended', async () => {
    const { s, run, kinds, refreshes } = session();
    expect(s.start({ feature: 'F-1', until: 'acceptance' }).ok).toBe(true);
    expect(run.calls[0]).toMatchObject({ root: '/p', feature: 'F-1', until: 'acceptance' });
    const second = s.start({});
    expect(second.ok ? null : second.error).toMatchObject({ code: 'busy', message: expect.stringContaining('already going') });

    expect(s.stop()).toEqual({ stopped: true });
    expect(run.calls[0]!.signal!.aborted).toBe(true);
    expect(s.stop()).toEqual({ stopped: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.running).toBe(false);
    expect(s.state).toMatchObject({ running: false, stopping: false, outcome: 'stopped', message: null });
    expect(kinds()).toEqual(['run.requested', 'run.stopping', 'run.ended']);
    // The board shows the statuses the stopped run left.
    await vi.advanceTimersByTimeAsync(1000);
    expect(refreshes.length).toBeGreaterThan(0);

    expect(s.start({}).ok).toBe(true);
    expect(run.calls).toHaveLength(2);
    expect(run.calls[1]!.signal!.aborted).toBe(false);
  });

  it('says a stopping run is still stopping', () => {
    const { s } = session({ runFeature: (options) => new Promise(() => void options) });
    s.start({});
    s.stop();
    const again = s.start({});
    expect(again.ok ? null : again.error.message).toMatch(/still stopping/);
  });

  it('ends finished with the summary, or failed with what went wrong', async () => {
    const { s, run, batches } = session();
    s.start({});
    run.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state).toMatchObject({ outcome: 'finished', summary: SUMMARY, lifecycle: 'acceptance', running: false });
    s.start({});
    run.fail(new Error('Another Baton run (process 42) is working on this project.'));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state).toMatchObject({ outcome: 'failed', message: 'The run stopped with an error: Another Baton run (process 42) is working on this project.' });
    expect(batches.at(-1)!.events.at(-1)).toMatchObject({ kind: 'run.ended', outcome: 'failed' });
  });

  it('ends escalated when items wait for a person, and blocked when a gate it builds on drifted — never "finished"', async () => {
    const { s, run } = session();
    s.start({});
    run.finish({ ...SUMMARY, phase: 'escalated', escalations: [{ item: 'T3', reason: 'no RED', record: 'h' }] });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state).toMatchObject({ outcome: 'escalated', running: false });
    s.start({});
    const blocked = {
      record: 'b',
      message: 'Stopped before PLAN of T2',
      gates: [{ gate: 'test_list', story: null, status: 'drifted', files: ['.baton/features/F-1/test-list.json'] }],
    };
    run.finish({ ...SUMMARY, phase: 'building', blocked });
    await vi.advanceTimersByTimeAsync(0);
    expect(s.state).toMatchObject({ outcome: 'blocked', summary: { blocked } });
  });

  it('close() stops the run, waits for it and sends nothing after', async () => {
    const { s, run, batches } = session();
    s.start({});
    const closing = s.close();
    expect(run.calls[0]!.signal!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    await closing;
    const sent = batches.length;
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches).toHaveLength(sent);
    expect(s.start({}).ok).toBe(false);
  });
});

/**
 * The run channels through dispatch and the Workbench, on real project folders, with runFeature
 * replaced by one the test drives (the real run is exercised by the cycle tests and the browser
 * e2e spec): payload validation, refusals for bundles and Consort layouts, one run at a time,
 * batches and re-reads pushed as events, the persisted phase when nothing ran, closing stops.
 */
import { mkdir, realpath, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, Events } from '../../shared/contract';
import type { Result } from '../../shared/result';
import type { RunEvent, RunSummary } from '../../shared/run';
import { exportBundle } from '../ledger/bundle';
import { makeTempDir, minimalFeature, writeTree } from '../project/temp-project.fixture';
import type { RunOptions } from '../engine/run-feature';
import { projectDataDir } from '../platform/data-dir';
import { dispatch } from './dispatch';
import { createHandlers } from './handlers';
import { Workbench, type WorkbenchOptions } from './workbench';

let base: string;
let count = 0;
beforeAll(async () => {
  base = await makeTempDir('baton-run-wb-');
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function batonProject(extra: Record<string, string | object> = {}): Promise<string> {
  const root = join(base, `shop-${++count}`);
  await writeTree(root, { ...minimalFeature('.baton'), '.baton/project.json': { name: 'shop' }, ...extra });
  return root;
}

function bench(runFeature?: (options: RunOptions) => Promise<RunSummary>, extra: Partial<WorkbenchOptions> = {}) {
  const dataDir = join(base, `data-${++count}`);
  const workbench = new Workbench({
    host: 'browser',
    version: '0.0.0',
    configDir: join(base, `config-${count}`),
    env: { BATON_DATA_DIR: dataDir },
    ...(runFeature ? { runFeature } : {}),
    ...extra,
  });
  const events: { event: EventName; payload: unknown }[] = [];
  workbench.onEvent((event, payload) => events.push({ event, payload }));
  const handlers = createHandlers(workbench);
  const call = (channel: unknown, payload: unknown) => dispatch(handlers, channel, payload);
  return { workbench, events, call, dataDir };
}

const errorOf = (result: Result<unknown>) => {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`);
  return result.error;
};

/** Resolves when `test` holds, polling the real clock (the workbench reads real files). */
async function until(test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the run channels validate their payloads', () => {
  const call = (channel: unknown, payload: unknown) => bench().call(channel, payload);
  it.each([
    ['run:start', { until: 'tomorrow' }, 'until'],
    ['run:start', { feature: '' }, 'feature'],
    ['run:start', { feature: 'F-1', sneaky: true }, 'request'],
    ['run:stop', { now: true }, 'request'],
    ['run:state', { verbose: 1 }, 'request'],
  ])('%s refuses %j', async (channel, payload, path) => {
    const error = errorOf(await call(channel, payload));
    expect(error.code).toBe('invalid-request');
    expect(error.message).toContain(`Invalid request for ${channel}: ${path}`);
  });

  it('accepts a gate or done for until, and answers with no project as an error, not a throw', async () => {
    expect(errorOf(await call('run:start', { until: 'acceptance' })).code).toBe('no-project');
    expect(errorOf(await call('run:start', { until: 'done' })).code).toBe('no-project');
    expect(errorOf(await call('run:state', {})).code).toBe('no-project');
    expect(await call('run:stop', {})).toEqual({ ok: true, value: { stopped: false } });
  });
});

describe('what cannot run says why', () => {
  it('refuses a Consort project', async () => {
    const root = join(base, `consort-${++count}`);
    await writeTree(root, minimalFeature('.consort'));
    const { workbench, call } = bench(async () => Promise.reject(new Error('must not run')));
    expect((await workbench.open(root)).ok).toBe(true);
    const error = errorOf(await call('run:start', {}));
    expect(error).toMatchObject({
      code: 'read-only',
      message: expect.stringContaining('Baton reads this Consort project and never writes it: run its enforced loop'),
    });
  });

  it('refuses a review bundle', async () => {
    const root = await batonProject();
    const out = join(base, `review-${count}.baton`);
    expect((await exportBundle({ artifactRoot: join(root, '.baton'), layout: 'baton', projectName: 'shop', out })).ok).toBe(true);
    const { workbench, call } = bench(async () => Promise.reject(new Error('must not run')));
    expect((await workbench.open(out)).ok).toBe(true);
    expect(errorOf(await call('run:start', {}))).toMatchObject({ code: 'read-only', message: expect.stringContaining('review bundle') });
    await workbench.close();
  });

  it('names the features when asked for one that does not exist', async () => {
    const { workbench, call } = bench();
    await workbench.open(await batonProject());
    expect(errorOf(await call('run:start', { feature: 'F-9' }))).toMatchObject({ code: 'not-found', message: expect.stringContaining('Features: F-1') });
  });
});

describe('a run from the workbench', () => {
  it('runs on the project with its data folder, pushes batches and re-reads, refuses a second, stops, and closes', async () => {
    const calls: RunOptions[] = [];
    const { workbench, call, events, dataDir } = bench(
      (options) =>
        new Promise((_, reject) => {
          calls.push(options);
          options.signal!.addEventListener('abort', () => reject(new Error('stopped')));
        }),
    );
    const root = await batonProject();
    await workbench.open(root);
    events.length = 0;

    const started = await call('run:start', { until: 'acceptance' });
    expect(started).toMatchObject({ ok: true, value: { runId: expect.stringMatching(/^run-/) } });
    expect(calls[0]).toMatchObject({ root, until: 'acceptance', dataDir: projectDataDir(await realpath(root), dataDir) });
    expect(errorOf(await call('run:start', {})).code).toBe('busy');

    const emit = (e: RunEvent) => calls[0]!.onEvent!(e);
    emit({ kind: 'lifecycle.state', feature: 'F-1', state: 'building' });
    emit({ kind: 'item.status', feature: 'F-1', item: 'T1', status: 'red' });
    await until(() => events.some((e) => e.event === 'run:progressed') && events.some((e) => e.event === 'project:changed'));
    const batch = events.find((e) => e.event === 'run:progressed')!.payload as Events['run:progressed'];
    expect(batch.events.map((e) => e.kind)).toEqual(['run.requested', 'lifecycle.state', 'item.status']);
    const state = await call('run:state', {});
    expect(state).toMatchObject({ ok: true, value: { running: true, lifecycle: 'building', items: [{ item: 'T1', status: 'red' }] } });

    expect(await call('run:stop', {})).toEqual({ ok: true, value: { stopped: true } });
    expect(calls[0]!.signal!.aborted).toBe(true);
    await until(() => events.some((e) => e.event === 'run:progressed' && (e.payload as Events['run:progressed']).events.some((x) => x.kind === 'run.ended')));
    expect(await call('run:state', {})).toMatchObject({ ok: true, value: { running: false, outcome: 'stopped' } });

    // A new run, then closing the workbench stops it.
    expect((await call('run:start', {})).ok).toBe(true);
    await workbench.close();
    expect(calls[1]!.signal!.aborted).toBe(true);
  });

  it('shows the persisted lifecycle and cycle snapshots when nothing ran here yet', async () => {
    const root = await batonProject({
      '.baton/state/F-1/lifecycle.json': { status: 'active', value: 'building', context: {} },
      '.baton/state/F-1/cycle-T1.json': { status: 'active', value: 'green', context: { repairs: 2, violations: 1, rejectedRed: 0, refactors: 0 } },
    });
    const { workbench, call } = bench();
    await workbench.open(root);
    const state = await call('run:state', {});
    expect(state).toMatchObject({
      ok: true,
      value: {
        runId: null,
        running: false,
        feature: 'F-1',
        lifecycle: 'building',
        items: [{ item: 'T1', state: 'green' }],
      },
    });
    // The machine's budget counters are not the counts a screen shows (those come from the ledger).
    expect(JSON.stringify(state)).not.toContain('counters');
  });

  it('shows the feature that ran last, by its lifecycle snapshot, not the first feature', async () => {
    const root = await batonProject({
      ...minimalFeature('.baton', 'F-2'),
      '.baton/state/F-1/lifecycle.json': { status: 'active', value: 'done', context: {} },
      '.baton/state/F-2/lifecycle.json': { status: 'active', value: 'specGate', context: {} },
    });
    const older = new Date(Date.now() - 3_600_000);
    await utimes(join(root, '.baton', 'state', 'F-1', 'lifecycle.json'), older, older);
    const { workbench, call } = bench();
    await workbench.open(root);
    expect(await call('run:state', {})).toMatchObject({ ok: true, value: { feature: 'F-2', lifecycle: 'specGate', items: [] } });
  });

  it('stops a run when another project is opened', async () => {
    const calls: RunOptions[] = [];
    const { workbench, call } = bench(
      (options) => new Promise((_, reject) => (calls.push(options), options.signal!.addEventListener('abort', () => reject(new Error('stopped'))))),
    );
    await workbench.open(await batonProject());
    expect((await call('run:start', {})).ok).toBe(true);
    const other = await batonProject();
    await mkdir(other, { recursive: true });
    await workbench.open(other);
    expect(calls[0]!.signal!.aborted).toBe(true);
    expect(await call('run:state', {})).toMatchObject({ ok: true, value: { runId: null } });
    await workbench.close();
  });
});

describe("a host's own run options (the CLI's)", () => {
  const summary = { feature: 'F-1', phase: 'acceptance' } as RunSummary;

  it('hands its overrides to the engine, taps every event unbatched, and says how the run ended', async () => {
    const calls: RunOptions[] = [];
    const tapped: RunEvent[] = [];
    const chunk = 'x'.repeat(100_000);
    const { workbench, call, events } = bench(
      async (options) => {
        calls.push(options);
        options.onEvent!({ kind: 'turn.output', item: 'T1', chunk });
        options.onEvent!({ kind: 'turn.output', item: 'T1', chunk });
        return summary;
      },
      {
        run: {
          agents: { driver: 'scripted' },
          provider: 'postgres',
          postgresUrl: 'postgresql://x@h/db',
          dataDir: '/tmp/demo-data',
          onEvent: (e) => tapped.push(e),
        },
      },
    );
    await workbench.open(await batonProject());
    const started = await call('run:start', { until: 'acceptance' });
    if (!started.ok) throw new Error(started.error.message);
    const end = await workbench.runEnded((started.value as { runId: string }).runId);
    expect(end).toEqual({ runId: (started.value as { runId: string }).runId, outcome: 'finished', summary, error: null });
    expect(calls[0]).toMatchObject({ agents: { driver: 'scripted' }, provider: 'postgres', postgresUrl: 'postgresql://x@h/db', dataDir: '/tmp/demo-data' });
    // The tap sees the engine's events as they were (no session events, nothing merged or cut) ...
    expect(tapped).toEqual([
      { kind: 'turn.output', item: 'T1', chunk },
      { kind: 'turn.output', item: 'T1', chunk },
    ]);
    // ... while the pushed batches merge and cut the output as always.
    const pushed = events.flatMap((e) => (e.event === 'run:progressed' ? (e.payload as Events['run:progressed']).events : []));
    const output = pushed.filter((e) => e.kind === 'turn.output');
    expect(output).toHaveLength(1);
    expect((output[0] as { chunk: string }).chunk.length).toBeLessThan(2 * chunk.length);
    expect(await workbench.runEnded('run-of-someone-else')).toBeNull();
    await workbench.close();
  });

  it('gives the error a run threw word for word', async () => {
    const { workbench, call } = bench(async () => Promise.reject(new Error('No test command: set testCommand in .baton/project.json.')));
    await workbench.open(await batonProject());
    const started = await call('run:start', {});
    if (!started.ok) throw new Error(started.error.message);
    expect(await workbench.runEnded((started.value as { runId: string }).runId)).toMatchObject({
      outcome: 'failed',
      summary: null,
      error: 'No test command: set testCommand in .baton/project.json.',
    });
    await workbench.close();
  });
});

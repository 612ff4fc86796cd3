import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName } from '../../shared/contract';
import type { ProjectView, RecentProject } from '../../shared/model';
import type { Result } from '../../shared/result';
import { createHandlers } from './handlers';
import { Workbench, type WorkbenchOptions } from './workbench';

let base: string;
let dirCount = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-'));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function freshDir(prefix: string): Promise<string> {
  const dir = join(base, `${prefix}-${++dirCount}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A small Consort project: one feature with a two-item test list. */
async function consortProject(name = 'shop'): Promise<string> {
  const root = await freshDir(name);
  const feature = join(root, '.consort', 'features', 'F1');
  await mkdir(feature, { recursive: true });
  await writeFile(join(feature, 'feature-spec.json'), JSON.stringify({ feature_id: 'F1', name: 'Checkout' }));
  await writeFile(
    join(feature, 'test-list.json'),
    JSON.stringify([
      { id: 'T1', description: 'adds to cart', ac_id: 'AC-1', status: 'green', kind: 'behavior' },
      { id: 'T2', description: 'pays', ac_id: 'AC-1', status: 'red' },
    ]),
  );
  return root;
}

/** A Workbench with its own config folder and a clock that ticks one second per call. */
async function workbench(extra: Partial<WorkbenchOptions> = {}) {
  const configDir = await freshDir('config');
  let tick = Date.parse('2025-01-01T00:00:00Z');
  const bench = new Workbench({ host: 'browser', version: '1.2.3', configDir, now: () => new Date((tick += 1000)), ...extra });
  const events: { event: EventName; payload: ProjectView }[] = [];
  // Branch progress has its own tests (branches-workbench.test.ts); these follow the project.
  bench.onEvent((event, payload) => {
    if (event === 'project:changed') events.push({ event, payload: payload as ProjectView });
  });
  return { bench, configDir, events };
}

const valueOf = <T>(result: Result<T>): T => {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};

const recentFile = async (configDir: string): Promise<RecentProject[]> =>
  JSON.parse(await readFile(join(configDir, 'recent-projects.json'), 'utf8')) as RecentProject[];

describe('Workbench.open', () => {
  it('reads the project, makes it current and emits project:changed', async () => {
    const root = await consortProject();
    const { bench, events } = await workbench();
    const view = valueOf(await bench.open(root));
    expect(view).toMatchObject({ root, name: root.split('/').pop(), layout: 'consort', readOnly: true });
    expect(view.features.map((f) => [f.id, f.name, f.testList.map((t) => `${t.id}:${t.status}`)])).toEqual([['F1', 'Checkout', ['T1:green', 'T2:red']]]);
    expect(bench.project).toEqual(view);
    expect(events).toEqual([{ event: 'project:changed', payload: view }]);
  });

  it('resolves a relative path to an absolute root', async () => {
    const root = await consortProject();
    const { bench } = await workbench();
    const view = valueOf(await bench.open(relative(process.cwd(), root)));
    expect(view.root).toBe(root);
  });

  it('remembers opened projects in the config folder, newest first, without duplicates', async () => {
    const [a, b] = [await consortProject('alpha'), await consortProject('beta')];
    const { bench, configDir } = await workbench();
    valueOf(await bench.open(a));
    valueOf(await bench.open(b));
    valueOf(await bench.open(a));
    const onDisk = await recentFile(configDir);
    expect(onDisk.map((r) => r.path)).toEqual([a, b]);
    expect(onDisk[0]).toEqual({ path: a, name: a.split('/').pop(), openedAt: '2025-01-01T00:00:03.000Z' });
    expect(await bench.recent()).toEqual(onDisk);
    // A second Workbench on the same config folder (the next launch) sees the same list.
    expect(await new Workbench({ host: 'electron', version: '1', configDir }).recent()).toEqual(onDisk);
  });

  it('keeps only the ten most recent projects', async () => {
    const roots: string[] = [];
    for (let i = 0; i < 12; i++) roots.push(await consortProject(`many${i}`));
    const { bench, configDir } = await workbench();
    for (const root of roots) valueOf(await bench.open(root));
    const paths = (await recentFile(configDir)).map((r) => r.path);
    expect(paths).toEqual(roots.slice(2).reverse());
  });

  it('creates a config folder that does not exist yet', async () => {
    const root = await consortProject();
    const configDir = join(await freshDir('nested'), 'a', 'b');
    const bench = new Workbench({ host: 'browser', version: '1', configDir });
    valueOf(await bench.open(root));
    expect((await recentFile(configDir)).map((r) => r.path)).toEqual([root]);
  });

  it('starts a fresh list when the saved one is damaged', async () => {
    const root = await consortProject();
    const { bench, configDir } = await workbench();
    await writeFile(join(configDir, 'recent-projects.json'), '{ not json');
    expect(await bench.recent()).toEqual([]);
    valueOf(await bench.open(root));
    expect((await recentFile(configDir)).map((r) => r.path)).toEqual([root]);
  });

  it('remembers both of two projects opened at the same time', async () => {
    const [a, b] = [await consortProject('together-a'), await consortProject('together-b')];
    const { bench } = await workbench();
    await Promise.all([bench.open(a), bench.open(b)]);
    expect((await bench.recent()).map((r) => r.path).sort()).toEqual([a, b].sort());
  });

  it('refuses a folder that is not a project and keeps the current one', async () => {
    const root = await consortProject();
    const empty = await freshDir('empty');
    const { bench, configDir, events } = await workbench();
    const view = valueOf(await bench.open(root));
    const result = await bench.open(empty);
    expect(result).toMatchObject({ ok: false, error: { code: 'not-a-project' } });
    expect(result.ok ? '' : result.error.message).toContain(empty);
    expect(bench.project).toEqual(view);
    expect(events).toHaveLength(1);
    expect((await recentFile(configDir)).map((r) => r.path)).toEqual([root]);
  });

  it('refuses a missing folder with not-found', async () => {
    const { bench, events } = await workbench();
    const missing = join(base, 'no-such-folder');
    expect(await bench.open(missing)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(bench.project).toBeNull();
    expect(events).toEqual([]);
  });

  it('stops telling a listener once it unsubscribes', async () => {
    const root = await consortProject();
    const { bench, events } = await workbench();
    const late: string[] = [];
    const unsubscribe = bench.onEvent((event) => late.push(event));
    valueOf(await bench.open(root));
    unsubscribe();
    valueOf(await bench.open(root));
    expect(late).toEqual(['project:changed']);
    expect(events).toHaveLength(2);
  });
});

describe('Workbench.reload', () => {
  it('answers no-project when nothing is open', async () => {
    const { bench } = await workbench();
    expect(await bench.reload()).toMatchObject({ ok: false, error: { code: 'no-project' } });
  });

  it('re-reads the open project from disk and emits again', async () => {
    const root = await consortProject();
    const { bench, events } = await workbench();
    valueOf(await bench.open(root));
    await writeFile(join(root, '.consort', 'features', 'F1', 'test-list.json'), JSON.stringify([{ id: 'T9', status: 'pending' }]));
    const view = valueOf(await bench.reload());
    expect(view.features[0]!.testList.map((t) => t.id)).toEqual(['T9']);
    expect(bench.project).toEqual(view);
    expect(events.map((e) => e.payload.features[0]!.testList.length)).toEqual([2, 1]);
  });

  it('leaves the recent projects as opening left them: only open() writes that file', async () => {
    const root = await consortProject();
    const { bench, configDir } = await workbench();
    valueOf(await bench.open(root));
    const before = await readFile(join(configDir, 'recent-projects.json'), 'utf8');
    valueOf(await bench.reload());
    valueOf(await bench.reload());
    expect(await readFile(join(configDir, 'recent-projects.json'), 'utf8')).toBe(before);
  });
});

describe('Workbench.pick', () => {
  it('answers unsupported without a folder picker', async () => {
    const { bench } = await workbench();
    const result = await bench.pick();
    expect(result).toMatchObject({ ok: false, error: { code: 'unsupported' } });
  });

  it("returns the picker's answer, including a cancel", async () => {
    const answers = ['/picked/folder', null];
    const { bench } = await workbench({ pickFolder: async () => answers.shift() ?? null });
    expect(await bench.pick()).toEqual({ ok: true, value: { path: '/picked/folder' } });
    expect(await bench.pick()).toEqual({ ok: true, value: { path: null } });
  });
});

describe('handlers', () => {
  it.each([
    ['browser', 'browser'],
    ['electron', 'electron'],
    ['cli', 'browser'],
  ] as const)('app:info on the %s host answers host %s and the version', async (host, expected) => {
    const { bench } = await workbench({ host });
    expect(await createHandlers(bench)['app:info']({})).toEqual({ ok: true, value: { version: '1.2.3', host: expected } });
  });

  it('project:current and project:recent follow the workbench', async () => {
    const root = await consortProject();
    const { bench } = await workbench();
    const handlers = createHandlers(bench);
    expect(await handlers['project:current']({})).toEqual({ ok: true, value: null });
    const opened = valueOf(await handlers['project:open']({ path: root }));
    expect(await handlers['project:current']({})).toEqual({ ok: true, value: opened });
    expect(valueOf(await handlers['project:recent']({})).map((r) => r.path)).toEqual([root]);
  });
});

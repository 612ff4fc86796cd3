/**
 * Branch lifecycle on the pglite provider: delete refuses parents, reset restores the parent's
 * data, list reports depth, an idle server exits by itself and comes back on demand, an owned
 * throwaway's server exits with its owner, a background one's runs at the lowest CPU priority, and a
 * cancelled or failed create leaves nothing behind.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import pg from 'pg';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pidAlive } from '../../platform/fs-facts';
import { PgliteProvider } from './pglite-provider';
import { readServeInfo, startServer, stopServer, waitForExit } from './server-process';
import { readMeta } from './layout';
import { localUrl } from './progress';
import { makeTempProvider, withBranch, withClient, type TempProvider } from './pglite.fixture';

let t: TempProvider;
beforeAll(async () => {
  t = await makeTempProvider({ poolSize: 0 });
  await t.provider.ensureRoot('main');
  await withBranch(t.provider, 'main', (c) => c.query("create table items (id int primary key, label text); insert into items values (1, 'one'), (2, 'two')"));
}, 90_000);
afterAll(async () => {
  await t?.dispose();
});

const labels = (c: { query: (sql: string) => Promise<{ rows: { label: string }[] }> }) =>
  c.query('select label from items order by id').then((r) => r.rows.map((row) => row.label));

/** Nothing named `name` anywhere: not listed, no branch folder, no work left in staging. */
async function expectNoTrace(name: string): Promise<void> {
  expect((await t.provider.list()).map((b) => b.name)).not.toContain(name);
  await expect(fs.access(t.layout.home(name))).rejects.toMatchObject({ code: 'ENOENT' });
  expect(await fs.readdir(t.layout.staging).catch(() => [])).toEqual([]);
}

describe('pglite branch lifecycle', () => {
  it('lists depth, refuses to delete a parent, and resets a branch to its parent data', async () => {
    await t.provider.create('feature', 'main');
    const experiment = await t.provider.create('experiment', 'feature');
    expect(experiment).toMatchObject({ name: 'experiment', parent: 'feature', depth: 2 });
    const listed = await t.provider.list();
    expect(listed.map((b) => [b.name, b.parent, b.depth])).toEqual([
      ['experiment', 'feature', 2],
      ['feature', 'main', 1],
      ['main', null, 0],
    ]);
    expect(listed.every((b) => (b.sizeBytes ?? 0) > 1_000_000 && !Number.isNaN(Date.parse(b.createdAt ?? '')))).toBe(true);

    await expect(t.provider.delete('feature')).rejects.toMatchObject({ code: 'has-children', message: expect.stringContaining('experiment') });
    await expect(t.provider.delete('nope')).rejects.toMatchObject({ code: 'not-found' });

    await withBranch(t.provider, 'feature', (c) => c.query("delete from items where id = 1; update items set label = 'changed'"));
    expect(await withBranch(t.provider, 'feature', labels)).toEqual(['changed']);
    const prepared: string[] = [];
    const reset = await t.provider.reset('feature', { prepare: async (url) => void prepared.push(await withClient(url, labels).then((l) => l.join(','))) });
    expect(reset).toMatchObject({ name: 'feature', parent: 'main', depth: 1 });
    expect(prepared).toEqual(['one,two']); // prepare ran on the fresh copy, before the swap
    expect(await withBranch(t.provider, 'feature', labels)).toEqual(['one', 'two']);
    await expect(t.provider.reset('main')).rejects.toMatchObject({ code: 'invalid' });

    await t.provider.delete('experiment');
    await t.provider.delete('feature');
    await expectNoTrace('feature');
    expect((await t.provider.list()).map((b) => b.name)).toEqual(['main']);
  }, 120_000);

  it('stops an idle server by itself and starts a new one on demand', async () => {
    // A second provider on the same data folder, as a CLI run would make, with a short idle time.
    const impatient = new PgliteProvider({ dataDir: t.dataDir, poolSize: 0, idleSeconds: 1 });
    await impatient.create('idle', 'main');
    const home = t.layout.home('idle');
    expect(await withBranch(impatient, 'idle', labels)).toEqual(['one', 'two']);
    const first = await readServeInfo(home);
    expect(first && pidAlive(first.pid)).toBe(true);

    expect(await waitForExit(first!.pid, 15_000)).toBe(true); // idleSeconds: 1
    expect(await readServeInfo(home)).toBeNull();

    expect(await withBranch(impatient, 'idle', labels)).toEqual(['one', 'two']);
    const second = await readServeInfo(home);
    expect(second?.pid).not.toBe(first!.pid);
    await impatient.close();
  }, 60_000);

  it('an owned throwaway’s server exits as soon as its owner is gone, whoever is still connected', async () => {
    // The run that owns a throwaway records itself; a server restarted for it later watches the same process.
    await t.provider.create('tmp-owned', 'main', { owned: true, prepare: async () => undefined });
    const home = t.layout.home('tmp-owned');
    expect((await readMeta(home))?.owner).toBe(process.pid);
    expect(await stopServer(home)).toBe(true);
    // An owner that is killed (as kill -9 would leave it): a child process stands in for the Baton run.
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    const info = await startServer(home, { maxConnections: 2, idleSeconds: 300, ownerPid: owner.pid! });
    // A client still connected (an orphaned test process's pool) does not keep it alive.
    const client = new pg.Client({ connectionString: localUrl(info) });
    client.on('error', () => undefined);
    await client.connect();
    expect(pidAlive(info.pid)).toBe(true);
    owner.kill('SIGKILL');
    expect(await waitForExit(info.pid, 10_000)).toBe(true); // not the 300 s idle time
    expect(await readServeInfo(home)).toBeNull();
    await client.end().catch(() => undefined);
    await t.provider.delete('tmp-owned');
  }, 60_000);

  it('a background throwaway’s server runs at the lowest CPU priority, when made and when served again; others at their own', async () => {
    await t.provider.create('tmp-background', 'main', { owned: true, background: true, prepare: async () => undefined });
    const home = t.layout.home('tmp-background');
    const first = await readServeInfo(home);
    expect(getPriority(first!.pid)).toBe(19);
    expect((await readMeta(home))?.background).toBe(true);
    // Served again after a stop (an idle exit): the meta says so.
    expect(await stopServer(home)).toBe(true);
    await t.provider.connectionUrl('tmp-background');
    const again = await readServeInfo(home);
    expect(again!.pid).not.toBe(first!.pid);
    expect(getPriority(again!.pid)).toBe(19);
    await t.provider.delete('tmp-background');
    await t.provider.create('tmp-foreground', 'main', { owned: true, prepare: async () => undefined });
    expect(getPriority((await readServeInfo(t.layout.home('tmp-foreground')))!.pid)).toBe(getPriority());
    await t.provider.delete('tmp-foreground');
  }, 60_000);

  it('starts one server when two providers (the app and a CLI) ask for the same branch at once', async () => {
    await t.provider.create('shared', 'main');
    const other = new PgliteProvider({ dataDir: t.dataDir, poolSize: 0 });
    const [a, b] = await Promise.all([t.provider.connectionUrl('shared'), other.connectionUrl('shared')]);
    expect(a).toBe(b);
    const lockPid = Number(await fs.readFile(join(t.layout.home('shared'), 'serve.lock'), 'utf8'));
    expect((await readServeInfo(t.layout.home('shared')))?.pid).toBe(lockPid);
    expect(await withClient(a, labels)).toEqual(['one', 'two']);
    await other.close();
  }, 60_000);

  it('leaves nothing behind when a create is cancelled during the copy or during prepare', async () => {
    const duringCopy = new AbortController();
    await expect(
      t.provider.create('cancel-copy', 'main', {
        signal: duringCopy.signal,
        onProgress: (event) => void (event.kind === 'branch.step' && event.step === 'copy parent data' && duringCopy.abort()),
      }),
    ).rejects.toMatchObject({ code: 'cancelled' });
    await expectNoTrace('cancel-copy');

    const duringPrepare = new AbortController();
    let servedPid = 0;
    await expect(
      t.provider.create('cancel-prepare', 'main', {
        signal: duringPrepare.signal,
        prepare: async () => {
          servedPid = (await readServeInfo(t.layout.home('cancel-prepare')))?.pid ?? 0;
          duringPrepare.abort();
        },
      }),
    ).rejects.toMatchObject({ code: 'cancelled' });
    expect(servedPid).toBeGreaterThan(0);
    expect(pidAlive(servedPid)).toBe(false); // its server was stopped
    await expectNoTrace('cancel-prepare');
  }, 60_000);

  it('removes a half-made branch when prepare fails, and the name can be used again', async () => {
    const failing = t.provider.create('bad-migration', 'main', {
      prepare: (url) => withClient(url, (c) => c.query('alter table no_such_table add column x int')).then(() => undefined),
    });
    await expect(failing).rejects.toMatchObject({ code: '42P01' });
    await expectNoTrace('bad-migration');
    await expect(fs.readdir(join(t.layout.root, 'branches'))).resolves.not.toContain('bad-migration');

    await t.provider.create('bad-migration', 'main');
    expect((await t.provider.list()).map((b) => b.name)).toContain('bad-migration');
  }, 60_000);
});

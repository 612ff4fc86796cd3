/**
 * Ready throwaways (ready-pool.ts) against real PGlite servers: each taken branch is new (what a
 * previous taker wrote is absent), is never one prepared under another key, never a copy of the
 * parent from before it changed, never one someone else connected to while it waited, and a parent with ready children can still be deleted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHomes } from './layout';
import { localUrl } from './progress';
import { makeTempProvider, withBranch, withClient, type TempProvider } from './pglite.fixture';

let t: TempProvider;
beforeAll(async () => {
  t = await makeTempProvider({ poolSize: 2 });
  await t.provider.ensureRoot('main');
  await withBranch(t.provider, 'main', (c) => c.query("create table notes (body text); insert into notes values ('parent v1')"));
  await t.provider.create('feature', 'main');
}, 120_000);
afterAll(async () => {
  await t?.dispose();
}, 60_000);

const notes = (url: string) =>
  withClient(url, (c) => c.query<{ body: string }>('select body from notes order by body').then((r) => r.rows.map((row) => row.body)));

/** Prepares by recording the key it was prepared under in the branch itself. */
const request = (key: string) => ({
  parent: 'feature',
  key,
  prefix: 'tmp-',
  prepare: (url: string, name: string) =>
    withClient(url, async (c) => {
      await c.query(`create table prepared (key text); insert into prepared values ('${key}')`);
      return { key, name };
    }),
});

async function takeOrMake(key: string): Promise<{ name: string; ready: boolean }> {
  const taken = await t.provider.takeThrowaway(request(key));
  if (taken) {
    expect(taken.value).toEqual({ key, name: taken.name });
    return { name: taken.name, ready: true };
  }
  const name = `tmp-own-${key}-${Date.now()}`;
  await t.provider.create(name, 'feature', { prepare: async (url) => void (await request(key).prepare(url, name)) });
  return { name, ready: false };
}

describe('ready throwaway branches', () => {
  it('hands each taker a branch nobody used: the previous taker’s writes are absent', async () => {
    const seen = new Set<string>();
    for (let round = 0; round < 3; round++) {
      await t.provider.poolIdle();
      const { name, ready } = await takeOrMake('k1');
      expect(ready).toBe(true);
      expect(seen.has(name)).toBe(false);
      seen.add(name);
      const url = await t.provider.connectionUrl(name);
      expect(await notes(url)).toEqual(['parent v1']);
      await withClient(url, (c) => c.query(`insert into notes values ('written by taker ${round}')`));
      await t.provider.delete(name);
    }
  }, 180_000);

  it('never serves an entry prepared under another key (a changed migration set)', async () => {
    await t.provider.poolIdle();
    const { name } = await takeOrMake('k2');
    const url = await t.provider.connectionUrl(name);
    expect(await withClient(url, (c) => c.query('select key from prepared').then((r) => r.rows))).toEqual([{ key: 'k2' }]);
    await t.provider.delete(name);
  }, 120_000);

  it('never serves a copy of the parent from before it changed', async () => {
    await t.provider.poolIdle();
    await withBranch(t.provider, 'feature', (c) => c.query("insert into notes values ('parent v2')"));
    const { name } = await takeOrMake('k2');
    expect(await notes(await t.provider.connectionUrl(name))).toEqual(['parent v1', 'parent v2']);
    await t.provider.delete(name);
  }, 120_000);

  it('never hands out an entry someone connected to while it waited (an agent planting rows for the next run)', async () => {
    // The parent's own server (left by the test before) would keep the pool from copying it.
    await t.provider.stopServers();
    await t.provider.delete((await takeOrMake('k3')).name);
    await t.provider.poolIdle();
    // The pool's stock is not listed as anyone's branch; its folders are there.
    const waiting = (await listHomes(t.layout)).filter((name) => name.startsWith('tmp-'));
    for (const name of waiting) expect((await t.provider.list()).map((b) => b.name)).not.toContain(name);
    expect(waiting.length).toBeGreaterThan(0);
    for (const name of waiting) {
      // What a process that can read Baton's data folder can do: find the served port and password, and write.
      const info = JSON.parse(await readFile(join(t.layout.home(name), 'serve.json'), 'utf8')) as { port: number; password: string };
      await withClient(localUrl(info), (c) => c.query("insert into notes values ('planted')"));
    }
    const { name } = await takeOrMake('k3');
    expect(waiting).not.toContain(name);
    expect(await notes(await t.provider.connectionUrl(name))).not.toContain('planted');
    await t.provider.delete(name);
    await t.provider.poolIdle();
    const left = await listHomes(t.layout);
    for (const planted of waiting) expect(left).not.toContain(planted);
  }, 120_000);

  it('lets the parent be deleted while children are ready, and leaves no throwaway behind', async () => {
    await t.provider.poolIdle();
    await t.provider.delete('feature');
    expect((await t.provider.list()).map((b) => b.name)).toEqual(['main']);
    expect(await listHomes(t.layout)).toEqual(['main']);
  }, 120_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { poolPrefix, snapshotPrefix } from './layout';
import { PostgresProvider } from './postgres-provider';
import { checksums, dropEverything, seed, testPgUrl, uniquePrefix, withDb } from './postgres.fixture';

const adminUrl = await testPgUrl('postgres-pool.test.ts');
const prefix = uniquePrefix('pool');

/** Databases (name → oid) whose names start with `namePrefix`. */
async function databases(url: string, namePrefix: string): Promise<Map<string, string>> {
  return withDb(url, 'postgres', async (c) => {
    const { rows } = await c.query<{ datname: string; oid: string }>('select datname, oid::text as oid from pg_database where starts_with(datname, $1)', [
      namePrefix,
    ]);
    return new Map(rows.map((row) => [row.datname, row.oid]));
  });
}

const steps = (events: BranchProgress[]) => events.flatMap((e) => (e.kind === 'branch.step' ? [e.step] : []));

describe.skipIf(!adminUrl)('PostgresProvider warm pool', () => {
  const url = adminUrl as string;
  const providers: PostgresProvider[] = [];
  const open = (poolSize: number) => {
    const provider = new PostgresProvider({ adminUrl: url, poolSize });
    providers.push(provider);
    return provider;
  };

  beforeAll(async () => {
    const provider = open(2);
    await provider.ensureRoot(`${prefix}main`);
    await seed(url, `${prefix}main`, 300);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await dropEverything(url, prefix);
  }, 60_000);

  it('claims a pre-forked database: create is a rename of a pool entry', async () => {
    const root = `${prefix}main`;
    const provider = open(2);
    await provider.prewarm(root);
    const pool = await databases(url, poolPrefix(root));
    expect(pool.size).toBe(2);
    const events: BranchProgress[] = [];
    await provider.create(`${prefix}warm`, root, { onProgress: (e) => events.push(e) });
    expect(steps(events)).toEqual(['claimed a pre-forked copy']);
    const made = (await databases(url, `${prefix}warm`)).get(`${prefix}warm`);
    expect([...pool.values()]).toContain(made);
    expect(await checksums(url, `${prefix}warm`)).toEqual(await checksums(url, root));
    await provider.idle();
    expect((await databases(url, poolPrefix(root))).size).toBe(2);
  });

  it('creates ten branches concurrently from one parent, all distinct and all with its data', async () => {
    const root = `${prefix}main`;
    const provider = open(2);
    const names = Array.from({ length: 10 }, (_, i) => `${prefix}ten-${i}`);
    const made = await Promise.all(names.map((name) => provider.create(name, root)));
    expect(made.map((b) => b.name)).toEqual(names);
    const oids = await databases(url, `${prefix}ten-`);
    expect(oids.size).toBe(10);
    expect(new Set(oids.values()).size).toBe(10);
    const expected = await checksums(url, root);
    for (const name of names) expect(await checksums(url, name)).toEqual(expected);
    const listed = (await provider.list()).filter((b) => b.name.startsWith(`${prefix}ten-`));
    expect(listed.map((b) => b.parent)).toEqual(Array(10).fill(root));
  });

  it('survives pool refills racing creates from two processes: no failure, no duplicate, no leak', async () => {
    const root = `${prefix}race`;
    const a = open(2);
    const b = open(2);
    await a.ensureRoot(root);
    await seed(url, root, 100);
    await a.create(`${prefix}race-0`, root); // takes the snapshot and starts a refill in `a`
    // While `a` refills, both "processes" create; `b` also refills when its creates finish.
    const names = Array.from({ length: 4 }, (_, i) => `${prefix}race-${i + 1}`);
    const made = await Promise.all(names.map((name, i) => (i % 2 === 0 ? a : b).create(name, root)));
    expect(made).toHaveLength(4);
    await Promise.all([a.idle(), b.idle()]);

    const branches = await databases(url, `${prefix}race-`);
    expect([...branches.keys()].sort()).toEqual([`${prefix}race-0`, ...names].sort());
    expect(new Set(branches.values()).size).toBe(5);
    const snapshots = await databases(url, snapshotPrefix(root));
    expect(snapshots.size).toBe(1);
    const generation = [...snapshots.keys()][0]?.split('_').pop();
    const pool = [...(await databases(url, poolPrefix(root))).keys()];
    expect(pool.length).toBeLessThanOrEqual(2);
    for (const entry of pool) expect(entry.startsWith(`${poolPrefix(root)}${generation}_`)).toBe(true);
    const expected = await checksums(url, root);
    for (const name of branches.keys()) expect(await checksums(url, name)).toEqual(expected);
  });

  it('keeps the snapshot and pool when only statistics moved in the parent (ANALYZE, as autovacuum does)', async () => {
    const root = `${prefix}main`;
    const provider = open(2);
    await provider.prewarm(root);
    const snapshot = [...(await databases(url, snapshotPrefix(root))).keys()];
    const counters = () =>
      withDb(
        url,
        'postgres',
        async (c) => (await c.query('select tup_inserted, tup_updated, tup_deleted from pg_stat_database where datname = $1', [root])).rows[0],
      );
    const before = await counters();
    await withDb(url, root, (c) => c.query('analyze'));
    expect(await counters()).not.toEqual(before); // the server-wide counters did move
    const events: BranchProgress[] = [];
    await provider.create(`${prefix}stats`, root, { onProgress: (e) => events.push(e) });
    expect(steps(events)).toEqual(['claimed a pre-forked copy']);
    await provider.idle();
    expect([...(await databases(url, snapshotPrefix(root))).keys()]).toEqual(snapshot);
  });

  it('drops the pool when the parent changes: a branch made after the change sees it', async () => {
    const root = `${prefix}main`;
    const provider = open(2);
    await provider.create(`${prefix}before`, root);
    await provider.idle();
    const oldPool = await databases(url, poolPrefix(root));
    const oldSnapshot = [...(await databases(url, snapshotPrefix(root))).keys()];
    expect(oldPool.size).toBe(2);
    expect(oldSnapshot).toHaveLength(1);

    await withDb(url, root, (c) => c.query(`insert into accounts values (100000, 'late@example.com', 1)`));
    const events: BranchProgress[] = [];
    await provider.create(`${prefix}after`, root, { onProgress: (e) => events.push(e) });
    expect(steps(events)[0]).toMatch(/refreshing the snapshot/);
    const seen = (db: string) => withDb(url, db, async (c) => (await c.query(`select count(*)::int as n from accounts where id = 100000`)).rows[0]?.n);
    expect(await seen(`${prefix}after`)).toBe(1);
    expect(await seen(`${prefix}before`)).toBe(0);

    await provider.idle();
    const newSnapshot = [...(await databases(url, snapshotPrefix(root))).keys()];
    expect(newSnapshot).toHaveLength(1);
    expect(newSnapshot).not.toEqual(oldSnapshot);
    const newPool = await databases(url, poolPrefix(root));
    for (const entry of oldPool.keys()) expect(newPool.has(entry)).toBe(false);
    // The refilled pool holds the change too.
    await provider.create(`${prefix}after-warm`, root);
    expect(await seen(`${prefix}after-warm`)).toBe(1);
  });
});

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { BranchError } from '../provider';
import { PostgresProvider } from './postgres-provider';
import { checksums, databasesLike, dropEverything, passwordOf, seed, testPgUrl, uniquePrefix, urlFor, withDb } from './postgres.fixture';

const adminUrl = await testPgUrl('postgres-provider.test.ts');
const prefix = uniquePrefix('prov');
const root = `${prefix}main`;
const secret = adminUrl ? passwordOf(adminUrl) : '';

/** The error a promise rejects with, checked to be a BranchError without the password in it. */
async function failure(promise: Promise<unknown>): Promise<BranchError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure, got success');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BranchError);
  expect(String((error as Error).message)).not.toContain(secret);
  return error as BranchError;
}

describe.skipIf(!adminUrl)('PostgresProvider', () => {
  const url = adminUrl as string;
  let provider: PostgresProvider;

  beforeAll(async () => {
    // No warm pool here (postgres-pool.test.ts covers it): every create is a real copy, and fewer databases keep the file quick.
    provider = new PostgresProvider({ adminUrl: url, poolSize: 0 });
    await provider.ensureRoot(root);
    await seed(url, root);
  }, 30_000);

  afterAll(async () => {
    await provider?.close();
    await dropEverything(url, prefix);
  }, 30_000);

  it('makes a root once, and adopts an existing database keeping its comment', async () => {
    const again = await provider.ensureRoot(root);
    expect(again).toMatchObject({ name: root, parent: null, depth: 0 });
    const first = (await provider.list()).find((b) => b.name === root);
    expect(first?.createdAt).toBe(again.createdAt);

    const existing = `${prefix}existing`;
    await withDb(url, 'postgres', async (c) => {
      await c.query(`create database ${pg.escapeIdentifier(existing)}`);
      await c.query(`comment on database ${pg.escapeIdentifier(existing)} is 'the team''s scratch db'`);
    });
    expect((await provider.list()).some((b) => b.name === existing)).toBe(false);
    const adopted = await provider.ensureRoot(existing);
    expect(adopted).toMatchObject({ name: existing, parent: null, depth: 0 });
    expect((await provider.list()).some((b) => b.name === existing)).toBe(true);
    const comment = await withDb(
      url,
      'postgres',
      async (c) => (await c.query(`select shobj_description(oid, 'pg_database') as c from pg_database where datname = $1`, [existing])).rows[0]?.c as string,
    );
    expect(JSON.parse(comment)).toMatchObject({ adopted: true, previousComment: "the team's scratch db" });
  });

  it('isolates a branch: destructive DDL and DML leave the parent and a sibling identical', async () => {
    const a = `${prefix}iso-a`;
    const b = `${prefix}iso-b`;
    await provider.create(a, root);
    await provider.create(b, root);
    const parentBefore = await checksums(url, root);
    const siblingBefore = await checksums(url, b);
    expect(siblingBefore).toEqual(parentBefore);
    expect(Object.keys(parentBefore)).toEqual(['public.accounts', 'public.orders']);

    await withDb(url, a, async (c) => {
      await c.query('delete from orders where id % 3 = 0');
      await c.query(`update accounts set email = 'x' || id, balance = -1`);
      await c.query('alter table orders drop constraint orders_total_check');
      await c.query('alter table accounts add column note text');
      await c.query('truncate orders');
      await c.query('drop table accounts cascade');
      await c.query('create table extra (id int)');
    });
    expect(await checksums(url, a)).not.toEqual(parentBefore);
    expect(await checksums(url, root)).toEqual(parentBefore);
    expect(await checksums(url, b)).toEqual(siblingBefore);
  });

  it('lists parent, created time, size and depth', async () => {
    const child = `${prefix}depth-1`;
    const grandchild = `${prefix}depth-2`;
    const made = await provider.create(child, root);
    await provider.create(grandchild, child);
    const ours = (await provider.list()).filter((b) => b.name.startsWith(prefix));
    const byName = new Map(ours.map((b) => [b.name, b]));
    expect(byName.get(root)).toMatchObject({ parent: null, depth: 0 });
    expect(byName.get(child)).toMatchObject({ parent: root, depth: 1, createdAt: made.createdAt });
    expect(byName.get(grandchild)).toMatchObject({ parent: child, depth: 2 });
    for (const name of [root, child, grandchild]) expect(byName.get(name)?.sizeBytes).toBeGreaterThan(1_000_000);
    expect(ours.some((b) => b.name.startsWith('baton_'))).toBe(false);
    const all = await provider.list();
    expect(all.some((b) => b.name.startsWith('baton_'))).toBe(false);
    // The grandchild holds the root's data too.
    expect(await checksums(url, grandchild)).toEqual(await checksums(url, root));
  });

  it('refuses to delete a branch with children, then deletes it with its snapshot and pool', async () => {
    const parent = `${prefix}del-p`;
    const child = `${prefix}del-c`;
    const pooled = new PostgresProvider({ adminUrl: url, poolSize: 1 });
    await pooled.create(parent, root);
    await pooled.create(child, parent); // gives `parent` a snapshot and a pool entry
    await pooled.idle();
    await pooled.close();
    const helpers = () =>
      withDb(
        url,
        'postgres',
        async (c) =>
          (await c.query(`select count(*)::int as n from pg_database where shobj_description(oid, 'pg_database') like $1`, [`%"of":"${parent}"%`])).rows[0]?.n,
      );
    expect(await helpers()).toBe(2);
    const refused = await failure(provider.delete(parent));
    expect(refused.code).toBe('has-children');
    expect(refused.message).toContain(child);
    expect(await databasesLike(url, parent)).toEqual([parent]);

    // A session left open on the branch does not stop its deletion.
    const open = new pg.Client({ connectionString: await provider.connectionUrl(child) });
    open.on('error', () => undefined);
    await open.connect();
    await provider.delete(child);
    await provider.delete(parent);
    await open.end().catch(() => undefined);
    expect(await databasesLike(url, `${prefix}del-`)).toEqual([]);
    expect(await helpers()).toBe(0);
    expect((await failure(provider.delete(parent))).code).toBe('not-found');
  });

  it('resets a branch from its parent, keeping its name and re-running prepare', async () => {
    const name = `${prefix}reset`;
    const made = await provider.create(name, root);
    await withDb(url, name, (c) => c.query('delete from orders; drop table accounts cascade'));
    const prepared: string[] = [];
    const reset = await provider.reset(name, {
      prepare: async (branchUrl) => {
        prepared.push(branchUrl);
        const client = new pg.Client({ connectionString: branchUrl });
        await client.connect();
        await client.query(`update accounts set email = 'masked' where id = 1`);
        await client.end();
      },
    });
    expect(prepared).toHaveLength(1);
    expect(reset).toMatchObject({ name, parent: root, depth: 1, createdAt: made.createdAt });
    const after = await checksums(url, name);
    expect(Object.keys(after)).toEqual(['public.accounts', 'public.orders']);
    expect(after['public.orders']).toBe((await checksums(url, root))['public.orders']);
    expect(await withDb(url, name, async (c) => (await c.query('select email from accounts where id = 1')).rows[0]?.email)).toBe('masked');

    // A failing prepare leaves the branch as it was.
    await withDb(url, name, (c) => c.query('truncate orders'));
    const failed = await failure(provider.reset(name, { prepare: async () => Promise.reject(new Error(`masking broke at ${url}`)) }));
    expect(failed.message).toContain('Preparing branch');
    expect(await withDb(url, name, async (c) => (await c.query('select count(*)::int as n from orders')).rows[0]?.n)).toBe(0);
    expect((await failure(provider.reset(root))).code).toBe('invalid');
  });

  it('runs prepare before create returns, and removes the database when it fails', async () => {
    const good = `${prefix}prep-ok`;
    let seenDuringPrepare: boolean | null = null;
    await provider.create(good, root, {
      prepare: async () => {
        seenDuringPrepare = (await provider.list()).some((b) => b.name === good);
      },
    });
    expect(seenDuringPrepare).toBe(false);
    expect((await provider.list()).some((b) => b.name === good)).toBe(true);

    const bad = `${prefix}prep-bad`;
    const error = await failure(provider.create(bad, root, { prepare: () => Promise.reject(new Error('migration 002 failed')) }));
    expect(error.message).toContain('migration 002 failed');
    expect(await databasesLike(url, bad)).toEqual([]);
  });

  it('cancels a copy in progress without leaving a database', async () => {
    // Its own parent, so no warm pool entry exists for it and the create has to copy.
    const cold = new PostgresProvider({ adminUrl: url, poolSize: 0 });
    const parent = `${prefix}root-for-cancel`;
    const holder = new pg.Client({ connectionString: url });
    try {
      await cold.ensureRoot(parent);
      await cold.prewarm(parent);
      // Hold the snapshot's lock (an uncommitted rename) so the copy waits inside the server.
      const snapshot = await withDb(
        url,
        'postgres',
        async (c) =>
          (
            await c.query<{ datname: string }>(`select datname from pg_database where shobj_description(oid, 'pg_database') like $1`, [
              `{"baton":1,"role":"snapshot","of":"${parent}"%`,
            ])
          ).rows[0]?.datname,
      );
      expect(snapshot).toMatch(/^baton_snap_/);
      await holder.connect();
      await holder.query(`begin; alter database ${pg.escapeIdentifier(snapshot as string)} rename to ${pg.escapeIdentifier(`${snapshot}_held`)}`);
      const name = `${prefix}cancel`;
      const controller = new AbortController();
      const onProgress = (event: BranchProgress) => {
        if (event.kind === 'branch.step' && event.step === 'copying the snapshot') setTimeout(() => controller.abort(), 200);
      };
      const error = await failure(cold.create(name, parent, { signal: controller.signal, onProgress }));
      expect(error.code).toBe('cancelled');
      await holder.query('rollback');
      expect(await databasesLike(url, name)).toEqual([]);
      expect((await failure(cold.create(name, parent, { signal: AbortSignal.abort() }))).code).toBe('cancelled');
    } finally {
      await holder.end().catch(() => undefined);
      await cold.close();
    }
  });

  it('says exists, not-found and invalid plainly', async () => {
    expect((await failure(provider.create(root, root))).code).toBe('invalid');
    expect((await failure(provider.create(`${prefix}iso-a`, root))).code).toBe('exists');
    expect((await failure(provider.create(`${prefix}orphan`, `${prefix}nowhere`))).code).toBe('not-found');
    expect((await failure(provider.create('baton_pool_x', root))).code).toBe('invalid');
    expect((await failure(provider.create(`${prefix}${'x'.repeat(64)}`, root))).code).toBe('invalid');
    expect((await failure(provider.connectionUrl(`${prefix}nowhere`))).code).toBe('not-found');
  });

  it('gives a working connection URL and diffs a schema against the parent', async () => {
    const name = `${prefix}diff`;
    await provider.create(name, root);
    const branchUrl = await provider.connectionUrl(name);
    expect(new URL(branchUrl).pathname).toBe(`/${name}`);
    await withDb(url, name, (c) => c.query('alter table accounts add column nickname text'));
    const diff = await provider.schemaDiff(name, root);
    expect(diff).toMatchObject({ branch: name, parent: root });
    expect(diff.changes).toContainEqual(expect.objectContaining({ kind: 'column-added', table: 'public.accounts', name: 'nickname' }));
    expect((await provider.schemaDiff(root, root)).changes).toEqual([]);
  });

  it('reports a wrong password and an unreachable server without the password', async () => {
    const wrongSecret = 'not-the-password-7f3a';
    const wrong = new URL(url);
    wrong.password = wrongSecret;
    const denied = new PostgresProvider({ adminUrl: wrong.toString() });
    const refused = new URL(url);
    refused.port = '1';
    const nobody = new PostgresProvider({ adminUrl: refused.toString() });
    try {
      const auth = await failure(denied.list());
      expect(auth.code).toBe('auth');
      expect(auth.message).not.toContain(wrongSecret);
      expect(auth.message).toContain('***');
      expect(auth.message).toContain('--url');
      const unreachable = await failure(nobody.create(`${prefix}x`, root));
      expect(unreachable.code).toBe('unreachable');
      expect(unreachable.message).toContain('127.0.0.1:1');
      expect(unreachable.message).toMatch(/Start the server/);
    } finally {
      await denied.close();
      await nobody.close();
    }
  });
  it('collects the half-made databases a crashed create or reset left: old and idle only, never a listed branch', async () => {
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
    const pending = (createdAt: string, extra: object = {}) => JSON.stringify({ baton: 1, role: 'pending', parent: root, createdAt, depth: 1, ...extra });
    const oldReset = `baton_tmp_${prefix}old`;
    const oldCreate = `${prefix}crashed-create`;
    const fresh = `${prefix}still-preparing`;
    const busy = `${prefix}busy-pending`;
    const make = (name: string, comment: string) =>
      withDb(url, 'postgres', async (c) => {
        await c.query(`create database ${pg.escapeIdentifier(name)}`);
        await c.query(`comment on database ${pg.escapeIdentifier(name)} is ${pg.escapeLiteral(comment)}`);
      });
    await make(oldReset, pending(hoursAgo(2), { for: root }));
    await make(oldCreate, pending(hoursAgo(3)));
    await make(fresh, pending(new Date().toISOString()));
    await make(busy, pending(hoursAgo(5)));
    const holder = new pg.Client({ connectionString: urlFor(url, busy) });
    await holder.connect();
    try {
      const ours = (names: string[]) => names.filter((n) => n.includes(prefix));
      expect((await provider.list()).map((b) => b.name)).not.toContain(oldCreate);
      const listed = ours(await provider.collectLeftovers({ dryRun: true, olderThanMs: 3_600_000 }));
      expect(listed).toEqual([oldReset, oldCreate].sort());
      expect(await databasesLike(url, prefix)).toEqual(expect.arrayContaining([oldCreate, fresh, busy]));
      const dropped = ours(await provider.collectLeftovers({ dryRun: false, olderThanMs: 3_600_000 }));
      // A gc another test file runs on the shared server (branch-postgres.test.ts) may have taken one first.
      expect([oldReset, oldCreate]).toEqual(expect.arrayContaining(dropped));
      const left = await databasesLike(url, prefix);
      expect(left).not.toContain(oldCreate);
      expect(left).toEqual(expect.arrayContaining([fresh, busy]));
      expect(await withDb(url, 'postgres', async (c) => (await c.query('select 1 from pg_database where datname = $1', [oldReset])).rowCount)).toBe(0);
    } finally {
      await holder.end();
      await withDb(url, 'postgres', (c) => c.query(`drop database if exists ${pg.escapeIdentifier(oldReset)}`));
    }
  });
});

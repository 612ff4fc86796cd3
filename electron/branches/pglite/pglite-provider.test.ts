/**
 * The pglite provider against real PGlite servers: a `pg` client in this process sees real
 * Postgres errors, destructive work on one branch leaves its parent and sibling untouched, and ten
 * concurrent creates from one parent all succeed with distinct copies of the parent's data.
 */
import { promises as fs } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BranchError } from '../provider';
import { dataOf } from './layout';
import { checksum, makeTempProvider, seedShop, treeHash, withBranch, withClient, type TempProvider } from './pglite.fixture';

let t: TempProvider;
let mainSum: Record<string, string>;
beforeAll(async () => {
  t = await makeTempProvider({ poolSize: 0 });
  await t.provider.ensureRoot('main');
  mainSum = await withBranch(t.provider, 'main', async (client) => {
    await seedShop(client);
    return checksum(client);
  });
  expect(Object.keys(mainSum)).toEqual(['public.customers', 'public.orders']);
}, 90_000);
afterAll(async () => {
  await t?.dispose();
});

describe('a pglite branch served over a loopback socket', () => {
  it('gives a client in the test process real Postgres constraint errors through its URL', async () => {
    await t.provider.create('errors', 'main');
    const url = await t.provider.connectionUrl('errors');
    expect(url).toMatch(/^postgresql:\/\/postgres:[\w-]{32}@127\.0\.0\.1:\d+\/postgres\?sslmode=disable$/);
    // Anyone on the machine can reach the port; only who holds the URL logs in.
    const refused = (u: string) =>
      withClient(u, () => Promise.resolve()).then(
        () => 'logged in',
        (e: { code?: string; message: string }) => e.code ?? e.message,
      );
    expect(await refused(url.replace(/:[\w-]{32}@/, '@'))).toBe('28P01');
    expect(await refused(url.replace(/:[\w-]{32}@/, ':guessed@'))).toBe('28P01');
    await withBranch(t.provider, 'errors', async (client) => {
      const unique = await client.query("insert into customers values (4, 'ada@example.com', 'Copy')").catch((e: unknown) => e);
      expect(unique).toMatchObject({ code: '23505', constraint: 'customers_email_key' });
      const foreign = await client.query('insert into orders values (13, 999, 1.00)').catch((e: unknown) => e);
      expect(foreign).toMatchObject({ code: '23503', constraint: 'orders_customer_id_fkey' });
      // The session survives its errors, like a real server's.
      expect((await client.query('select count(*)::int as n from customers')).rows[0]).toEqual({ n: 3 });
      // Started with small shared buffers: zeroing Postgres's default 128 MB was most of a start's CPU (pglite-server.ts).
      expect((await client.query('show shared_buffers')).rows[0]).toEqual({ shared_buffers: '16MB' });
    });
  }, 60_000);

  it('keeps the parent and a sibling identical while a branch is destroyed, and diffs the schemas', async () => {
    await t.provider.create('victim', 'main');
    await t.provider.create('sibling', 'main');

    const victimAfter = await withBranch(t.provider, 'victim', async (client) => {
      await client.query('drop table orders');
      await client.query("delete from customers where email like 'a%'");
      await client.query('alter table customers drop column name, add column banned boolean default true');
      await client.query('create table intruder (x int)');
      return checksum(client);
    });
    expect(Object.keys(victimAfter)).toEqual(['public.customers', 'public.intruder']);
    expect(victimAfter['public.customers']).not.toEqual(mainSum['public.customers']);

    // mainSum was taken before any branch existed; the sibling started as an exact copy.
    const [mainAfter, siblingAfter] = await Promise.all([withBranch(t.provider, 'main', checksum), withBranch(t.provider, 'sibling', checksum)]);
    expect(mainAfter).toEqual(mainSum);
    expect(siblingAfter).toEqual(mainSum);

    // The servers are still up: the schema diff reuses them.
    const diff = await t.provider.schemaDiff('victim', 'main');
    expect(diff.changes.map((c) => `${c.kind} ${c.table}${c.name ? `.${c.name}` : ''}`)).toEqual(
      expect.arrayContaining([
        'table-removed public.orders',
        'table-added public.intruder',
        'column-removed public.customers.name',
        'column-added public.customers.banned',
      ]),
    );
    expect((await t.provider.schemaDiff('sibling', 'main')).changes).toEqual([]);
  }, 90_000);

  it('creates ten branches at once from one parent, each a distinct copy with the parent data', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `burst-${i}`);
    const started = performance.now();
    const created = await Promise.all(names.map((name) => t.provider.create(name, 'main')));
    console.log(`pglite: 10 concurrent cold creates took ${Math.round(performance.now() - started)} ms`);
    expect(created.map((b) => b.name)).toEqual(names);
    expect(created.every((b) => b.parent === 'main' && b.depth === 1 && (b.sizeBytes ?? 0) > 1_000_000)).toBe(true);

    const listed = (await t.provider.list()).filter((b) => b.name.startsWith('burst-'));
    expect(listed.map((b) => b.name).sort()).toEqual([...names].sort());
    const dirs = names.map((name) => dataOf(t.layout.home(name)));
    expect(new Set(await Promise.all(dirs.map((dir) => fs.realpath(dir)))).size).toBe(10);

    // Byte-for-byte copies of the parent's (closed) data directory…
    const parentTree = await treeHash(dataOf(t.layout.home('main')));
    for (const dir of dirs) expect(await treeHash(dir)).toBe(parentTree);
    // …that open as the parent's database, and are independent of each other.
    const [, last] = await Promise.all([withBranch(t.provider, 'burst-0', (c) => c.query('delete from orders')), withBranch(t.provider, 'burst-9', checksum)]);
    expect(last).toEqual(mainSum);
    expect((await withBranch(t.provider, 'burst-0', checksum))['public.orders']).not.toEqual(mainSum['public.orders']);
  }, 120_000);

  it('refuses an existing name and an unknown parent with clear errors', async () => {
    await expect(t.provider.create('errors', 'main')).rejects.toMatchObject({ code: 'exists', message: expect.stringContaining('"errors" already exists') });
    await expect(t.provider.create('orphan', 'nope')).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('"nope" does not exist') });
    await expect(t.provider.create('Bad/Name', 'main')).rejects.toBeInstanceOf(BranchError);
    expect((await t.provider.list()).map((b) => b.name)).not.toContain('orphan');
  });
});

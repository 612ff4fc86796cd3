/**
 * Least privilege on the postgres provider (roles.ts), against the real server in
 * BATON_TEST_PG_URL: each branch's URL logs in as a role of its own that owns what is in its
 * database and can do nothing else on the server; the role goes with the branch; branches from the
 * warm pool or a cold copy own what their parent's migrations made. What a branch role cannot do to
 * its own database is postgres-escapes.test.ts's. Skips, saying why, without a server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { poolPrefix } from './layout';
import { PostgresProvider } from './postgres-provider';
import { adminDb, asUrl, dropEverything, passwordOf, seed, sqlState, testPgUrl, uniquePrefix, vaultOf, withDb } from './postgres.fixture';
import { roleName } from './roles';

const adminUrl = await testPgUrl('postgres-roles.test.ts');
const prefix = uniquePrefix('role');
const root = `${prefix}main`;

const roleExists = (url: string, role: string) =>
  withDb(url, adminDb(url), async (c) => (await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount === 1);

const tableOwners = (url: string, database: string) =>
  withDb(url, database, async (c) => {
    const { rows } = await c.query<{ name: string; owner: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name, pg_get_userbyid(c.relowner) as owner from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'v', 'S', 'm') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') order by 1`,
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.owner]));
  });

describe.skipIf(!adminUrl)('PostgresProvider branch roles', () => {
  const url = adminUrl as string;
  // Collected even when skipped: no URL, no parse (the skip says what is missing).
  const admin = adminUrl ? new URL(url) : new URL('postgresql://unset@localhost/');
  const providers: PostgresProvider[] = [];
  const open = (poolSize: number) => {
    const provider = new PostgresProvider({ adminUrl: url, poolSize });
    providers.push(provider);
    return provider;
  };
  let provider: PostgresProvider;

  beforeAll(async () => {
    provider = open(0);
    await provider.ensureRoot(root);
    await seed(url, root, 50);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await dropEverything(url, prefix);
  }, 60_000);

  it('gives each branch a login role that owns what is in its database and can do nothing else', async () => {
    const a = `${prefix}a`;
    const b = `${prefix}b`;
    await provider.create(a, root);
    await provider.create(b, root);
    const urlA = await provider.connectionUrl(a);
    const urlB = await provider.connectionUrl(b);
    for (const branchUrl of [urlA, urlB]) {
      expect(branchUrl).not.toContain(passwordOf(url));
      expect(new URL(branchUrl).username).not.toBe(admin.username);
    }
    expect(decodeURIComponent(new URL(urlA).username)).toBe(roleName(a));
    expect(new URL(urlA).password).not.toBe(new URL(urlB).password);
    expect(await provider.connectionUrl(a)).toBe(urlA); // stable: a second caller gets the same URL

    await asUrl(urlA, async (c) => {
      const { rows } = await c.query(
        'select current_user as who, rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls from pg_roles where rolname = current_user',
      );
      expect(rows[0]).toEqual({ who: roleName(a), rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolreplication: false, rolbypassrls: false });
      await c.query('create table notes (id serial primary key, body text not null)');
      await c.query(`insert into notes (body) values ('mine')`);
      expect((await c.query('select body from notes')).rows).toEqual([{ body: 'mine' }]);
      // What it was forked with is its own too.
      await c.query('alter table accounts add column nickname text');
      await c.query(`update accounts set nickname = 'n' where id = 1`);
      expect(await sqlState(c.query('create database should_not_exist'))).toBe('42501');
      expect(await sqlState(c.query(`create role should_not_exist login password 'x'`))).toBe('42501');
      expect(await sqlState(c.query('alter role current_user createdb'))).toBe('42501');
    });
    // Another branch's database, and the admin's own, refuse it (CONNECT is revoked from PUBLIC).
    expect(await sqlState(asUrl(urlA, (c) => c.query('select 1'), b))).toBe('42501');
    expect(await sqlState(asUrl(urlA, (c) => c.query('select 1'), 'postgres'))).toBe('42501');
    expect(await sqlState(asUrl(urlA, (c) => c.query('select 1'), vaultOf(url)))).toBe('42501');
    // The admin keeps its access; the sibling is untouched.
    expect(await withDb(url, a, async (c) => (await c.query('select count(*)::int as n from notes')).rows[0]?.n)).toBe(1);
    expect(await asUrl(urlB, async (c) => (await c.query(`select to_regclass('notes') as t`)).rows[0]?.t)).toBeNull();

    await provider.delete(a);
    expect(await roleExists(url, roleName(a))).toBe(false);
    expect(await sqlState(asUrl(urlA, (c) => c.query('select 1'), b))).toMatch(/^(28P01|3D000)$/);
    const stored = await withDb(url, vaultOf(url), async (c) => (await c.query('select role from branch_roles where branch = $1', [a])).rowCount);
    expect(stored).toBe(0);
    expect(await roleExists(url, roleName(b))).toBe(true);
  });

  it('a branch from the warm pool and a cold copy own the tables their parent migrated', async () => {
    const pooled = open(1);
    const parent = `${prefix}feature`;
    await pooled.create(parent, root);
    await asUrl(await pooled.connectionUrl(parent), (c) =>
      c.query(`
        create schema app;
        create type app.state as enum ('new', 'done');
        create table app.widgets (id bigint generated always as identity primary key, name text not null, state app.state not null default 'new');
        create view app.open_widgets as select * from app.widgets where state = 'new';
        create function app.widget_count() returns bigint language sql as 'select count(*) from app.widgets';
        insert into app.widgets (name) values ('a'), ('b');`),
    );
    await pooled.prewarm(parent);
    // The refill made the entry ahead of time: all it holds owned by a placeholder role named like it, granted the entry (the admin owns it).
    const pool = () =>
      withDb(url, adminDb(url), async (c) => {
        const { rows } = await c.query<{ name: string; owner: string; granted: boolean }>(
          `select datname as name, pg_get_userbyid(datdba) as owner, has_database_privilege(datname::text, oid, 'CONNECT') as granted
           from pg_database where starts_with(datname, $1)`,
          [poolPrefix(parent)],
        );
        return rows;
      });
    const [entry] = await pool();
    expect(entry && { owner: entry.owner, granted: entry.granted }).toEqual({ owner: admin.username, granted: true });
    const made: Record<string, string[]> = { warm: [], cold: [], cold2: [] };
    const warm = `${prefix}warm`;
    const cold = `${prefix}cold`;
    const cold2 = `${prefix}cold2`;
    await pooled.create(warm, parent, { onProgress: (e: BranchProgress) => e.kind === 'branch.step' && made.warm?.push(e.step) });
    // The refill the claim started ends before the cold creates: one still running could finish a copy
    // of the snapshot `cold` refreshes, and `cold2` would claim it instead of copying (seen under CI load).
    await pooled.idle();
    const unpooled = open(0);
    await unpooled.create(cold, parent, { fresh: true, onProgress: (e: BranchProgress) => e.kind === 'branch.step' && made.cold?.push(e.step) });
    // A second copy of the same snapshot replays the objects the first one found (ownership.ts handOverCopy).
    await unpooled.create(cold2, parent, { onProgress: (e: BranchProgress) => e.kind === 'branch.step' && made.cold2?.push(e.step) });
    expect(made.cold2).toEqual(['copying the snapshot']);
    expect(made.warm).toContain('claimed a pre-forked copy');
    // Claiming renamed the placeholder to the branch's role: no placeholder is left behind.
    expect(await roleExists(url, entry!.name)).toBe(false);
    expect(made.cold).toContain('copying the snapshot');

    for (const name of [warm, cold, cold2]) {
      const owners = await tableOwners(url, name);
      expect(new Set(Object.values(owners))).toEqual(new Set([roleName(name)]));
      expect(Object.keys(owners)).toEqual(expect.arrayContaining(['app.widgets', 'app.open_widgets', 'public.accounts', 'public.orders']));
      await asUrl(await pooled.connectionUrl(name), async (c) => {
        await c.query('alter table app.widgets add column note text');
        await c.query(`alter type app.state add value 'archived'`);
        await c.query('create or replace view app.open_widgets as select * from app.widgets where state <> $$done$$');
        await c.query('alter function app.widget_count() rename to widgets_total');
        await c.query(`insert into app.widgets (name, note) values ('c', 'x')`);
        expect((await c.query('select app.widgets_total() as n')).rows[0]?.n).toBe('3');
        await c.query('alter table orders drop constraint orders_total_check');
      });
    }
    // A reset claims a pool entry too, for a role that exists already: the objects are handed over, the placeholder dropped.
    await pooled.idle();
    await pooled.reset(warm);
    await pooled.idle();
    expect(new Set(Object.values(await tableOwners(url, warm)))).toEqual(new Set([roleName(warm)]));
    const placeholders = await withDb(url, adminDb(url), async (c) => {
      const { rows } = await c.query<{ role: string; entry: string | null }>(
        'select r.rolname as role, d.datname as entry from pg_roles r left join pg_database d on d.datname = r.rolname where starts_with(r.rolname, $1)',
        [poolPrefix(parent)],
      );
      return rows;
    });
    expect(placeholders.filter((row) => row.entry === null)).toEqual([]);

    // The parent's role owns nothing in its children: deleting them and it drops every role.
    for (const name of [warm, cold, cold2, parent]) await pooled.delete(name);
    await pooled.idle();
    for (const name of [warm, cold, cold2, parent]) expect(await roleExists(url, roleName(name))).toBe(false);
  });

  it('never runs, as the admin, a function a branch role put where an unqualified call would pick it', async () => {
    const pooled = open(1);
    const parent = `${prefix}trap`;
    await pooled.create(parent, root);
    // Overloads that match Baton's own calls exactly (ownership.ts, fingerprint.ts) beat pg_catalog's variadic ones.
    const trap = (args: string, body: string) =>
      `create function public.${args} returns text language plpgsql as $f$ begin insert into public.pwned values (current_user); return ${body}; end $f$;`;
    await asUrl(await pooled.connectionUrl(parent), (c) =>
      c.query(`
        create table public.pwned (who name);
        ${trap('format(f text, a name, b name)', 'pg_catalog.format(f, a, b)')}
        ${trap('format(f text, a text, b name, c name, d name)', 'pg_catalog.format(f, a, b, c, d)')}
        ${trap('concat_ws(s text, a oid, b bigint, c bigint, d bigint)', 'pg_catalog.concat_ws(s, a, b, c, d)')}`),
    );
    await pooled.prewarm(parent); // a snapshot (content counters read inside the parent) and a prepared pool entry
    const warm = `${prefix}trap-warm`;
    const cold = `${prefix}trap-cold`;
    await pooled.create(warm, parent);
    await open(0).create(cold, parent, { fresh: true });
    await pooled.schemaDiff(warm, parent);
    for (const name of [parent, warm, cold]) {
      expect(await withDb(url, name, async (c) => (await c.query('select who from public.pwned')).rows)).toEqual([]);
    }
    // The traps do work when called: a session with public on its path picks them.
    await asUrl(await pooled.connectionUrl(warm), (c) => c.query(`select format('%I %I', 'a'::name, 'b'::name)`));
    expect(await withDb(url, warm, async (c) => (await c.query('select who from public.pwned')).rows)).toEqual([{ who: roleName(warm) }]);
  });

  it('keeps the role and its URL across a reset, and runs prepare as that role', async () => {
    const name = `${prefix}reset`;
    await provider.create(name, root);
    const before = await provider.connectionUrl(name);
    await asUrl(before, (c) => c.query('create table scratch (id int)'));
    // Claiming to be an adopted root would earn the admin URL; the role may not write Baton's comment (postgres-escapes.test.ts).
    const forged = JSON.stringify({ baton: 1, role: 'branch', parent: root, createdAt: new Date().toISOString(), depth: 1, adopted: true });
    expect(await sqlState(asUrl(before, (c) => c.query(`comment on database ${pg.escapeIdentifier(name)} is ${pg.escapeLiteral(forged)}`)))).toBe('42501');
    expect(await provider.connectionUrl(name)).toBe(before);
    let preparedAs: string | null = null;
    await provider.reset(name, {
      prepare: (prepareUrl) => asUrl(prepareUrl, async (c) => void (preparedAs = (await c.query('select current_user as u')).rows[0]?.u as string)),
    });
    expect(preparedAs).toBe(roleName(name));
    expect(await provider.connectionUrl(name)).toBe(before);
    await asUrl(before, async (c) => {
      expect((await c.query(`select to_regclass('scratch') as t`)).rows[0]?.t).toBeNull();
      await c.query('alter table accounts add column reset_note text');
    });
  });

  it('quotes odd names, keeps role names within 63 bytes, and gives a branch made before roles its role on first use', async () => {
    const odd = `${prefix}Odd "Name" ü`;
    const long = `${prefix}${'x'.repeat(63 - prefix.length)}`;
    for (const name of [odd, long]) {
      expect(Buffer.byteLength(roleName(name))).toBeLessThanOrEqual(63);
      await provider.create(name, root);
      expect(await asUrl(await provider.connectionUrl(name), async (c) => (await c.query('select current_user as u')).rows[0]?.u)).toBe(roleName(name));
    }
    expect(roleName(long)).not.toBe(roleName(`${long.slice(0, -1)}y`));

    // A branch as an earlier Baton made it: owned by the admin, no role, PUBLIC may connect.
    const legacy = `${prefix}legacy`;
    const meta = JSON.stringify({ baton: 1, role: 'branch', parent: root, createdAt: new Date().toISOString(), depth: 1 });
    await withDb(url, adminDb(url), async (c) => {
      await c.query(`create database ${pg.escapeIdentifier(legacy)} template ${pg.escapeIdentifier(root)}`);
      await c.query(`comment on database ${pg.escapeIdentifier(legacy)} is ${pg.escapeLiteral(meta)}`);
    });
    const legacyUrl = await provider.connectionUrl(legacy);
    expect(legacyUrl).not.toContain(passwordOf(url));
    await asUrl(legacyUrl, (c) => c.query('alter table accounts add column legacy text'));
    expect(await sqlState(asUrl(legacyUrl, (c) => c.query('select 1'), root))).toBe('42501');
  });

  it('leaves an adopted root as it was (admin URL), while its branches get roles', async () => {
    const existing = `${prefix}adopted`;
    await withDb(url, adminDb(url), (c) => c.query(`create database ${pg.escapeIdentifier(existing)}`));
    await withDb(url, existing, (c) => c.query('create table kept (id int)'));
    await provider.ensureRoot(existing);
    const rootUrl = new URL(await provider.connectionUrl(existing));
    expect(rootUrl.username).toBe(admin.username);
    // Closed to branch roles (postgres-escapes.test.ts), its owner and comment kept.
    const after = await withDb(url, adminDb(url), async (c) => {
      const { rows } = await c.query(
        `select pg_get_userbyid(datdba) as owner, has_database_privilege('public', oid, 'CONNECT') as open from pg_database where datname = $1`,
        [existing],
      );
      return rows[0];
    });
    expect(after).toEqual({ owner: admin.username, open: false });
    const child = `${prefix}adopted-child`;
    await provider.create(child, existing);
    await asUrl(await provider.connectionUrl(child), (c) => c.query('alter table kept add column x int; create table added (id int)'));
    // Rolled back to its child (as a failed promote does): what comes back is the root owner's again, not the child role's.
    await provider.reset(existing, { from: child });
    expect(new URL(await provider.connectionUrl(existing)).username).toBe(admin.username);
    expect(new Set(Object.values(await tableOwners(url, existing)))).toEqual(new Set([admin.username]));
    await provider.delete(child);
    expect(await roleExists(url, roleName(child))).toBe(false);
  });

  it('sweeps the role of a branch whose delete stopped before dropping it', async () => {
    const name = `${prefix}crashed`;
    await provider.create(name, root);
    await provider.connectionUrl(name);
    await withDb(url, adminDb(url), (c) => c.query(`drop database ${pg.escapeIdentifier(name)} with (force)`));
    await withDb(url, vaultOf(url), (c) => c.query(`update branch_roles set created_at = now() - interval '2 hours' where branch = $1`, [name]));
    const ours = (names: string[]) => names.filter((n) => n.includes(prefix));
    expect(ours(await provider.collectLeftovers({ dryRun: true, olderThanMs: 3_600_000 }))).toEqual([`role ${roleName(name)}`]);
    expect(await roleExists(url, roleName(name))).toBe(true);
    expect(ours(await provider.collectLeftovers({ dryRun: false, olderThanMs: 3_600_000 }))).toEqual([`role ${roleName(name)}`]);
    expect(await roleExists(url, roleName(name))).toBe(false);
  });
});

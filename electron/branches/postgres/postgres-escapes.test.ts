/**
 * Branch roles that cannot escape (issue 31), against the real server in BATON_TEST_PG_URL: a
 * branch role cannot alter, rename, give away or re-describe its own database, cannot connect to
 * template1 or to an adopted root, and still does what an app's migrations do; a delete or gc
 * leaves no database and no role, even after the database was made a template, or says what is
 * left. Skips, saying why, without a server.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BranchError } from '../provider';
import { applyMigrations, planMigrations } from '../migrations';
import { PostgresProvider } from './postgres-provider';
import { adminDb, asUrl, dropEverything, seed, sqlState, testPgUrl, uniquePrefix, urlFor, vaultOf, withDb } from './postgres.fixture';
import { closeAdoptedRoot, closeToPublic } from './reach';
import { roleName } from './roles';

const adminUrl = await testPgUrl('postgres-escapes.test.ts');
const prefix = uniquePrefix('esc');
const root = `${prefix}main`;
/** Login roles of the root's users (not Baton's): named with the prefix, dropped after. */
const app = `${prefix}app`;
const plain = `${prefix}plain`;
const PASSWORD = 'not-a-baton-role';
/**
 * Leftovers this file makes are dated a month back and collected with a cutoff of 29 days: other
 * files on the shared server make theirs hours old, and this file's gc must not take them first.
 */
const MONTH_MS = 30 * 24 * 3_600_000;
const CUTOFF_MS = MONTH_MS - 24 * 3_600_000;

/** `url` logging in as `user` (with PASSWORD) to `database`. */
function loginAs(url: string, user: string, database: string): string {
  const target = new URL(urlFor(url, database));
  target.username = user;
  target.password = PASSWORD;
  return target.toString();
}

describe.skipIf(!adminUrl)('PostgresProvider: branch roles that cannot escape', () => {
  const url = adminUrl as string;
  const admin = (sql: string, params: unknown[] = []) => withDb(url, adminDb(url), (c) => c.query(sql, params));
  /** What is left of `name` on the server: its database and its role, by name. */
  const leftOf = async (name: string) =>
    (
      await admin('select datname::text as what from pg_database where datname = $1 union all select rolname::text from pg_roles where rolname = $2', [
        name,
        roleName(name),
      ])
    ).rows.map((row: { what: string }) => row.what);
  const providers: PostgresProvider[] = [];
  let provider: PostgresProvider;
  let project: string | null = null;

  beforeAll(async () => {
    provider = new PostgresProvider({ adminUrl: url, poolSize: 0 });
    providers.push(provider);
    await provider.ensureRoot(root);
    await seed(url, root, 20);
    for (const role of [app, plain]) await admin(`create role ${pg.escapeIdentifier(role)} login password ${pg.escapeLiteral(PASSWORD)}`);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await dropEverything(url, prefix);
    // Another file adopting a root meanwhile grants these CONNECT there too (reach.ts): try again.
    for (const role of [app, plain])
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const dropped = await admin(`drop owned by ${pg.escapeIdentifier(role)}; drop role if exists ${pg.escapeIdentifier(role)}`).then(
          () => true,
          () => false,
        );
        if (dropped) break;
      }
    if (project) await rm(project, { recursive: true, force: true });
  }, 60_000);

  it('a branch role cannot alter, rename, give away or comment on its own database', async () => {
    const name = `${prefix}own`;
    await provider.create(name, root);
    const db = pg.escapeIdentifier(name);
    const forged = JSON.stringify({ baton: 1, role: 'branch', parent: null, createdAt: new Date().toISOString(), depth: 0, adopted: true });
    await asUrl(await provider.connectionUrl(name), async (c) => {
      for (const sql of [
        `alter database ${db} is_template true`,
        `alter database ${db} set default_transaction_read_only = on`,
        `alter role all in database ${db} set default_transaction_read_only = on`,
        `alter database ${db} rename to ${pg.escapeIdentifier(`${prefix}renamed`)}`,
        `alter database ${db} owner to current_user`,
        `alter database ${db} allow_connections false`,
        `alter database ${db} connection limit 0`,
        `comment on database ${db} is ${pg.escapeLiteral(forged)}`,
      ])
        expect(await sqlState(c.query(sql)), sql).toBe('42501');
    });
    // Nothing changed: Baton's metadata, the flags, and what an admin session there starts with.
    expect((await provider.list()).find((b) => b.name === name)).toMatchObject({ parent: root, depth: 1 });
    const { rows } = await admin(
      `select datistemplate as template, datallowconn as connections, datconnlimit as "limit", pg_get_userbyid(datdba) as owner,
        (select count(*)::int from pg_db_role_setting s where s.setdatabase = d.oid) as settings from pg_database d where datname = $1`,
      [name],
    );
    expect(rows[0]).toEqual({ template: false, connections: true, limit: -1, owner: new URL(url).username, settings: 0 });
    const readOnly = await withDb(url, name, async (c) => (await c.query('show default_transaction_read_only')).rows[0]?.default_transaction_read_only);
    expect(readOnly).toBe('off');
  });

  it('takes back, on its next use, a database whose role owns it as Baton before issue 31 left it', async () => {
    const name = `${prefix}legacy`;
    await provider.create(name, root);
    const legacyUrl = await provider.connectionUrl(name);
    const role = pg.escapeIdentifier(roleName(name));
    const db = pg.escapeIdentifier(name);
    await admin(`revoke all on database ${db} from ${role}; alter database ${db} owner to ${role}`);
    await withDb(url, name, (c) => c.query('alter schema public owner to pg_database_owner'));
    // What an owner could do: settings Baton's sessions start with, a forged comment, a template flag.
    const forged = JSON.stringify({ baton: 1, role: 'branch', parent: root, createdAt: new Date().toISOString(), depth: 1, adopted: true });
    await asUrl(legacyUrl, (c) =>
      c.query(`alter database ${db} set default_transaction_read_only = on; comment on database ${db} is ${pg.escapeLiteral(forged)}`),
    );
    await admin(`alter database ${db} is_template true`);

    const taken = await provider.connectionUrl(name);
    expect(taken).toBe(legacyUrl); // the same role and password, not the admin's URL the forged comment asks for
    const { rows } = await admin(
      `select datistemplate as template, pg_get_userbyid(datdba) as owner, (select count(*)::int from pg_db_role_setting s where s.setdatabase = d.oid) as settings
       from pg_database d where datname = $1`,
      [name],
    );
    expect(rows[0]).toEqual({ template: false, owner: new URL(url).username, settings: 0 });
    await asUrl(taken, async (c) => {
      await c.query('create table after_upgrade (id int)');
      expect(await sqlState(c.query(`alter database ${db} is_template true`))).toBe('42501');
    });
  });

  it('the session defaults a branch role sets for itself stay its own, and a reset clears them', async () => {
    const name = `${prefix}self`;
    await provider.create(name, root);
    const branchUrl = await provider.connectionUrl(name);
    const show = (u: string) => asUrl(u, async (c) => (await c.query('show default_transaction_read_only')).rows[0]?.default_transaction_read_only);
    // Postgres lets any role set its own defaults; they reach its own sessions only.
    await asUrl(branchUrl, (c) => c.query('alter role current_user set default_transaction_read_only = on'));
    expect(await show(branchUrl)).toBe('on');
    expect(await show(urlFor(url, name))).toBe('off');
    // The reset's preparation runs as the role: the defaults it set are gone by then.
    await provider.reset(name, { prepare: (prepareUrl) => asUrl(prepareUrl, async (c) => void (await c.query('create table prepared (id int)'))) });
    expect(await show(branchUrl)).toBe('off');
  });

  it('a branch role cannot connect to template1 and is a member of no role', async () => {
    const name = `${prefix}t1`;
    await provider.create(name, root);
    const branchUrl = await provider.connectionUrl(name);
    expect(await sqlState(asUrl(branchUrl, (c) => c.query('select 1'), 'template1'))).toBe('42501');
    expect(await sqlState(asUrl(branchUrl, (c) => c.query('select 1'), adminDb(url)))).toBe('42501');
    expect(await sqlState(asUrl(branchUrl, (c) => c.query('select 1'), vaultOf(url)))).toBe('42501');
    const memberships = await admin('select count(*)::int as n from pg_auth_members m join pg_roles r on r.oid = m.member where r.rolname = $1', [
      roleName(name),
    ]);
    expect(memberships.rows[0]).toEqual({ n: 0 });
    expect(provider.warnings()).toEqual([]);
  });

  it('closes an adopted root to branch roles, ending their sessions there, but not to its users, across a rollback', async () => {
    const adopted = `${prefix}adopted`;
    await admin(`create database ${pg.escapeIdentifier(adopted)}`);
    await withDb(url, adopted, (c) =>
      c.query(`create table customers (id int primary key, name text); insert into customers values (1, 'Ada'); grant select on customers to public`),
    );
    const early = `${prefix}early`;
    await provider.create(early, root);
    const earlyUrl = await provider.connectionUrl(early);
    // Before Baton adopts it, PUBLIC may connect: a branch role gets in, reads, and stays.
    const holder = new pg.Client({ connectionString: new URL(`/${encodeURIComponent(adopted)}`, earlyUrl).toString() });
    holder.on('error', () => undefined);
    await holder.connect();
    expect((await holder.query('select name from customers')).rows).toEqual([{ name: 'Ada' }]);

    await provider.ensureRoot(adopted);
    expect(
      await holder.query('select 1').then(
        () => 'still connected',
        () => 'ended',
      ),
    ).toBe('ended');
    await holder.end().catch(() => undefined);
    expect(await sqlState(asUrl(earlyUrl, (c) => c.query('select 1'), adopted))).toBe('42501');
    const customers = () => asUrl(loginAs(url, app, adopted), async (c) => (await c.query('select name from customers')).rows);
    expect(await customers()).toEqual([{ name: 'Ada' }]);

    // Its branch is made while no branch role can hold it open, and its role is kept out too.
    const child = `${prefix}adopted-child`;
    await provider.create(child, adopted);
    expect(await sqlState(asUrl(await provider.connectionUrl(child), (c) => c.query('select 1'), adopted))).toBe('42501');
    // Rolled back from its child (as a failed promote does): the replacement keeps the root's grants.
    await provider.reset(adopted, { from: child });
    expect(await customers()).toEqual([{ name: 'Ada' }]);
    expect(await sqlState(asUrl(earlyUrl, (c) => c.query('select 1'), adopted))).toBe('42501');
    expect(provider.warnings()).toEqual([]);
    await provider.delete(child);
  });

  it('says what to run when the admin may not close a database to branch roles', async () => {
    const open = `${prefix}open`;
    await admin(`create database ${pg.escapeIdentifier(open)}`);
    const isOpen = async () =>
      (await admin(`select has_database_privilege('public', oid, 'CONNECT') as open from pg_database where datname = $1`, [open])).rows[0]?.open as boolean;
    const said = await asUrl(loginAs(url, plain, open), async (c) => [await closeAdoptedRoot(c, open), await closeToPublic(c, open)]);
    for (const warning of said) expect(warning).toContain(`REVOKE CONNECT ON DATABASE ${pg.escapeIdentifier(open)} FROM PUBLIC`);
    expect(said[0]).toContain(`GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(open)} TO app_role`);
    expect(await isOpen()).toBe(true);
    // An admin who may closes it, and whoever could log in before still can.
    expect(await withDb(url, adminDb(url), (c) => closeAdoptedRoot(c, open))).toBeNull();
    expect(await isOpen()).toBe(false);
    expect(await asUrl(loginAs(url, plain, open), async (c) => (await c.query('select current_user as u')).rows[0]?.u)).toBe(plain);
  });

  it('delete and gc leave no database and no role, even after the database was made a template', async () => {
    const name = `${prefix}tpl`;
    await provider.create(name, root);
    const branchUrl = await provider.connectionUrl(name);
    await admin(`alter database ${pg.escapeIdentifier(name)} is_template true`);
    await provider.delete(name);
    expect(await leftOf(name)).toEqual([]);
    expect(await sqlState(asUrl(branchUrl, (c) => c.query('select 1'), root))).toMatch(/^(28P01|28000)$/);

    // A half-made database (a create that crashed) made a template: gc still drops it, and its role.
    const crashed = `${prefix}tpl-crashed`;
    await provider.create(crashed, root);
    await provider.connectionUrl(crashed);
    const pending = JSON.stringify({ baton: 1, role: 'pending', parent: root, createdAt: new Date(Date.now() - MONTH_MS).toISOString(), depth: 1 });
    await admin(`comment on database ${pg.escapeIdentifier(crashed)} is ${pg.escapeLiteral(pending)}`);
    await admin(`alter database ${pg.escapeIdentifier(crashed)} is_template true`);
    const collected = await provider.collectLeftovers({ dryRun: false, olderThanMs: CUTOFF_MS });
    expect(collected).toContain(crashed);
    expect(await leftOf(crashed)).toEqual([]);
  });

  it('a delete whose role cannot be dropped says what is left and what to do, and the role can no longer log in', async () => {
    const name = `${prefix}held`;
    const elsewhere = `${prefix}elsewhere`;
    await provider.create(name, root);
    const branchUrl = await provider.connectionUrl(name);
    await admin(`create database ${pg.escapeIdentifier(elsewhere)}`);
    await withDb(url, elsewhere, (c) => c.query(`create table kept (id int); alter table kept owner to ${pg.escapeIdentifier(roleName(name))}`));
    const error = await provider.delete(name).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BranchError);
    const message = (error as BranchError).message;
    expect(message).toContain(`"${elsewhere}"`);
    expect(message).toContain(`DROP OWNED BY ${pg.escapeIdentifier(roleName(name))}`);
    expect(message).toContain('baton branch gc');
    expect(await leftOf(name)).toEqual([roleName(name)]);
    expect(await sqlState(asUrl(branchUrl, (c) => c.query('select 1'), root))).toMatch(/^(28P01|28000)$/);

    // Once what held it is gone, gc drops it.
    await admin(`drop database ${pg.escapeIdentifier(elsewhere)}`);
    await withDb(url, vaultOf(url), (c) => c.query(`update branch_roles set created_at = now() - interval '30 days' where branch = $1`, [name]));
    expect(await provider.collectLeftovers({ dryRun: false, olderThanMs: CUTOFF_MS })).toContain(`role ${roleName(name)}`);
    expect(await leftOf(name)).toEqual([]);
  });

  it("runs an app's work and the project's SQL migrations as the branch role", async () => {
    project = await mkdtemp(join(tmpdir(), 'baton-escapes-'));
    await mkdir(join(project, 'migrations'));
    const migrations: Record<string, string> = {
      '001_items.sql': `create table items (id bigint generated always as identity primary key, name text not null);
        create sequence order_no; create view item_names as select name from items; comment on table items is 'what is sold';
        create function item_count() returns bigint language sql as 'select count(*) from items';`,
      '002_billing.sql': `create schema billing; create extension if not exists pgcrypto;
        create table billing.invoices (id uuid primary key default gen_random_uuid(), total numeric not null);
        create function billing.positive() returns trigger language plpgsql as $$ begin if new.total < 0 then raise exception 'negative'; end if; return new; end $$;
        create trigger positive before insert on billing.invoices for each row execute function billing.positive();`,
      '003_rows.sql': `insert into items (name) values ('a'), ('b'); insert into billing.invoices (total) values (10); select nextval('order_no');`,
    };
    for (const [file, sql] of Object.entries(migrations)) await writeFile(join(project, 'migrations', file), sql);
    const plan = await planMigrations(project, { migrations: { tool: 'sql', path: 'migrations' } });
    const name = `${prefix}app-work`;
    const applied: string[] = [];
    await provider.create(name, root, {
      prepare: async (prepareUrl) => void applied.push(...(await applyMigrations(prepareUrl, plan, { cwd: project!, branch: name })).applied),
    });
    expect(applied).toEqual(Object.keys(migrations));

    // Its child (a copy) is its role's to change in the same ways.
    const child = `${prefix}app-child`;
    await provider.create(child, name);
    for (const branch of [name, child]) {
      await asUrl(await provider.connectionUrl(branch), async (c) => {
        expect((await c.query('select item_count() as n')).rows[0]?.n).toBe('2');
        await c.query(`create table notes (id serial primary key, body text); insert into notes (body) values ('x')`);
        await c.query(`create function note_count() returns bigint language sql as 'select count(*) from notes'`);
        expect((await c.query('select note_count() as n')).rows[0]?.n).toBe('1');
        await c.query('alter table billing.invoices add column note text; create temporary table scratch (id int)');
        expect(await sqlState(c.query(`insert into billing.invoices (total) values (-1)`))).toBe('P0001');
        // The reset idiom of many test suites: the public schema is the role's to drop and make again.
        await c.query('drop schema public cascade; create schema public; create table fresh (id int)');
      });
    }
    await provider.delete(child);
  });
});

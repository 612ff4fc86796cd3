/**
 * Helpers for the postgres provider's tests, which run against a real server named by
 * BATON_TEST_PG_URL and share it with other test files running at the same time: every file
 * uses its own random name prefix and drops everything it (and the provider for it) made.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { poolPrefix, snapshotPrefix } from './layout';
import { vaultName } from './vault';

/** The admin URL for tests, or null with the reason printed (the suite then skips). */
export async function testPgUrl(file: string): Promise<string | null> {
  const url = process.env.BATON_TEST_PG_URL;
  if (!url) {
    console.warn(`${file}: skipped: BATON_TEST_PG_URL is not set (e.g. postgresql://postgres:baton-ci@127.0.0.1:5432/postgres; .ci/run sets it).`);
    return null;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return url;
  } catch (error) {
    console.warn(`${file}: skipped: the Postgres server in BATON_TEST_PG_URL is unreachable (${(error as Error).message.replaceAll(passwordOf(url), '***')}).`);
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const passwordOf = (url: string): string => decodeURIComponent(new URL(url).password) || '\0no password\0';

/** The admin URL's own database. */
export const adminDb = (adminUrl: string): string => decodeURIComponent(new URL(adminUrl).pathname.slice(1)) || 'postgres';

/** A fresh prefix for one test file's database names: lowercase, short, unlikely to collide. */
export const uniquePrefix = (tag: string): string => `t${randomBytes(3).toString('hex')}_${tag}_`;

export function urlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Runs `work` connected with `url` as it is (a branch role's credentials, say), to `database` if given. */
export async function asUrl<T>(url: string, work: (client: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const target = new URL(url);
  if (database !== undefined) target.pathname = `/${encodeURIComponent(database)}`;
  const client = new pg.Client({ connectionString: target.toString(), connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The SQLSTATE a promise fails with (it must fail). */
export async function sqlState(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => new Error('expected a failure, got success'),
    (e: unknown) => e,
  );
  expect(error).toHaveProperty('code');
  return (error as { code: string }).code;
}

/** Runs `work` with a client on `database`, closing it after. */
export async function withDb<T>(adminUrl: string, database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor(adminUrl, database) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Two related tables with rows, analysed and with autovacuum off so no background job changes them. */
export async function seed(adminUrl: string, database: string, rows = 500): Promise<void> {
  await withDb(adminUrl, database, async (client) => {
    await client.query(`
      create table accounts (id int primary key, email text not null unique, balance numeric(12,2) not null default 0) with (autovacuum_enabled = false);
      create table orders (id serial primary key, account_id int not null references accounts(id), total numeric(12,2) not null check (total >= 0)) with (autovacuum_enabled = false);
      create index orders_account on orders(account_id);
      insert into accounts select g, 'user' || g || '@example.com', g * 1.5 from generate_series(1, ${rows}) g;
      insert into orders (account_id, total) select 1 + (g % ${rows}), g from generate_series(1, ${rows * 2}) g;
      analyze;`);
  });
}

/** Every user table's rows (as an md5 of their text) and the table list: equal checksums, equal data. */
export async function checksums(adminUrl: string, database: string): Promise<Record<string, string>> {
  return withDb(adminUrl, database, async (client) => {
    const { rows: tables } = await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
    );
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ sum: string | null; n: string }>(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum, count(*) as n from ${name} t`,
      );
      out[name] = `${rows[0]?.n}:${rows[0]?.sum}`;
    }
    return out;
  });
}

export async function databasesLike(adminUrl: string, prefix: string): Promise<string[]> {
  return withDb(adminUrl, adminDb(adminUrl), async (client) => {
    const { rows } = await client.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1) order by 1', [prefix]);
    return rows.map((row) => row.datname);
  });
}

/**
 * Drops every database named with `prefix`, and the provider's snapshots, pool entries and
 * reset temporaries made for them (found by name hash, and by their comment for branches already gone).
 */
export async function dropEverything(adminUrl: string, prefix: string): Promise<void> {
  const dropped = await withDb<string[]>(adminUrl, adminDb(adminUrl), async (client) => {
    const { rows } = await client.query<{ datname: string; comment: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as comment from pg_database where starts_with(datname, $1) or starts_with(datname, 'baton_')`,
      [prefix],
    );
    const ours = rows.filter((row) => row.datname.startsWith(prefix)).map((row) => row.datname);
    const helperPrefixes = ours.flatMap((name) => [snapshotPrefix(name), poolPrefix(name)]);
    const helpers = rows.filter((row) => {
      if (helperPrefixes.some((p) => row.datname.startsWith(p))) return true;
      if (!row.datname.startsWith('baton_') || !row.comment) return false;
      try {
        const meta = JSON.parse(row.comment) as { of?: string; for?: string };
        return (meta.of ?? meta.for ?? '').startsWith(prefix);
      } catch {
        return false;
      }
    });
    return [...ours, ...helpers.map((row) => row.datname)];
  }).then(async (names) => {
    // Eight at a time: each DROP DATABASE waits for a checkpoint, and concurrent ones share it.
    const queue = [...names];
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        // A test may have made it a template, which DROP DATABASE refuses (and it runs on its own, outside a transaction).
        const db = pg.escapeIdentifier(name);
        await withDb(adminUrl, adminDb(adminUrl), async (c) => {
          await c.query(`alter database ${db} is_template false`).catch(() => undefined);
          await c.query(`drop database if exists ${db} with (force)`);
        }).catch(() => undefined);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return names;
  });
  // Pool entries' placeholder roles are named exactly like the entries.
  await dropRoles(adminUrl, prefix, dropped);
}

/** The admin URL's vault of branch role passwords (vault.ts). */
export const vaultOf = (adminUrl: string): string => vaultName(decodeURIComponent(new URL(adminUrl).username));

/** The branch roles (roles.ts) of branches named with `prefix`, and their passwords in the vault. */
export async function dropRoles(adminUrl: string, prefix: string, also: readonly string[] = []): Promise<void> {
  const roles = await withDb(adminUrl, adminDb(adminUrl), async (client) => {
    const { rows } = await client.query<{ rolname: string }>('select rolname from pg_roles where starts_with(rolname, $1) or rolname = any($2::text[])', [
      `baton_${prefix}`,
      also,
    ]);
    for (const { rolname } of rows) {
      const role = pg.escapeIdentifier(rolname);
      await client.query(`drop owned by ${role}; drop role ${role}`).catch(() => undefined);
    }
    return (await client.query('select 1 from pg_database where datname = $1', [vaultOf(adminUrl)])).rowCount;
  });
  if (roles)
    await withDb(adminUrl, vaultOf(adminUrl), (c) => c.query('delete from branch_roles where starts_with(branch, $1)', [prefix])).catch(() => undefined);
}

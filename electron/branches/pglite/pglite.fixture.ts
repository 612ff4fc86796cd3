/**
 * Test helpers for the pglite provider: a throwaway data folder seeded with an initialised empty
 * database (initdb takes ~10 s, so it runs once per machine and PGlite version and is copied),
 * `pg` helpers, and a checksum over every table's rows and columns for the isolation tests.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import pg from 'pg';
import { copyDir } from './copy-dir';
import { PgliteLayout, removeDir } from './layout';
import { PgliteProvider, type PgliteProviderOptions } from './pglite-provider';
import { initDataDir } from './server-process';

const PGLITE_MAIN = createRequire(import.meta.url).resolve('@electric-sql/pglite'); // <package>/dist/index.cjs
const PGLITE_VERSION = (JSON.parse(readFileSync(join(dirname(PGLITE_MAIN), '..', 'package.json'), 'utf8')) as { version: string }).version;
const CACHE = join(os.tmpdir(), `baton-pglite-template-${PGLITE_VERSION}`);

/** An initialised empty data directory, made once and shared by test files (published by rename). */
async function sharedTemplate(): Promise<string> {
  if (
    await fs.access(join(CACHE, 'PG_VERSION')).then(
      () => true,
      () => false,
    )
  )
    return CACHE;
  const work = join(os.tmpdir(), `baton-pglite-init-${randomUUID().slice(0, 8)}`);
  try {
    await initDataDir(work);
    await fs.rename(work, CACHE).catch(() => undefined); // another file won the race: use theirs
  } finally {
    await removeDir(work);
  }
  return CACHE;
}

/**
 * Puts an initialised empty database where the pglite provider under `dataDir` looks for its
 * template, so a test project's first branch copies it instead of running initdb (several seconds
 * of CPU each). The same files initdb writes: made by initdb once per machine and PGlite version.
 */
export async function seedTemplate(dataDir: string): Promise<void> {
  const layout = new PgliteLayout(dataDir);
  const exists = (path: string) =>
    fs.access(path).then(
      () => true,
      () => false,
    );
  if (await exists(join(layout.template, 'PG_VERSION'))) return;
  await fs.mkdir(layout.root, { recursive: true });
  const staging = join(layout.root, `template-seed-${randomUUID().slice(0, 8)}`);
  await copyDir(await sharedTemplate(), staging);
  // Published by rename, as the provider does: whoever finds PG_VERSION finds a whole database.
  await fs.rename(staging, layout.template).catch(async (error: unknown) => {
    await removeDir(staging);
    if (!(await exists(join(layout.template, 'PG_VERSION')))) throw error;
  });
}

export interface TempProvider {
  readonly dataDir: string;
  readonly provider: PgliteProvider;
  readonly layout: PgliteLayout;
  /** Stop every server, background work, and remove the folder. */
  dispose(): Promise<void>;
}

export async function makeTempProvider(options: Omit<PgliteProviderOptions, 'dataDir'> = {}): Promise<TempProvider> {
  const dataDir = await fs.mkdtemp(join(os.tmpdir(), 'baton-pglite-'));
  const layout = new PgliteLayout(dataDir);
  await fs.mkdir(layout.root, { recursive: true });
  await copyDir(await sharedTemplate(), layout.template);
  const provider = new PgliteProvider({ dataDir, ...options });
  return {
    dataDir,
    provider,
    layout,
    dispose: async () => {
      await provider.close();
      await provider.stopServers();
      await removeDir(dataDir);
    },
  };
}

/** Run `work` with a connected client, always closing it (a branch server takes one client). */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function withBranch<T>(provider: PgliteProvider, name: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withClient(await provider.connectionUrl(name), work);
}

/** Every user table's columns and rows, hashed per table: equal checksums mean equal data and shape. */
export async function checksum(client: pg.Client): Promise<Record<string, string>> {
  const tables = await client.query<{ name: string }>(
    "select table_schema || '.' || table_name as name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') and table_type = 'BASE TABLE' order by 1",
  );
  const result: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const [schema, table] = name.split('.') as [string, string];
    const ident = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
    const columns = await client.query<{ c: string }>(
      "select string_agg(column_name || ':' || data_type || ':' || is_nullable, ',' order by ordinal_position) as c from information_schema.columns where table_schema = $1 and table_name = $2",
      [schema, table],
    );
    const rows = await client.query<{ h: string; n: string }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h, count(*) as n from ${ident} t`,
    );
    result[name] = createHash('sha256').update(`${columns.rows[0]?.c}\n${rows.rows[0]?.n}\n${rows.rows[0]?.h}`).digest('hex').slice(0, 16);
  }
  return result;
}

/** A small schema with a unique key and a foreign key, and a few rows. */
export async function seedShop(client: pg.Client): Promise<void> {
  await client.query(`
    create table customers (id int primary key, email text not null unique, name text);
    create table orders (id int primary key, customer_id int not null references customers(id), total numeric(10,2) not null);
    insert into customers values (1, 'ada@example.com', 'Ada'), (2, 'alan@example.com', 'Alan'), (3, 'grace@example.com', 'Grace');
    insert into orders values (10, 1, 12.50), (11, 1, 7.25), (12, 2, 99.00);
  `);
}

/** A hash of every file's relative path and content under `dir`. */
export async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const files: string[] = [];
  const walk = async (at: string): Promise<void> => {
    for (const entry of await fs.readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else files.push(path);
    }
  };
  await walk(dir);
  for (const file of files.sort()) hash.update(relative(dir, file)).update(await fs.readFile(file));
  return hash.digest('hex');
}

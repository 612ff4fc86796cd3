import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectSettings } from '../../project/settings';
import { BranchError } from '../provider';
import { applyMigrations, MigrationError, planMigrations } from './index';
import { realPostgres, resetPublicSchema, scratchDatabase, servePglite, withClient } from './test-databases.fixture';

const NODE_PATH = dirname(dirname(createRequire(import.meta.url).resolve('pg/package.json')));
const sqlSettings: Pick<ProjectSettings, 'migrations'> = { migrations: { tool: 'sql', path: 'db/migrations' } };

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-migrate-'));
  await mkdir(join(root, 'db', 'migrations'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function files(entries: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(entries)) await writeFile(join(root, 'db', 'migrations', name), text);
}

async function tables(url: string): Promise<string[]> {
  const rows = await withClient(url, (c) => c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`));
  return rows.rows.map((r) => r.t);
}

async function recorded(url: string): Promise<string[]> {
  const rows = await withClient(url, (c) => c.query<{ version: string }>('SELECT version FROM public.baton_migrations ORDER BY version'));
  return rows.rows.map((r) => r.version);
}

async function migrate(url: string, options: Partial<Parameters<typeof applyMigrations>[2]> = {}, settings = sqlSettings) {
  return applyMigrations(url, await planMigrations(root, settings), { cwd: root, branch: 'feature-x', ...options });
}

function suite(database: () => string): void {
  beforeEach(async () => resetPublicSchema(database()));

  it('applies SQL files in natural order, each once', async () => {
    const url = database();
    // Lexical order would run 10_seed before 2_orders (and fail: orders would not exist yet).
    await files({
      '1_users.sql': 'CREATE TABLE users (id int PRIMARY KEY, email text);\n',
      '2_orders.sql': 'CREATE TABLE orders (id int PRIMARY KEY, user_id int REFERENCES users(id));\n',
      '10_seed.sql': "INSERT INTO users VALUES (1, 'a@example.com');\nINSERT INTO orders VALUES (1, 1);\n",
    });
    expect(await migrate(url)).toEqual({ tool: 'sql', applied: ['1_users.sql', '2_orders.sql', '10_seed.sql'], skipped: [] });
    expect(await migrate(url)).toEqual({ tool: 'sql', applied: [], skipped: ['1_users.sql', '2_orders.sql', '10_seed.sql'] });
    await files({ '11_more.sql': 'CREATE TABLE more (id int);' });
    expect(await migrate(url)).toEqual({ tool: 'sql', applied: ['11_more.sql'], skipped: ['1_users.sql', '2_orders.sql', '10_seed.sql'] });
    const seeded = await withClient(url, (c) => c.query<{ n: string }>('SELECT count(*)::text AS n FROM orders'));
    expect(seeded.rows[0]?.n).toBe('1');
    expect(await recorded(url)).toEqual(['10_seed.sql', '11_more.sql', '1_users.sql', '2_orders.sql']);
  });

  it('stops at a failing file with its name, line and Postgres message, keeping earlier files and the database usable', async () => {
    const url = database();
    await files({
      '1_ok.sql': 'CREATE TABLE kept (id int);\n',
      '2_bad.sql': 'CREATE TABLE rolled_back (id int);\n\nCREATE TABLEE broken (id int);\n',
      '3_never.sql': 'CREATE TABLE never (id int);\n',
    });
    const error = await migrate(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    const failure = error as MigrationError;
    expect(failure.message).toMatch(
      /^Migration db\/migrations\/2_bad\.sql failed at line 3 \(`CREATE TABLEE broken \(id int\);`\) on branch "feature-x": syntax error at or near "TABLEE"/,
    );
    expect(failure.message).toMatch(/rolled back.*1_ok\.sql.*stay applied.*Fix the file/s);
    expect(failure.message).not.toContain(new URL(url).password);
    expect({ file: failure.file, line: failure.line, code: failure.code }).toEqual({ file: 'db/migrations/2_bad.sql', line: 3, code: 'failed' });
    expect(failure.report).toEqual({ tool: 'sql', applied: ['1_ok.sql'], skipped: [] });
    expect(await tables(url)).toEqual(['baton_migrations', 'kept']);
    expect(await recorded(url)).toEqual(['1_ok.sql']);
  });

  it('places an error found while running (not parsing) on its line too', async () => {
    const url = database();
    await files({ '1_x.sql': 'CREATE TABLE a (id int);\nINSERT INTO a VALUES (1);\n\n\nSELECT nope FROM a;\n' });
    const error = (await migrate(url).catch((e: unknown) => e)) as MigrationError;
    expect(error.line).toBe(5);
    expect(error.message).toMatch(/column "nope" does not exist \(SQLSTATE 42703\)/);
  });

  it('refuses to go on when an applied file has changed, naming it and what to do', async () => {
    const url = database();
    await files({ '1_a.sql': 'CREATE TABLE a (id int);' });
    await migrate(url);
    await files({ '1_a.sql': 'CREATE TABLE a (id bigint);', '2_b.sql': 'CREATE TABLE b (id int);' });
    const error = (await migrate(url).catch((e: unknown) => e)) as MigrationError;
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.code).toBe('invalid');
    expect(error.message).toMatch(
      /db\/migrations\/1_a\.sql was changed after it was applied to branch "feature-x".*put the change in a new migration file, or reset the branch/,
    );
    expect(await tables(url)).toEqual(['a', 'baton_migrations']);
  });

  it('stops between files when cancelled, keeping what was applied', async () => {
    const url = database();
    await files({ '1_a.sql': 'CREATE TABLE a (id int);', '2_b.sql': 'CREATE TABLE b (id int);' });
    const controller = new AbortController();
    const run = migrate(url, { signal: controller.signal, onProgress: (e) => e.kind === 'branch.step' && controller.abort() });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BranchError);
    expect((error as BranchError).code).toBe('cancelled');
    expect(await recorded(url)).toEqual(['1_a.sql']);
  });

  it('runs a configured command with DATABASE_URL in the project folder', async () => {
    const url = database();
    await writeFile(
      join(root, 'migrate.cjs'),
      `const { Client } = require('pg');
const c = new Client({ connectionString: process.env.DATABASE_URL });
c.connect().then(() => c.query('CREATE TABLE from_command (id int)')).then(() => c.end()).then(() => console.log('migrated'), (e) => { console.error(e.message); process.exit(1); });`,
    );
    const settings: Pick<ProjectSettings, 'migrations'> = { migrations: { tool: 'command', path: 'db/migrations', command: 'node migrate.cjs' } };
    const env = { ...process.env, NODE_PATH };
    expect(await migrate(url, { env }, settings)).toEqual({ tool: 'command', applied: [], skipped: [] });
    expect(await tables(url)).toEqual(['from_command']);

    const failing: Pick<ProjectSettings, 'migrations'> = {
      migrations: { tool: 'command', path: 'x', command: `node -e "console.error('boom at ' + process.env.DATABASE_URL); process.exit(2)"` },
    };
    const error = (await migrate(url, { env }, failing).catch((e: unknown) => e)) as MigrationError;
    expect(error).toBeInstanceOf(MigrationError);
    expect(error.message).toMatch(/exited with code 2 in .*\nboom at postgresql:\/\/postgres:\*\*\*@/);
    expect(error.message).not.toContain(new URL(url).password);
  });
}

describe('applyMigrations on a PGlite served over a socket', () => {
  let served: Awaited<ReturnType<typeof servePglite>>;
  beforeAll(async () => {
    served = await servePglite();
  }, 120_000);
  afterAll(async () => served?.close(), 60_000);
  suite(() => served.url);
});

const server = await realPostgres();
if (!server.url) console.warn(`Skipping applyMigrations on Postgres: ${server.reason}.`);

describe.skipIf(!server.url)('applyMigrations on a Postgres server', () => {
  let db: Awaited<ReturnType<typeof scratchDatabase>>;
  beforeAll(async () => {
    db = await scratchDatabase(server.url!, 'baton_migrate');
  }, 60_000);
  afterAll(async () => db?.drop(), 60_000);
  suite(() => db.url);
});

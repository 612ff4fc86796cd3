/**
 * `baton branch` on the postgres provider against the real server in BATON_TEST_PG_URL: the round
 * trip works, and the admin password never appears in CLI output (stdout or stderr, success or
 * failure) nor in the ledger, unless `--show-secret` asks for it; delete and gc leave no database
 * and no role behind, even one made a template. Skips, saying why, without a server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { projectPrefix } from '../branches/names';
import { adminDb, dropEverything, passwordOf, testPgUrl, withDb } from '../branches/postgres/postgres.fixture';
import { roleName } from '../branches/postgres/roles';
import { baton, makeProject, type BatonRun, type TestProject } from './branch-project.fixture';

const adminUrl = await testPgUrl('electron/cli/branch-postgres.test.ts');
const tag = randomBytes(3).toString('hex');
const trunk = `trunk-${tag}`;
let base: string;
let project: TestProject;
/** The project's own database-name prefix on the shared server (names.ts projectPrefix). */
let prefix: string;
const outputs: BatonRun[] = [];
const saved = {
  BATON_DATA_DIR: process.env.BATON_DATA_DIR,
  BATON_CONFIG_DIR: process.env.BATON_CONFIG_DIR,
  GIT_CEILING_DIRECTORIES: process.env.GIT_CEILING_DIRECTORIES,
  BATON_POSTGRES_URL: process.env.BATON_POSTGRES_URL,
};

async function branch(...args: string[]): Promise<BatonRun> {
  const run = await baton('branch', ...args, '--project', project.root, '--provider', 'postgres', '--url', adminUrl!);
  outputs.push(run);
  return run;
}

describe.skipIf(adminUrl === null)('baton branch on postgres: secrets', () => {
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'baton-branch-pg-'));
    process.env.BATON_DATA_DIR = join(base, 'data');
    process.env.BATON_CONFIG_DIR = join(base, 'config');
    process.env.GIT_CEILING_DIRECTORIES = base;
    delete process.env.BATON_POSTGRES_URL;
    project = await makeProject(join(base, 'shop'), join(base, 'data'), trunk);
    await project.editSettings((s) => (s.branches = { poolSize: 0 }));
    prefix = projectPrefix((JSON.parse(await readFile(project.settingsFile, 'utf8')) as { name: string }).name, project.root);
  }, 30_000);

  afterAll(async () => {
    for (const name of [`exp/${tag}`, `feature/${tag}`]) await branch('delete', name, '--yes').catch(() => undefined);
    await dropEverything(adminUrl!, prefix);
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(base, { recursive: true, force: true });
  }, 60_000);

  it('create, url, list, diff, reset and delete work and print the URL redacted', async () => {
    const password = passwordOf(adminUrl!);
    const created = await branch('create', `feature/${tag}`, '--json');
    expect(created.code, created.err).toBe(0);
    const pair = JSON.parse(created.out) as { name: string; connectionUrl: string; parent: string };
    expect(pair).toMatchObject({ name: `${prefix}feature-${tag}`, parent: `${prefix}trunk-${tag}` });
    expect(pair.connectionUrl).toContain(':***@');
    expect((await branch('create', `exp/${tag}`, '--parent', `feature/${tag}`)).code).toBe(0);

    const text = await branch('url', `exp/${tag}`);
    expect(text.out).toContain(':***@');
    const shown = await baton('branch', 'url', `exp/${tag}`, '--show-secret', '--project', project.root, '--provider', 'postgres', '--url', adminUrl!);
    // The branch's own role, never the admin: its password is not the server's.
    expect(shown.out).not.toContain(password);
    expect(shown.out).toMatch(/postgresql:\/\/baton_[^:]+:[A-Za-z0-9_-]{32}@/);

    for (const args of [['list'], ['list', '--json'], ['diff', `exp/${tag}`], ['reset', `exp/${tag}`, '--yes'], ['delete', `exp/${tag}`, '--yes']]) {
      const run = await branch(...args);
      expect(run.code, `${args.join(' ')}: ${run.err}`).toBe(0);
    }
  }, 60_000);

  it('a failing create explains itself without the password', async () => {
    await project.editSettings((s) => (s.masking = { sql: 'update no_such_table set email = null' }));
    try {
      const run = await branch('create', `feature/masked-${tag}`);
      expect(run.code).toBe(1);
      expect(run.err).toContain('no_such_table');
    } finally {
      await project.editSettings((s) => (s.masking = null));
    }
  }, 60_000);

  it('without --url or the environment variable, says how to give the admin URL', async () => {
    const run = await baton('branch', 'list', '--project', project.root, '--provider', 'postgres');
    expect(run.code).toBe(1);
    expect(run.err).toContain('--url');
    expect(run.err).toContain('BATON_POSTGRES_URL');
  });

  it('delete and gc leave no database and no role, even when the database was made a template first', async () => {
    const leftOf = (name: string) =>
      withDb(adminUrl!, adminDb(adminUrl!), async (c) => {
        const { rows } = await c.query<{ what: string }>(
          'select datname as what from pg_database where datname = $1 union all select rolname from pg_roles where rolname = $2',
          [name, roleName(name)],
        );
        return rows.map((row) => row.what);
      });
    const makeTemplate = (name: string) =>
      withDb(adminUrl!, adminDb(adminUrl!), (c) => c.query(`alter database ${pg.escapeIdentifier(name)} is_template true`));

    expect((await branch('create', `tpl/${tag}`)).code).toBe(0);
    const deleted = `${prefix}tpl-${tag}`;
    expect(await leftOf(deleted)).toEqual([deleted, roleName(deleted)]);
    await makeTemplate(deleted);
    const run = await branch('delete', `tpl/${tag}`, '--yes');
    expect(run.code, run.err).toBe(0);
    expect(await leftOf(deleted)).toEqual([]);

    expect((await branch('create', `old/${tag}`, '--ttl-hours', '0.0001')).code).toBe(0);
    const expired = `${prefix}old-${tag}`;
    await makeTemplate(expired);
    await new Promise((resolve) => setTimeout(resolve, 500)); // past the 0.36 s time-to-live
    const gc = await branch('gc', '--yes', '--json');
    expect(gc.code, gc.err).toBe(0);
    expect((JSON.parse(gc.out) as { removed: { name: string }[] }).removed.map((r) => r.name)).toContain(expired);
    expect(await leftOf(expired)).toEqual([]);
    // The name is free again: the pair can be made anew.
    expect((await branch('create', `tpl/${tag}`)).code).toBe(0);
    expect((await branch('delete', `tpl/${tag}`, '--yes')).code).toBe(0);
  }, 120_000);

  it('no output and no ledger record holds the password', async () => {
    const password = passwordOf(adminUrl!);
    expect(outputs.length).toBeGreaterThan(8);
    for (const run of outputs) {
      expect(run.out).not.toContain(password);
      expect(run.err).not.toContain(password);
    }
    const ledger = await readFile(project.ledgerFile, 'utf8');
    expect(ledger).toContain('"type":"branch.created"');
    expect(ledger).not.toContain(password);
    expect(ledger).not.toContain('postgresql://');
  });
});

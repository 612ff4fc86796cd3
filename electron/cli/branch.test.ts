/**
 * `baton branch` end to end on the pglite provider: real git repositories in temp folders, real
 * PGlite databases served over loopback, the CLI run in-process. One project is shared by the
 * tests of this file (PGlite start-up is the slow part), so they run in order and build on each other.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteProvider } from '../branches/pglite/pglite-provider';
import { baton, makeProject, pgliteDatabases, seedPgliteTemplate, stopPgliteServers, type TestProject } from './branch-project.fixture';

let base: string;
let project: TestProject;
const saved = { data: process.env.BATON_DATA_DIR, config: process.env.BATON_CONFIG_DIR, ceiling: process.env.GIT_CEILING_DIRECTORIES };

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-branch-cli-'));
  process.env.BATON_DATA_DIR = join(base, 'data');
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  process.env.GIT_CEILING_DIRECTORIES = base;
  project = await makeProject(join(base, 'shop'), join(base, 'data'));
  await project.editSettings((s) => (s.branches = { poolSize: 0 }));
  await seedPgliteTemplate(project.dataDir);
}, 60_000);

afterAll(async () => {
  if (project) await stopPgliteServers(project.dataDir);
  for (const [key, value] of Object.entries({ BATON_DATA_DIR: saved.data, BATON_CONFIG_DIR: saved.config, GIT_CEILING_DIRECTORIES: saved.ceiling })) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(base, { recursive: true, force: true });
}, 30_000);

const branch = (...args: string[]) => baton('branch', ...args, '--project', project.root);
const json = <T>(run: { out: string }) => JSON.parse(run.out) as T;

async function query<T extends pg.QueryResultRow>(name: string, sql: string): Promise<T[]> {
  const url = json<{ connectionUrl: string }>(await branch('url', name, '--show-secret', '--json')).connectionUrl;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

interface Pair {
  name: string;
  gitBranch: string | null;
  kind: string;
  parent: string | null;
  orphan: string | null;
  expiresAt: string | null;
  active: boolean;
  database: { depth: number } | null;
}
const list = async () => json<{ pairs: Pair[] }>(await branch('list', '--json')).pairs;

describe('baton branch on pglite', () => {
  it('create pairs a git branch and worktree with a migrated database, and records it', async () => {
    const run = await branch('create', 'feature/login', '--json');
    expect(run.code, run.err).toBe(0);
    const created = json<Record<string, unknown>>(run);
    expect(created).toMatchObject({
      name: 'feature-login',
      gitBranch: 'feature/login',
      database: 'feature-login',
      parent: 'main',
      masked: false,
      provider: 'pglite',
    });
    expect(created.createdMs).toEqual(expect.any(Number));
    expect(created.connectionUrl).toMatch(/^postgresql:\/\/.*127\.0\.0\.1:\d+\//);
    expect(existsSync(join(created.worktree as string, 'migrations', '001_items.sql'))).toBe(true);
    expect(await project.gitBranches()).toContain('feature/login');
    expect(await query('feature-login', 'select count(*)::int as n from items')).toEqual([{ n: 0 }]);
    const ledger = await readFile(project.ledgerFile, 'utf8');
    expect(ledger).toContain('"type":"branch.created"');
    expect(ledger).not.toContain('postgresql://');
  }, 60_000);

  it('list shows the tree: the tier, the feature, and an experiment with a time-to-live', async () => {
    expect((await branch('create', 'exp/login-1', '--parent', 'feature-login')).code).toBe(0);
    const pairs = await list();
    expect(pairs.map((p) => [p.name, p.kind, p.parent, p.database?.depth, p.orphan])).toEqual([
      ['main', 'tier', null, 0, null],
      ['feature-login', 'feature', 'main', 1, null],
      ['exp-login-1', 'experiment', 'feature-login', 2, null],
    ]);
    expect(pairs[2]!.expiresAt).not.toBeNull();
    const text = await branch('list');
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/\n {4}exp-login-1 +experiment +exp\/login-1 +2 /);
  }, 60_000);

  it('diff shows a change made on the branch; reset --yes forks it again and the change is gone', async () => {
    await query('exp-login-1', 'create table audit (id int primary key)');
    const diff = await branch('diff', 'exp-login-1', '--json');
    expect(diff.code, diff.err).toBe(0);
    expect(json<{ changes: { kind: string; table: string }[] }>(diff).changes).toEqual([
      expect.objectContaining({ kind: 'table-added', table: 'public.audit' }),
    ]);

    const unconfirmed = await branch('reset', 'exp-login-1');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.err).toContain('--yes');
    expect((await query('exp-login-1', "select to_regclass('public.audit')::text as t"))[0]).toEqual({ t: 'audit' });

    const reset = await branch('reset', 'exp-login-1', '--yes');
    expect(reset.code, reset.err).toBe(0);
    expect((await query('exp-login-1', "select to_regclass('public.audit')::text as t"))[0]).toEqual({ t: null });
    expect(await readFile(project.ledgerFile, 'utf8')).toContain('"type":"branch.reset"');
  }, 60_000);

  it('delete refuses tiers and parents, needs --yes, then removes all four parts', async () => {
    const tier = await branch('delete', 'main', '--yes');
    expect(tier.code).toBe(1);
    expect(tier.err).toContain('tier');
    const parent = await branch('delete', 'feature-login', '--yes');
    expect(parent.code).toBe(1);
    expect(parent.err).toContain('exp-login-1');

    const preview = await branch('delete', 'exp-login-1');
    expect(preview.code).toBe(1);
    expect(preview.out).toContain('database branch exp-login-1');
    expect(preview.out).toContain('git branch exp/login-1');
    expect(await project.registry()).toContain('exp-login-1');

    const worktree = join(project.dataDir, 'worktrees', 'exp-login-1');
    expect(existsSync(worktree)).toBe(true);
    const run = await branch('delete', 'exp-login-1', '--yes');
    expect(run.code, run.err).toBe(0);
    expect(existsSync(worktree)).toBe(false);
    expect(await project.gitBranches()).not.toContain('exp/login-1');
    expect(await project.registry()).not.toContain('exp-login-1');
    expect(await pgliteDatabases(project.dataDir)).not.toContain('exp-login-1');
    expect(await readFile(project.ledgerFile, 'utf8')).toContain('"type":"branch.deleted"');
  }, 60_000);

  it('a failing masking step after the git branch exists leaves no git branch, worktree, database or registry entry', async () => {
    await project.editSettings((s) => (s.masking = { sql: 'update no_such_table set email = null' }));
    try {
      const run = await branch('create', 'feature/masked');
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/feature\/masked/);
      expect(run.err).toMatch(/no_such_table/);
    } finally {
      await project.editSettings((s) => (s.masking = null));
    }
    expectNothingLeft('feature-masked', 'feature/masked');
    await expectNoTrace('feature-masked', 'feature/masked');
  }, 60_000);

  it('a parent whose database is gone fails the create after the git branch exists, and leaves nothing', async () => {
    const provider = new PgliteProvider({ dataDir: project.dataDir, poolSize: 0 });
    await provider.delete('feature-login');
    await provider.close();
    const run = await branch('create', 'exp/ghost-1', '--parent', 'feature-login');
    expect(run.code).toBe(1);
    expect(run.err).toContain('feature-login');
    await expectNoTrace('exp-ghost-1', 'exp/ghost-1');
    // The pair without its database is an orphan; deleting it removes the git half.
    expect((await list()).find((p) => p.name === 'feature-login')?.orphan).toBe('database-missing');
    expect((await branch('delete', 'feature-login', '--yes')).code).toBe(0);
    expect(await project.gitBranches()).toEqual(['main']);
  }, 60_000);

  it('usage errors exit 2; a missing pair exits 1 naming it', async () => {
    expect((await branch()).code).toBe(2);
    expect((await branch('create')).code).toBe(2);
    expect((await branch('list', '--provider', 'oracle')).code).toBe(2);
    expect((await branch('list', '--parent', 'x')).code).toBe(2);
    expect((await branch('create', 'x', '--ttl-hours', '-1')).code).toBe(2);
    const missing = await branch('diff', 'no-such-pair');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('"no-such-pair"');
    const json = await branch('diff', 'no-such-pair', '--json');
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect((await branch('adopt', 'main')).code).toBe(2);
    const absent = await branch('adopt', 'crm-copy', '--as', 'main');
    expect(absent.code).toBe(1);
    expect(absent.err).toContain('There is no embedded database branch "crm-copy"');
    expect((await list()).find((p) => p.gitBranch === 'main')?.name).toBe('main');
  });
});

function expectNothingLeft(name: string, gitBranch: string): void {
  expect(existsSync(join(project.dataDir, 'worktrees', name)), `worktree of ${gitBranch}`).toBe(false);
}

async function expectNoTrace(name: string, gitBranch: string): Promise<void> {
  expectNothingLeft(name, gitBranch);
  expect(await project.gitBranches()).not.toContain(gitBranch);
  expect(await project.registry()).not.toContain(name);
  expect(await pgliteDatabases(project.dataDir)).not.toContain(name);
}

/**
 * Tier roots on a shared PostgreSQL server (BATON_TEST_PG_URL), through `baton branch`: two
 * projects named alike, both on `main`, keep separate prefixed roots and never see each other's
 * pairs; an existing database is adopted as the root (refused while pairs hang off the old one)
 * and new pairs fork its data; `branches.root` names a root Baton must not make; a registry that
 * already pairs `main` unprefixed keeps it and says so; a run's clean-up leaves other projects'
 * throwaway databases alone. Skips, saying why, without a server.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { projectPrefix } from '../branches/names';
import { adminDb, dropEverything, testPgUrl, withDb } from '../branches/postgres/postgres.fixture';
import { PostgresProvider } from '../branches/postgres/postgres-provider';
import { putEntry } from '../branches/registry';
import { removeLeftoverThrowaways } from '../engine/test-run';
import { baton, makeProject, type BatonRun, type TestProject } from './branch-project.fixture';

const adminUrl = await testPgUrl('electron/cli/branch-roots.test.ts');
const tag = randomBytes(3).toString('hex');
const legacy = `legacy${tag}_crm`;
const shared = `legacy${tag}_main`;
let base: string;
let one: TestProject;
let two: TestProject;
const prefixes: string[] = [];
const saved = {
  BATON_DATA_DIR: process.env.BATON_DATA_DIR,
  BATON_CONFIG_DIR: process.env.BATON_CONFIG_DIR,
  GIT_CEILING_DIRECTORIES: process.env.GIT_CEILING_DIRECTORIES,
  BATON_POSTGRES_URL: process.env.BATON_POSTGRES_URL,
};

const branch = (project: TestProject, ...args: string[]): Promise<BatonRun> =>
  baton('branch', ...args, '--project', project.root, '--provider', 'postgres', '--url', adminUrl!);

async function prefixOf(project: TestProject): Promise<string> {
  const settings = JSON.parse(await readFile(project.settingsFile, 'utf8')) as { name: string };
  return projectPrefix(settings.name, project.root);
}

interface Listed {
  pairs: { name: string; gitBranch: string | null; parent: string | null }[];
  warnings: string[];
}
async function listed(project: TestProject): Promise<Listed> {
  const run = await branch(project, 'list', '--json');
  expect(run.code, run.err).toBe(0);
  return JSON.parse(run.out) as Listed;
}

const admin = <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => withDb(adminUrl!, adminDb(adminUrl!), work);

describe.skipIf(adminUrl === null)('tier roots on a shared postgres server', () => {
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'baton-roots-'));
    process.env.BATON_DATA_DIR = join(base, 'data');
    process.env.BATON_CONFIG_DIR = join(base, 'config');
    process.env.GIT_CEILING_DIRECTORIES = base;
    delete process.env.BATON_POSTGRES_URL;
    one = await makeProject(join(base, 'one', 'shop'), join(base, 'data'));
    two = await makeProject(join(base, 'two', 'shop'), join(base, 'data'));
    for (const project of [one, two]) await project.editSettings((s) => (s.branches = { poolSize: 0 }));
    prefixes.push(await prefixOf(one), await prefixOf(two));
    await admin(async (client) => {
      await client.query(`create database ${pg.escapeIdentifier(legacy)}`);
    });
    await withDb(adminUrl!, legacy, (client) =>
      client.query(`create table customers (id int primary key, name text); insert into customers values (1, 'Ada')`),
    );
  }, 60_000);

  afterAll(async () => {
    for (const prefix of [...prefixes, `legacy${tag}`, `tmp-${tag}`]) await dropEverything(adminUrl!, prefix);
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await rm(base, { recursive: true, force: true });
  }, 120_000);

  it('gives two projects named alike their own prefixed roots, and neither lists the other’s pairs', async () => {
    const [prefixOne, prefixTwo] = prefixes as [string, string];
    expect(prefixOne).not.toBe(prefixTwo);
    const made: { name: string; parent: string }[] = [];
    for (const project of [one, two]) {
      const run = await branch(project, 'create', 'feature/cart', '--json');
      expect(run.code, run.err).toBe(0);
      made.push(JSON.parse(run.out) as { name: string; parent: string });
    }
    expect(made[0]).toMatchObject({ name: `${prefixOne}feature-cart`, parent: `${prefixOne}main` });
    expect(made[1]).toMatchObject({ name: `${prefixTwo}feature-cart`, parent: `${prefixTwo}main` });
    const names = (view: Listed) => view.pairs.map((p) => p.name).sort();
    expect(names(await listed(one))).toEqual([`${prefixOne}feature-cart`, `${prefixOne}main`]);
    expect(names(await listed(two))).toEqual([`${prefixTwo}feature-cart`, `${prefixTwo}main`]);
    expect((await listed(one)).warnings).toEqual([]);

    // A run's start removes what its killed predecessor left: this project's throwaways only.
    const provider = new PostgresProvider({ adminUrl: adminUrl!, poolSize: 0 });
    try {
      await provider.create(`tmp-${tag}a`, `${prefixOne}feature-cart`);
      await provider.create(`tmp-${tag}b`, `${prefixTwo}feature-cart`);
      const removed = await removeLeftoverThrowaways(provider, prefixOne);
      expect(removed).toContain(`tmp-${tag}a`);
      expect(removed).not.toContain(`tmp-${tag}b`);
      expect((await provider.list()).map((b) => b.name)).toContain(`tmp-${tag}b`);
      await provider.delete(`tmp-${tag}b`);
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('adopts an existing database as the root once no pair hangs off the old one, and new pairs fork its rows', async () => {
    const [prefixOne] = prefixes as [string];
    const refused = await branch(one, 'adopt', legacy, '--as', 'main');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('feature/cart');
    expect(refused.err).toContain('baton branch delete');
    expect((await listed(one)).pairs.find((p) => p.gitBranch === 'main')?.name).toBe(`${prefixOne}main`);

    const notTier = await branch(one, 'adopt', legacy, '--as', 'feature/cart');
    expect(notTier.code).not.toBe(0);
    expect(notTier.err).toContain('is not a tier');
    const missing = await branch(one, 'adopt', `${legacy}_nope`, '--as', 'main');
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain(`There is no database "${legacy}_nope"`);

    expect((await branch(one, 'delete', 'feature/cart', '--yes')).code).toBe(0);
    const adopted = await branch(one, 'adopt', legacy, '--as', 'main');
    expect(adopted.code, adopted.err).toBe(0);
    expect(adopted.out).toContain(`main now pairs with the database ${legacy}`);
    expect(adopted.out).toContain(`It paired with ${prefixOne}main before`);

    const created = await branch(one, 'create', 'feature/loyalty', '--json');
    expect(created.code, created.err).toBe(0);
    const pair = JSON.parse(created.out) as { name: string; parent: string };
    expect(pair.parent).toBe(legacy);
    const rows = await withDb(adminUrl!, pair.name, (client) => client.query<{ name: string }>('select name from customers'));
    expect(rows.rows.map((r) => r.name)).toEqual(['Ada']);
    const ledger = (await readFile(one.ledgerFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(ledger.find((r) => r.type === RECORD_TYPES.branchAdopted)?.data).toMatchObject({ name: legacy, gitBranch: 'main', replaced: `${prefixOne}main` });
    expect(JSON.stringify(ledger)).not.toContain(new URL(adminUrl!).password || '\0');
  }, 120_000);

  it('uses the root project.json names and refuses to make it when it does not exist', async () => {
    await two.editSettings((s) => (s.branches = { poolSize: 0, root: `${legacy}_named` }));
    try {
      const refused = await branch(two, 'create', 'feature/named', '--json');
      expect(refused.code).not.toBe(0);
      expect(refused.err).toContain(`There is no database "${legacy}_named"`);
      const exists = await admin((client) => client.query('select 1 from pg_database where datname = $1', [`${legacy}_named`]));
      expect(exists.rowCount).toBe(0);
    } finally {
      await two.editSettings((s) => (s.branches = { poolSize: 0 }));
    }
  }, 60_000);

  it('keeps an unprefixed root the registry already pairs with main, and warns that it may be shared', async () => {
    const three = await makeProject(join(base, 'three', 'shop'), join(base, 'data'));
    await three.editSettings((s) => (s.branches = { poolSize: 0 }));
    prefixes.push(await prefixOf(three));
    await putEntry(three.dataDir, {
      name: shared,
      gitBranch: 'main',
      parent: null,
      worktree: null,
      createdAt: new Date().toISOString(),
      ttlHours: null,
      masked: false,
    });
    const run = await branch(three, 'create', 'feature/old', '--json');
    expect(run.code, run.err).toBe(0);
    expect((JSON.parse(run.out) as { parent: string }).parent).toBe(shared);
    const view = await listed(three);
    expect(view.warnings.join(' ')).toContain(`"${shared}", a name without this project's prefix`);
    const text = await branch(three, 'list');
    expect(text.out).toContain('Tier roots');
  }, 120_000);
});

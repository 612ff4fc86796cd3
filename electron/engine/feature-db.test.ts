/**
 * A pair's database against its code's migrations, on a real git repository and PGlite: `baton
 * branch list --migrations` says current, code ahead, or database ahead (exit 1); before a run the
 * feature's database is migrated when its code is ahead (recorded) and the run is refused, saying
 * what to do, when the database is ahead of its code.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { openBranchService } from '../branches/service';
import type { BranchService } from '../branches/service-api';
import { baton, makeProject, pointBatonDirs, seedPgliteTemplate, stopPgliteServers, type TestProject } from '../cli/branch-project.fixture';
import { Ledger } from '../ledger';
import { readSettings } from '../project/read-settings';
import { featureBranch } from './deploy';
import { alignFeatureDatabase } from './feature-db';

let base: string;
let project: TestProject;
let branches: BranchService;
let ledger: Ledger;
let name: string;
let worktree: string;
let restoreDirs: () => void = () => undefined;

interface Listed {
  migrations: { name: string; migrations: { state: string; codeAhead: string[]; databaseAhead: string[] } }[];
}
async function listed(): Promise<{ code: number; view: Listed; out: string }> {
  const run = await baton('branch', 'list', '--migrations', '--json', '--project', project.root);
  const text = await baton('branch', 'list', '--migrations', '--project', project.root);
  return { code: run.code, view: JSON.parse(run.out) as Listed, out: text.out };
}
const stateOf = (view: Listed) => view.migrations.find((m) => m.name === name)!.migrations;

async function onFeatureDb(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: await branches.connectionUrl(name) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-feature-db-'));
  restoreDirs = pointBatonDirs(base);
  project = await makeProject(join(base, 'shop'), join(base, 'data'));
  await seedPgliteTemplate(project.dataDir);
  ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
  const read = await readSettings(join(project.root, '.baton'));
  if (!read.ok) throw new Error(read.error.message);
  branches = await openBranchService({ root: project.root, settings: read.value.settings, ledger, dataDir: project.dataDir });
  ({ name, worktree } = await branches.create(featureBranch('F-1'), { ttlHours: null }));
}, 120_000);

afterAll(async () => {
  restoreDirs();
  await branches?.close();
  await stopPgliteServers(project.dataDir);
  await rm(base, { recursive: true, force: true });
}, 60_000);

describe('migration state of a pair', () => {
  it('is current after create, code ahead with a new file, and the run’s start migrates it (recorded)', async () => {
    expect(stateOf((await listed()).view)).toMatchObject({ state: 'current' });
    await writeFile(join(worktree, 'migrations', '002_orders.sql'), 'create table orders (id int primary key);\n');
    const ahead = await listed();
    expect(ahead.code).toBe(0);
    expect(stateOf(ahead.view)).toMatchObject({ state: 'code-ahead', codeAhead: ['002_orders.sql'] });
    expect(ahead.out).toContain(`${name}: code ahead of the database: 002_orders.sql not applied`);

    await alignFeatureDatabase(project.root, branches, 'F-1', ledger);
    expect(stateOf((await listed()).view)).toMatchObject({ state: 'current' });
    const record = (await ledger.read()).records.filter((r) => r.type === RECORD_TYPES.branchMigrated).at(-1);
    expect(record?.data).toMatchObject({ name, gitBranch: featureBranch('F-1'), applied: ['002_orders.sql'], error: null });
  }, 120_000);

  it('is database ahead when a migration was applied that the code does not have: listed with exit 1, and a run refuses', async () => {
    await onFeatureDb(`insert into baton_migrations (version, sha256) values ('099_hand_made.sql', '${'0'.repeat(64)}')`);
    const ahead = await listed();
    expect(ahead.code).toBe(1);
    expect(stateOf(ahead.view)).toMatchObject({ state: 'database-ahead', databaseAhead: ['099_hand_made.sql'] });
    expect(ahead.out).toContain('database ahead of the code: 099_hand_made.sql applied but not in the code');
    await expect(alignFeatureDatabase(project.root, branches, 'F-1', ledger)).rejects.toThrow(`baton branch reset ${name} --yes`);
  }, 120_000);
});

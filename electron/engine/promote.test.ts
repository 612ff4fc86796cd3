/**
 * Promote on a real git repository, on PGlite and (with BATON_TEST_PG_URL) a PostgreSQL server:
 * the dry run says what would happen and changes nothing; a promotion whose migration fails leaves
 * `main` and the tier database as they were and records the rollback; fixed, it merges into `main`
 * (the checkout follows), migrates the tier database and records it; again, there is nothing to do.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { dropEverything, testPgUrl } from '../branches/postgres/postgres.fixture';
import { readRegistry } from '../branches/registry';
import { openBranchService } from '../branches/service';
import type { BranchService } from '../branches/service-api';
import { baton, makeProject, pointBatonDirs, publicTables, seedPgliteTemplate, stopPgliteServers, type TestProject } from '../cli/branch-project.fixture';
import { Ledger } from '../ledger';
import { readSettings } from '../project/read-settings';
import { featureBranch } from './deploy';
import { promoteFeature } from './promote';

const run = promisify(execFile);
const adminUrl = await testPgUrl('electron/engine/promote.test.ts');
const NOW = new Date('2026-12-05T07:00:00Z');
const PROVIDERS = [{ kind: 'pglite' as const }, ...(adminUrl ? [{ kind: 'postgres' as const }] : [])];

describe.each(PROVIDERS)('promote on $kind', ({ kind }) => {
  let base: string;
  let project: TestProject;
  let branches: BranchService;
  let ledger: Ledger;
  let worktree: string;
  let restoreDirs: () => void = () => undefined;
  const cli = (...args: string[]) => baton('promote', project.root, ...args, '--provider', kind, ...(kind === 'postgres' ? ['--url', adminUrl!] : []));
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-C', cwd, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args]).then(({ stdout }) => stdout.trim());

  const settings = async () => {
    const read = await readSettings(join(project.root, '.baton'));
    if (!read.ok) throw new Error(read.error.message);
    return read.value.settings;
  };
  const promote = async (dryRun = false) =>
    // One clock for every promotion: two in the same second must still get two snapshots.
    promoteFeature({
      root: project.root,
      settings: await settings(),
      feature: 'F-1',
      ledger,
      branches,
      dataDir: project.dataDir,
      hide: [],
      dryRun,
      now: () => NOW,
    });
  /** The tier database's tables (what a migration makes shows here). */
  const tierTables = async (): Promise<string[]> => publicTables(await branches.connectionUrl('main'));

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), `baton-promote-${kind}-`));
    restoreDirs = pointBatonDirs(base);
    project = await makeProject(join(base, 'shop'), join(base, 'data'));
    await mkdir(join(project.root, '.baton', 'features', 'F-1'), { recursive: true });
    await writeFile(
      join(project.root, '.baton', 'features', 'F-1', 'feature.json'),
      JSON.stringify({ id: 'F-1', name: 'Orders', description: 'Orders of items.' }),
    );
    await project.editSettings((s) => (s.branches = { poolSize: 0 }));
    if (kind === 'pglite') await seedPgliteTemplate(project.dataDir);
    ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
    branches = await openBranchService({
      root: project.root,
      settings: await settings(),
      ledger,
      dataDir: project.dataDir,
      provider: kind,
      ...(kind === 'postgres' ? { postgresUrl: adminUrl! } : {}),
    });
    worktree = (await branches.create(featureBranch('F-1'), { ttlHours: null })).worktree;
    await writeFile(join(worktree, 'migrations', '002_orders.sql'), 'create table orders (id int primary key, item int not null references items(id));\n');
    await writeFile(join(worktree, 'migrations', '003_broken.sql'), 'alter table no_such_table add column qty int;\n');
    await git(worktree, 'add', 'migrations');
    await git(worktree, 'commit', '-q', '-m', 'orders, and a broken migration');
  }, 120_000);

  afterAll(async () => {
    restoreDirs();
    await branches?.close();
    if (kind === 'pglite') await stopPgliteServers(project.dataDir);
    else await dropEverything(adminUrl!, branches.prefix);
    await rm(base, { recursive: true, force: true });
  }, 120_000);

  it('--dry-run says exactly what would happen and changes nothing', async () => {
    const mainBefore = await git(project.root, 'rev-parse', 'main');
    const { plan, outcome } = await promote(true);
    expect(outcome).toBe('planned');
    expect(plan).toMatchObject({
      tier: 'main',
      tierCommit: mainBefore,
      refusal: null,
      checkoutOnTier: true,
      migrations: { tool: 'sql', pending: ['001_items.sql', '002_orders.sql', '003_broken.sql'] },
    });
    expect(plan.steps.join('\n')).toContain(`snapshot the main database ${plan.tierDatabase} as ${plan.snapshot.database}`);
    expect(await git(project.root, 'rev-parse', 'main')).toBe(mainBefore);
    expect((await readRegistry(project.dataDir)).map((e) => e.name)).not.toContain(plan.snapshot.database);

    const featurePair = async () => (await branches.list()).pairs.find((p) => p.gitBranch === featureBranch('F-1'));
    expect(await featurePair()).toMatchObject({ merged: false });

    const printed = await cli('--dry-run');
    expect(printed.code, printed.err).toBe(0);
    expect(printed.out).toContain('Promoting F-1 (local merge) would:');
    expect(printed.out).toContain(`1. snapshot the main database ${plan.tierDatabase}`);
    expect(printed.out).toContain('001_items.sql, 002_orders.sql, 003_broken.sql');
    expect(printed.out).toContain('Nothing was changed.');
    expect(await git(project.root, 'rev-parse', 'main')).toBe(mainBefore);
  }, 60_000);

  it('rolls back a promotion whose migration fails: main unchanged, the tier database restored, the rollback recorded', async () => {
    const mainBefore = await git(project.root, 'rev-parse', 'main');
    // Baton never migrates a tier outside a promotion: the root it made is empty.
    expect(await tierTables()).toEqual([]);
    const result = await promote();
    expect(result.outcome).toBe('rolled-back');
    expect(result.error).toContain('no_such_table');
    expect(await git(project.root, 'rev-parse', 'main')).toBe(mainBefore);
    expect(existsSync(join(project.root, 'migrations', '002_orders.sql'))).toBe(false);
    // 001 and 002 were applied before 003 failed: the restore from the snapshot took them away again.
    expect(await tierTables()).toEqual([]);
    const record = (await ledger.read()).records.find((r) => r.hash === result.record)!;
    expect(record.type).toBe(RECORD_TYPES.promoteRolledBack);
    expect(record.data).toMatchObject({
      failedAt: 'migrating the tier database',
      mergeUndone: true,
      databaseRestored: true,
      snapshot: result.plan.snapshot.database,
    });
    // The snapshot is kept, as a pair gc collects after its time.
    expect((await readRegistry(project.dataDir)).find((e) => e.name === result.plan.snapshot.database)).toMatchObject({
      ttlHours: 168,
      parent: result.plan.tierDatabase,
    });
  }, 120_000);

  it('fixed, merges into main (the checkout follows), migrates the tier database and records it; then has nothing to do', async () => {
    await git(worktree, 'rm', '-q', 'migrations/003_broken.sql');
    await git(worktree, 'commit', '-q', '-m', 'drop the broken migration');
    const result = await promote();
    expect(result.error).toBeNull();
    expect(result.outcome).toBe('promoted');
    expect(result.applied).toEqual(['001_items.sql', '002_orders.sql']);
    expect(await git(project.root, 'rev-parse', 'main')).toBe(result.mergeCommit);
    expect((await git(project.root, 'log', '-1', '--format=%P', 'main')).split(' ')).toEqual([result.plan.tierCommit, result.plan.featureCommit]);
    expect(existsSync(join(project.root, 'migrations', '002_orders.sql'))).toBe(true);
    expect(await tierTables()).toEqual(['baton_migrations', 'items', 'orders']);
    expect((await branches.list()).pairs.find((p) => p.gitBranch === featureBranch('F-1'))).toMatchObject({ merged: true });
    const record = (await ledger.read()).records.find((r) => r.hash === result.record)!;
    expect(record.type).toBe(RECORD_TYPES.promoteDone);
    expect(record.data).toMatchObject({ feature: 'F-1', tier: 'main', mergeCommit: result.mergeCommit, applied: ['001_items.sql', '002_orders.sql'] });
    expect(result.plan.snapshot.gitBranch).toBe('baton/snapshots/main-20261205t070000-2');
    // `baton verify` (what CI runs) holds the code to what the tier database has applied, offline.
    expect((await baton('verify', project.root)).code).toBe(0);
    await rm(join(project.root, 'migrations', '002_orders.sql'));
    const gone = await baton('verify', project.root);
    expect(gone.code).toBe(1);
    expect(gone.out + gone.err).toContain('applied 002_orders.sql to the main database, but the code has no such file: the database is ahead of the code');
    await writeFile(join(project.root, 'migrations', '002_orders.sql'), 'create table orders (id bigint primary key);\n');
    expect((await baton('verify', project.root)).out).toContain('the file has changed since');
    await git(project.root, 'checkout', '--', 'migrations/002_orders.sql');
    expect((await baton('verify', project.root)).code).toBe(0);

    // The merge commit is anchored to the promotion's intent (the newest record then): a ledger cut
    // before it, which drops every approval and deploy since, no longer passes plain `verify`.
    const records = (await ledger.read()).records;
    const intent = records.filter((r) => r.type === RECORD_TYPES.promoteStarted).at(-1)!;
    expect(await git(project.root, 'log', '-1', '--format=%(trailers:key=Baton-Evidence,valueonly)', 'main')).toBe(intent.hash);
    const events = join(project.root, '.baton', 'ledger', 'events.jsonl');
    const whole = await readFile(events, 'utf8');
    await writeFile(
      events,
      whole
        .split('\n')
        .slice(0, intent.seq - 1)
        .map((line) => `${line}\n`)
        .join(''),
    );
    const cut = await baton('verify', project.root);
    expect(cut.code).toBe(1);
    expect(cut.out).toContain(`names evidence record ${intent.hash.slice(0, 12)}`);
    await writeFile(events, whole);

    const again = await promote(true);
    expect(again.plan.refusal).toContain('already in main');
    await expect(promote()).rejects.toThrow(/nothing to promote/);
    const refused = await cli();
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('there is nothing to promote');
  }, 120_000);
});

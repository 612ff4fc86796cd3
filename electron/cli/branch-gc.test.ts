/**
 * `baton branch gc` on real pglite branches and a real git repository: it removes orphans (either
 * half missing) and expired pairs, never a tier or a pair held by a live lease, and `--dry-run`
 * (or no `--yes`) removes nothing. Half-made database folders and old work folders that killed
 * runs left are collected too.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GcReport } from '../../shared/branches';
import { acquireLease } from '../branches/leases';
import { PgliteProvider } from '../branches/pglite/pglite-provider';
import { baton, git, makePairDirectly, makeProject, pgliteDatabases, seedPgliteTemplate, stopPgliteServers, type TestProject } from './branch-project.fixture';

let base: string;
let project: TestProject;
let releaseLease: (() => Promise<void>) | null = null;
const saved = {
  BATON_DATA_DIR: process.env.BATON_DATA_DIR,
  BATON_CONFIG_DIR: process.env.BATON_CONFIG_DIR,
  GIT_CEILING_DIRECTORIES: process.env.GIT_CEILING_DIRECTORIES,
};

const branch = (...args: string[]) => baton('branch', ...args, '--project', project.root);
const names = (entries: readonly { name: string; reason: string }[]) => entries.map((e) => `${e.name}:${e.reason}`).sort();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-branch-gc-'));
  process.env.BATON_DATA_DIR = join(base, 'data');
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  process.env.GIT_CEILING_DIRECTORIES = base;
  project = await makeProject(join(base, 'shop'), join(base, 'data'));
  await project.editSettings((s) => (s.branches = { poolSize: 0 }));
  await seedPgliteTemplate(project.dataDir);

  // The pairs are made from their parts (not served): what is under test is gc.
  await makePairDirectly(project, 'exp/old', { ttlHours: 0.0001 });
  await makePairDirectly(project, 'exp/busy', { ttlHours: 0.0001 });
  await makePairDirectly(project, 'feature/orphan');
  await makePairDirectly(project, 'feature/dbgone');
  await makePairDirectly(project, 'staging');
  releaseLease = await acquireLease(project.dataDir, 'exp-busy', 'test cycle');
  // Orphans made by hand: git halves removed behind Baton's back, and one database dropped.
  for (const [name, gitBranch] of [
    ['feature-orphan', 'feature/orphan'],
    ['staging', 'staging'],
  ]) {
    await git('git', ['-C', project.root, 'worktree', 'remove', '--force', join(project.dataDir, 'worktrees', name!)]);
    await git('git', ['-C', project.root, 'branch', '-D', gitBranch!]);
  }
  const provider = new PgliteProvider({ dataDir: project.dataDir, poolSize: 0 });
  await provider.delete('feature-dbgone');
  await provider.close();
  // What killed runs leave: a branch folder whose creator died half-way, and an old work folder.
  const dead = spawnSync('true').pid!;
  await mkdir(join(halfMade(), 'data'), { recursive: true });
  await writeFile(join(halfMade(), 'creating.json'), JSON.stringify({ pid: dead, parent: 'main' }));
  await mkdir(oldStaging(), { recursive: true });
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  await utimes(oldStaging(), twoHoursAgo, twoHoursAgo);
  await new Promise((resolve) => setTimeout(resolve, 500)); // past the 0.36 s time-to-live
}, 120_000);

afterAll(async () => {
  await releaseLease?.();
  if (project) await stopPgliteServers(project.dataDir);
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(base, { recursive: true, force: true });
}, 30_000);

const EXPECTED_REMOVED = ['exp-old:expired', 'feature-dbgone:database-missing', 'feature-orphan:git-missing'];
const EXPECTED_KEPT = ['exp-busy:active', 'staging:tier'];
const EXPECTED_LEFTOVERS = ['staging/reset-x-0badf00d', 'tmp-deadbeef00 (half-made)'];
const halfMade = () => join(project.dataDir, 'pglite', 'branches', 'tmp-deadbeef00');
const oldStaging = () => join(project.dataDir, 'pglite', 'staging', 'reset-x-0badf00d');

describe('baton branch gc', () => {
  it('--dry-run lists what it would remove and what it keeps, and removes nothing', async () => {
    const before = { dbs: await pgliteDatabases(project.dataDir), registry: await project.registry(), git: await project.gitBranches() };
    const run = await branch('gc', '--dry-run', '--json');
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out) as GcReport;
    expect(report.dryRun).toBe(true);
    expect(names(report.removed)).toEqual(EXPECTED_REMOVED);
    expect(names(report.kept)).toEqual(EXPECTED_KEPT);
    expect(report.leftovers).toEqual(EXPECTED_LEFTOVERS);

    const unconfirmed = await branch('gc');
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.out).toContain('Would remove 3 branch pairs');
    expect(unconfirmed.err).toContain('--yes');
    expect({ dbs: await pgliteDatabases(project.dataDir), registry: await project.registry(), git: await project.gitBranches() }).toEqual(before);
    expect(existsSync(halfMade())).toBe(true);
  }, 60_000);

  it('a leased pair cannot be deleted either', async () => {
    const run = await branch('delete', 'exp-busy', '--yes');
    expect(run.code).toBe(1);
    expect(run.err).toContain('in use');
  });

  it('--yes removes orphans and expired pairs, never the tier or the active pair', async () => {
    const run = await branch('gc', '--yes', '--json');
    expect(run.code, run.err).toBe(0);
    const report = JSON.parse(run.out) as GcReport;
    expect(names(report.removed)).toEqual(EXPECTED_REMOVED);
    expect(names(report.kept)).toEqual(EXPECTED_KEPT);

    const dbs = await pgliteDatabases(project.dataDir);
    expect(dbs).toEqual(expect.arrayContaining(['main', 'exp-busy', 'staging']));
    expect(dbs).not.toContain('exp-old');
    expect(dbs).not.toContain('feature-orphan');
    expect((await project.registry()).sort()).toEqual(['exp-busy', 'main', 'staging']);
    const gitBranches = await project.gitBranches();
    expect(gitBranches).toEqual(expect.arrayContaining(['main', 'exp/busy']));
    expect(gitBranches).not.toContain('exp/old');
    expect(gitBranches).not.toContain('feature/dbgone');
    expect(existsSync(join(project.dataDir, 'worktrees', 'exp-old'))).toBe(false);
    expect(existsSync(join(project.dataDir, 'worktrees', 'feature-dbgone'))).toBe(false);
    expect(existsSync(join(project.dataDir, 'worktrees', 'exp-busy'))).toBe(true);
    expect(await readFile(project.ledgerFile, 'utf8')).toContain('"type":"branch.collected"');
    expect(report.leftovers).toEqual(EXPECTED_LEFTOVERS);
    expect(existsSync(halfMade())).toBe(false);
    expect(existsSync(oldStaging())).toBe(false);
  }, 60_000);

  it('once the lease is released, the expired pair is collected', async () => {
    await releaseLease?.();
    releaseLease = null;
    const run = await branch('gc', '--yes', '--json');
    expect(run.code, run.err).toBe(0);
    expect(names((JSON.parse(run.out) as GcReport).removed)).toEqual(['exp-busy:expired']);
  }, 60_000);
});

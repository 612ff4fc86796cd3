/**
 * Promote through a pull request, on a real git repository with a bare `origin` and PGlite, with a
 * stand-in for GitHub's `gh` (electron/engine/fixtures/fake-gh.mjs: gh's documented output shapes;
 * no network here). Checks that fail roll back with nothing merged and the pull request left open;
 * checks that pass merge it (a merge commit on the remote), main follows the remote and the tier
 * database is migrated. `promote.via: "pull-request"` without gh is refused, saying what is missing.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { openBranchService } from '../branches/service';
import type { BranchService } from '../branches/service-api';
import { makeProject, pointBatonDirs, seedPgliteTemplate, stopPgliteServers, type TestProject } from '../cli/branch-project.fixture';
import { Ledger } from '../ledger';
import { readSettings } from '../project/read-settings';
import { featureBranch } from './deploy';
import { planPromote, promoteFeature } from './promote';

const run = promisify(execFile);
const FAKE_GH = resolve(import.meta.dirname, 'fixtures', 'fake-gh.mjs');

describe('promote through a pull request (gh stand-in, real git and PGlite)', () => {
  let base: string;
  let project: TestProject;
  let remote: string;
  let branches: BranchService;
  let ledger: Ledger;
  let restoreDirs: () => void = () => undefined;
  const saved = { PATH: process.env.PATH, FAKE_GH_STATE: process.env.FAKE_GH_STATE, FAKE_GH_CHECKS: process.env.FAKE_GH_CHECKS };
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-C', cwd, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args]).then(({ stdout }) => stdout.trim());
  const settings = async () => {
    const read = await readSettings(join(project.root, '.baton'));
    if (!read.ok) throw new Error(read.error.message);
    return read.value.settings;
  };
  const request = async () => ({ root: project.root, settings: await settings(), feature: 'F-1', ledger, branches, dataDir: project.dataDir, hide: [] });
  const tierTables = async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: await branches.connectionUrl('main') });
    await client.connect();
    try {
      return (await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`)).rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'baton-promote-pr-'));
    restoreDirs = pointBatonDirs(base);
    const bin = join(base, 'bin');
    await mkdir(bin);
    await symlink(FAKE_GH, join(bin, 'gh'));
    process.env.PATH = `${bin}:${process.env.PATH}`;
    process.env.FAKE_GH_STATE = base;
    project = await makeProject(join(base, 'shop'), join(base, 'data'));
    await mkdir(join(project.root, '.baton', 'features', 'F-1'), { recursive: true });
    await writeFile(join(project.root, '.baton', 'features', 'F-1', 'feature.json'), JSON.stringify({ id: 'F-1', name: 'Orders', description: 'Orders.' }));
    await project.editSettings((s) => (s.branches = { poolSize: 0 }));
    await seedPgliteTemplate(project.dataDir);
    remote = join(base, 'remote.git');
    await run('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    await git(project.root, 'remote', 'add', 'origin', remote);
    await git(project.root, 'push', '-q', 'origin', 'main');
    ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
    branches = await openBranchService({ root: project.root, settings: await settings(), ledger, dataDir: project.dataDir, provider: 'pglite' });
    const worktree = (await branches.create(featureBranch('F-1'), { ttlHours: null })).worktree;
    await writeFile(join(worktree, 'migrations', '002_orders.sql'), 'create table orders (id int primary key, item int not null references items(id));\n');
    await git(worktree, 'add', 'migrations');
    await git(worktree, 'commit', '-q', '-m', 'orders');
  }, 120_000);

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    restoreDirs();
    await branches?.close();
    await stopPgliteServers(project.dataDir);
    await rm(base, { recursive: true, force: true });
  }, 120_000);

  it('plans a pull request when gh and a remote are there', async () => {
    const plan = await planPromote(await request());
    expect(plan).toMatchObject({ mode: 'pull-request', remote: 'origin', refusal: null });
    expect(plan.steps.join('\n')).toContain('push baton/f-1 to origin and open a pull request into main');
    expect(plan.steps.join('\n')).toContain('leave the pull request unmerged');
  }, 60_000);

  it('rolls back when the checks fail: nothing merged here or on the remote, the pull request left open', async () => {
    process.env.FAKE_GH_CHECKS = 'fail';
    const mainBefore = await git(project.root, 'rev-parse', 'main');
    const result = await promoteFeature({ ...(await request()), now: () => new Date('2026-12-05T10:00:00Z') });
    expect(result.outcome).toBe('rolled-back');
    expect(result.error).toContain('did not pass');
    expect(await git(project.root, 'rev-parse', 'main')).toBe(mainBefore);
    expect(await git(remote, 'rev-parse', 'main')).toBe(mainBefore);
    expect(await tierTables()).toEqual([]);
    const record = (await ledger.read()).records.find((r) => r.hash === result.record)!;
    expect(record.data).toMatchObject({
      failedAt: 'waiting for the pull request checks',
      pullRequest: 'https://github.com/acme/shop/pull/1',
      databaseRestored: true,
    });
    const prs = JSON.parse(await readFile(join(base, 'prs.json'), 'utf8')) as { state: string; head: string }[];
    expect(prs).toEqual([expect.objectContaining({ head: 'baton/f-1', state: 'OPEN' })]);
  }, 120_000);

  it('merges the pull request once its checks pass: main follows the remote, the tier database is migrated', async () => {
    process.env.FAKE_GH_CHECKS = 'pass';
    const result = await promoteFeature({ ...(await request()), now: () => new Date('2026-12-05T10:05:00Z') });
    expect(result.error).toBeNull();
    expect(result.outcome).toBe('promoted');
    const remoteMain = await git(remote, 'rev-parse', 'main');
    expect(result.mergeCommit).toBe(remoteMain);
    expect(await git(project.root, 'rev-parse', 'main')).toBe(remoteMain);
    expect(await git(project.root, 'log', '-1', '--format=%s', 'main')).toBe('Merge pull request #1 from acme/baton/f-1');
    expect(await tierTables()).toEqual(['baton_migrations', 'items', 'orders']);
    const record = (await ledger.read()).records.find((r) => r.hash === result.record)!;
    expect(record.type).toBe(RECORD_TYPES.promoteDone);
    expect(record.data).toMatchObject({ pullRequest: 'https://github.com/acme/shop/pull/1', checks: 'passed', mergeCommit: remoteMain });
    // The open pull request was reused, not opened twice.
    const calls = await readFile(join(base, 'calls.log'), 'utf8');
    expect(calls.match(/^pr create/gm)).toHaveLength(1);
  }, 120_000);

  it('refuses promote.via "pull-request" without gh, saying what is missing', async () => {
    await project.editSettings((s) => (s.promote = { via: 'pull-request' }));
    process.env.PATH = saved.PATH;
    await expect(planPromote(await request())).rejects.toThrow(/promote\.via is "pull-request" but `gh` \(GitHub CLI\) is not installed/);
  }, 60_000);
});

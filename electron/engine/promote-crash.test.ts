/**
 * Promote killed at every step (issue 32): `baton promote` is SIGKILLed (BATON_FAILPOINT) after its
 * intent is recorded, after the snapshot, after the merge moved `main`, after the migration, and
 * before `promote.done`; the next `baton promote` finds the interrupted promotion, rolls it back
 * (`main` back, the tier database restored from the snapshot, `promote.rolledback` "interrupted"
 * naming the intent) and then promotes: `main`, the tier database and the ledger agree, and
 * `baton verify` passes. A tier someone else moved after the interruption is never reset: the
 * recovery stops and says what to check. On the embedded database (promote.test.ts covers PostgreSQL's promote).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { openBranchService } from '../branches/service';
import type { BranchService } from '../branches/service-api';
import { baton, makeProject, pointBatonDirs, publicTables, seedPgliteTemplate, stopPgliteServers, type TestProject } from '../cli/branch-project.fixture';
import { Ledger } from '../ledger';
import { readSettings } from '../project/read-settings';
import { featureBranch } from './deploy';
import { openPromoteIntent } from './promote-recover';

const run = promisify(execFile);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');
const KILL_POINTS = ['promote:started', 'promote:snapshot', 'promote:merged', 'promote:migrated', 'promote:verified'] as const;

describe('promote killed at every step', () => {
  let base: string;
  let project: TestProject;
  let branches: BranchService;
  let ledger: Ledger;
  let worktree: string;
  let restoreDirs: () => void = () => undefined;
  const git = (cwd: string, ...args: string[]) =>
    run('git', ['-C', cwd, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args]).then(({ stdout }) => stdout.trim());

  /** `baton promote` as its own process, killed at `point`. */
  const killedPromote = (point: string) =>
    run(process.execPath, [BIN, 'promote', project.root, '--provider', 'pglite'], {
      env: { ...process.env, BATON_FAILPOINT: point, BATON_DATA_DIR: join(base, 'data'), BATON_CONFIG_DIR: join(base, 'config') },
    }).then(
      () => ({ signal: null as string | null, stderr: '' }),
      (error: { signal?: string; stderr?: string }) => ({ signal: error.signal ?? null, stderr: error.stderr ?? '' }),
    );

  /** The tier database's tables (what a migration makes shows here). */
  const tierTables = async (): Promise<string[]> => publicTables(await branches.connectionUrl('main'));

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'baton-promote-crash-'));
    restoreDirs = pointBatonDirs(base);
    project = await makeProject(join(base, 'shop'), join(base, 'data'));
    await mkdir(join(project.root, '.baton', 'features', 'F-1'), { recursive: true });
    await writeFile(join(project.root, '.baton', 'features', 'F-1', 'feature.json'), JSON.stringify({ id: 'F-1', name: 'Orders', description: 'Orders.' }));
    await project.editSettings((s) => (s.branches = { poolSize: 0 }));
    await git(project.root, 'commit', '-q', '-am', 'no pool');
    await seedPgliteTemplate(project.dataDir);
    ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
    const read = await readSettings(join(project.root, '.baton'));
    if (!read.ok) throw new Error(read.error.message);
    branches = await openBranchService({ root: project.root, settings: read.value.settings, ledger, dataDir: project.dataDir, provider: 'pglite' });
    worktree = (await branches.create(featureBranch('F-1'), { ttlHours: null })).worktree;
  }, 120_000);

  afterAll(async () => {
    restoreDirs();
    await branches?.close();
    await stopPgliteServers(project.dataDir);
    await rm(base, { recursive: true, force: true });
  }, 120_000);

  for (const [i, point] of KILL_POINTS.entries()) {
    it(`killed at ${point}: the next promote rolls it back, then promotes; main, the tier database and the ledger agree`, async () => {
      const table = `t${i}`;
      await writeFile(join(worktree, 'migrations', `${String(i + 2).padStart(3, '0')}_${table}.sql`), `create table ${table} (id int primary key);\n`);
      await git(worktree, 'add', 'migrations');
      await git(worktree, 'commit', '-q', '-m', `table ${table}`);
      const mainBefore = await git(project.root, 'rev-parse', 'main');
      const featureCommit = await git(project.root, 'rev-parse', featureBranch('F-1'));

      const killed = await killedPromote(point);
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const intent = openPromoteIntent((await ledger.read()).records, 'F-1');
      expect(intent?.data).toMatchObject({ tier: 'main', tierCommit: mainBefore, featureCommit });
      if (point === 'promote:merged' || point === 'promote:migrated' || point === 'promote:verified') {
        expect(await git(project.root, 'rev-parse', 'main')).not.toBe(mainBefore);
      }

      const status = await baton('status', project.root);
      expect(status.out, status.err).toContain(`Promote interrupted: a promotion stopped midway (promote.started #${intent!.seq})`);

      const again = await baton('promote', project.root, '--provider', 'pglite');
      expect(again.code, `${again.out}\n${again.err}`).toBe(0);
      expect(again.out).toContain(`Baton stopped during this promotion (promote.started #${intent!.seq})`);
      expect(again.out).toContain('Promoted F-1');

      // main holds one Baton merge of the feature onto where main was.
      const head = await git(project.root, 'rev-parse', 'main');
      expect((await git(project.root, 'rev-list', '--parents', '-n', '1', head)).split(' ').slice(1)).toEqual([mainBefore, featureCommit]);
      // The main checkout is on main and follows it (the ledger file in it grows, as always).
      expect(await git(project.root, 'rev-parse', 'HEAD')).toBe(head);
      expect(await git(project.root, 'status', '--porcelain', '--untracked-files=no', '--', '.', ':!.baton/ledger')).toBe('');
      // The ledger: the interrupted intent ended by its rollback, then a whole promotion.
      const records = (await ledger.read()).records.filter((r) => r.seq > intent!.seq);
      const rolledBack = recordsOf(records, RECORD_TYPES.promoteRolledBack);
      expect(rolledBack.map((r) => [r.data.failedAt, r.data.mergeUndone, r.data.databaseRestored, r.data.intent])).toEqual([
        ['interrupted', true, true, intent!.hash],
      ]);
      expect(recordsOf(records, RECORD_TYPES.promoteStarted)).toHaveLength(1);
      const done = recordsOf(records, RECORD_TYPES.promoteDone);
      // This feature commit's migration applied once, last (the first promotion also brings the tier's first migration).
      expect(done.map((r) => [r.data.mergeCommit, r.data.applied.at(-1)])).toEqual([[head, `${String(i + 2).padStart(3, '0')}_${table}.sql`]]);
      expect(openPromoteIntent((await ledger.read()).records, 'F-1')).toBeNull();
      // The tier database has the table once (restored, then migrated again; a second create would have failed).
      expect(await tierTables()).toContain(table);
      const verify = await baton('verify', project.root);
      expect(verify.code, verify.out).toBe(0);
    }, 120_000);
  }

  it('a tier someone moved after the interruption is left alone: the recovery stops and says what to check', async () => {
    await writeFile(join(worktree, 'migrations', '099_late.sql'), 'create table late (id int primary key);\n');
    await git(worktree, 'add', 'migrations');
    await git(worktree, 'commit', '-q', '-m', 'late table');
    expect((await killedPromote('promote:merged')).signal).toBe('SIGKILL');
    const intent = openPromoteIntent((await ledger.read()).records, 'F-1')!;
    await writeFile(join(project.root, 'NOTES.md'), 'a colleague’s commit on main\n');
    await git(project.root, 'add', 'NOTES.md');
    await git(project.root, 'commit', '-q', '-m', 'notes');
    const moved = await git(project.root, 'rev-parse', 'main');

    const again = await baton('promote', project.root, '--provider', 'pglite');
    expect(again.code).toBe(1);
    expect(`${again.out}${again.err}`).toContain(`main has moved since to ${moved.slice(0, 12)}, which is not Baton's merge`);
    expect(await git(project.root, 'rev-parse', 'main')).toBe(moved);
    expect(openPromoteIntent((await ledger.read()).records, 'F-1')?.hash).toBe(intent.hash);
  }, 120_000);
});

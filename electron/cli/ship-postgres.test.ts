/**
 * The whole path on a local PostgreSQL server (BATON_TEST_PG_URL), through the CLI as a tech lead
 * runs it: the demo project set to the `postgres` provider is built to acceptance (each story on
 * its own experiment pair), its stories accepted (merged into the feature branch), deployed by the
 * orchestrator, its deploy gate approved, and promoted to `main` with the tier database migrated.
 * Skips, saying why, without a server.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { dropEverything, testPgUrl, withDb } from '../branches/postgres/postgres.fixture';
import { DEMO_APPROVER } from '../core/project-tools';
import { Ledger } from '../ledger';

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');
const adminUrl = await testPgUrl('electron/cli/ship-postgres.test.ts');
const prefix = `t${randomBytes(3).toString('hex')}_ship_`;

describe.skipIf(adminUrl === null)('from the approved test list to main on a PostgreSQL server', () => {
  let base: string;
  let project: string;
  const env = () => ({ ...process.env, BATON_DATA_DIR: join(base, 'data'), BATON_CONFIG_DIR: join(base, 'config') });
  const baton = async (...args: string[]) => {
    try {
      const { stdout } = await exec(process.execPath, [BIN, ...args], { env: env(), maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, out: stdout };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? 1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  };
  const run = async (until: string) => {
    const result = await baton('run', project, '--until', until, '--provider', 'postgres', '--url', adminUrl!, '--json');
    return JSON.parse(result.out) as { phase: string; escalations: unknown[] };
  };
  const approve = async (gate: string, story?: string) => {
    const result = await baton(
      'approve',
      project,
      '--feature',
      'F-inventory',
      '--gate',
      gate,
      ...(story ? ['--story', story] : []),
      '--yes',
      '--approver',
      DEMO_APPROVER,
      '--json',
    );
    expect(result.code, result.out).toBe(0);
  };

  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'baton-ship-pg-'));
    const prepared = await baton('demo', '--no-run', '--no-mutation', '--json');
    expect(prepared.code, prepared.out).toBe(0);
    project = (JSON.parse(prepared.out) as { project: string }).project;
    const file = join(project, '.baton', 'project.json');
    const settings = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    settings['branchProvider'] = 'postgres';
    settings['branches'] = { ...(settings['branches'] as object | undefined), prefix, poolSize: 0 };
    await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
    // project.json is Baton's, not the feature's: the change is committed as a person would.
    await exec('git', ['-C', project, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-am', 'use the postgres server']);
  }, 120_000);

  afterAll(async () => {
    if (adminUrl) await dropEverything(adminUrl, prefix);
    if (project) await rm(dirname(project), { recursive: true, force: true });
    if (base) await rm(base, { recursive: true, force: true });
  }, 120_000);

  it('builds, accepts, deploys and promotes: main is Baton merge commit and its database has both migrations', async () => {
    const built = await run('acceptance');
    expect(built).toMatchObject({ phase: 'acceptance', escalations: [] });
    await approve('acceptance', 'S-1');
    await approve('acceptance', 'S-2');
    expect((await run('deploy')).phase).toBe('deployGate');
    await approve('deploy');
    // The deploy gate's approval does not promote: the promote gate says "may promote".
    expect((await run('promote')).phase).toBe('promoteGate');
    expect(recordsOf((await Ledger.forArtifactRoot(join(project, '.baton')).read()).records, RECORD_TYPES.promoteDone)).toEqual([]);
    await approve('promote');
    expect((await run('done')).phase).toBe('done');

    const records = (await Ledger.forArtifactRoot(join(project, '.baton')).read()).records;
    expect(recordsOf(records, RECORD_TYPES.storyMerged).map((r) => r.data.story)).toEqual(['S-1', 'S-2']);
    const created = recordsOf(records, RECORD_TYPES.branchCreated).map((r) => [r.data.gitBranch, r.data.provider]);
    expect(created).toContainEqual(['baton/f-inventory--s-1', 'postgres']);
    const deployed = recordsOf(records, RECORD_TYPES.deployRan);
    expect(deployed.map((r) => [r.data.healthy, r.data.verifyPassed])).toEqual([[true, true]]);
    const [promoted] = recordsOf(records, RECORD_TYPES.promoteDone);
    expect(promoted?.data.applied).toEqual(['001_products.sql', '002_reorder_level.sql']);
    const { stdout } = await exec('git', ['-C', project, 'log', '-1', '--format=%H', 'main']);
    expect(stdout.trim()).toBe(promoted!.data.mergeCommit);
    // The tier database on the server: the project's prefixed main, migrated by the promotion.
    const column = await withDb(adminUrl!, `${prefix}main`, (client) =>
      client.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_name = 'products' and column_name = 'reorder_level'`,
      ),
    );
    expect(column.rows).toEqual([{ column_name: 'reorder_level' }]);
    const verify = await baton('verify', project, '--json');
    expect((JSON.parse(verify.out) as { ok: boolean }).ok).toBe(true);
  }, 1_500_000);
});

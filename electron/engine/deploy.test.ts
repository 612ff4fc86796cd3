/**
 * The orchestrator's deploy on a real git repository and PGlite: the feature branch's committed
 * app is started on a migrated throwaway database, answers its health check, is verified and
 * stopped; the evidence Baton writes passes the deploy gate's schema and is recorded with the
 * outputs as blobs. A failing verify and an app that never gets healthy are evidence of failure.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployEvidenceProblem } from '../../shared/deploy-evidence';
import { RECORD_TYPES } from '../../shared/records';
import { openBranchService } from '../branches/service';
import type { BranchService } from '../branches/service-api';
import { baton, makeProject, pointBatonDirs, seedPgliteTemplate, stopPgliteServers, type TestProject } from '../cli/branch-project.fixture';
import { Ledger } from '../ledger';
import { readSettings } from '../project/read-settings';
import { deployFeature, featureBranch } from './deploy';

const run = promisify(execFile);
const BATON_ROOT = resolve(import.meta.dirname, '..', '..');

/** Answers /health with 200 once the migrated `items` table is there; /items lists it. HEALTH_STATUS forces another status. */
const SERVER = `
const http = require('node:http');
const { Client } = require('pg');
const server = http.createServer(async (req, res) => {
  const db = new Client({ connectionString: process.env.DATABASE_URL });
  try {
    await db.connect();
    const { rows } = await db.query('select count(*)::int as n from items');
    res.writeHead(req.url === '/health' ? Number(process.env.HEALTH_STATUS || 200) : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ items: rows[0].n }));
  } catch (error) {
    res.writeHead(500);
    res.end(String(error.message));
  } finally {
    await db.end().catch(() => {});
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + process.env.PORT));
`;
const VERIFY = `
fetch(process.env.BASE_URL + 'items').then(async (r) => {
  const body = await r.json();
  console.log('items answered ' + r.status + ' with ' + body.items + ' rows');
  process.exit(r.status === 200 && body.items === Number(process.env.EXPECT_ROWS || 0) ? 0 : 1);
});
`;

let base: string;
let project: TestProject;
let branches: BranchService;
let ledger: Ledger;
let port: string | null = null;
let restoreDirs: () => void = () => undefined;

async function settings() {
  const read = await readSettings(join(project.root, '.baton'));
  if (!read.ok) throw new Error(read.error.message);
  return read.value.settings;
}

const deployWith = async (deploy: Record<string, unknown>) => {
  await project.editSettings((s) => (s.deploy = deploy));
  return deployFeature({ root: project.root, settings: await settings(), feature: 'F-1', ledger, branches, dataDir: project.dataDir, hide: [] });
};

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-deploy-'));
  restoreDirs = pointBatonDirs(base);
  project = await makeProject(join(base, 'shop'), join(base, 'data'));
  await seedPgliteTemplate(project.dataDir);
  await mkdir(join(project.root, '.baton', 'features', 'F-1'), { recursive: true });
  await writeFile(join(project.root, '.baton', 'features', 'F-1', 'feature.json'), JSON.stringify({ id: 'F-1', name: 'Items', description: 'Lists items.' }));
  await symlink(join(BATON_ROOT, 'node_modules'), join(project.root, 'node_modules'));
  ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
  branches = await openBranchService({ root: project.root, settings: await settings(), ledger, dataDir: project.dataDir });
  const pair = await branches.create(featureBranch('F-1'), { ttlHours: null });
  await writeFile(join(pair.worktree, 'server.cjs'), SERVER);
  await writeFile(join(pair.worktree, 'verify.cjs'), VERIFY);
  const git = (...args: string[]) => run('git', ['-C', pair.worktree, '-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args]);
  await git('add', 'server.cjs', 'verify.cjs');
  await git('commit', '-q', '-m', 'the app');
}, 120_000);

afterAll(async () => {
  restoreDirs();
  await branches?.close();
  await stopPgliteServers(project.dataDir);
  await rm(base, { recursive: true, force: true });
}, 60_000);

describe('deployFeature', () => {
  it('starts the committed app on a migrated throwaway database, verifies it, stops it, and records approvable evidence', async () => {
    const outcome = await deployWith({ start: 'node server.cjs', verify: 'node verify.cjs', readySeconds: 30 });
    expect(outcome.problem).toBeNull();
    expect(outcome.evidence).toMatchObject({ ran: { exit_code: 0, stopped_by_baton: true }, health: { ok: true, status: 200 }, verify: { passed: true } });
    expect(outcome.evidence.verify.summary).toBe('items answered 200 with 0 rows');
    const { stdout: head } = await run('git', ['-C', project.root, 'rev-parse', `refs/heads/${featureBranch('F-1')}`]);
    expect(outcome.commit).toBe(head.trim());
    const text = await readFile(outcome.file, 'utf8');
    expect(deployEvidenceProblem(JSON.parse(text))).toBeNull();

    const record = (await ledger.read()).records.find((r) => r.hash === outcome.record)!;
    expect(record.type).toBe(RECORD_TYPES.deployRan);
    expect(record.data).toMatchObject({ feature: 'F-1', healthy: true, verifyPassed: true, problem: null });
    expect(record.blobs.map((b) => b.name)).toEqual(['deploy-evidence.json', 'app-output', 'verify-output']);
    const app = (await ledger.readBlob(record.blobs[1]!.sha256))!.toString('utf8');
    expect(app).toMatch(/listening on \d+/);
    port = new URL(outcome.evidence.url).port;
    // Stopped: nothing answers there now; and the throwaway database is gone.
    await expect(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    expect((await branches.provider.list()).filter((b) => b.name.startsWith('tmp-'))).toEqual([]);
    expect(JSON.stringify(record)).not.toContain('postgresql://');
  }, 120_000);

  it('records a verify run that fails as a failed deploy the gate refuses', async () => {
    const outcome = await deployWith({ start: 'node server.cjs', verify: 'EXPECT_ROWS=5 node verify.cjs', readySeconds: 30 });
    expect(outcome.evidence.health.ok).toBe(true);
    expect(outcome.evidence.verify.passed).toBe(false);
    expect(outcome.problem).toContain('verify');
  }, 120_000);

  it('records an app that never answers its health check, without running verify', async () => {
    const outcome = await deployWith({ start: 'HEALTH_STATUS=503 node server.cjs', verify: 'node verify.cjs', readySeconds: 2 });
    expect(outcome.evidence.health).toMatchObject({ ok: false, status: 503 });
    expect(outcome.evidence.verify).toMatchObject({ passed: false, summary: 'not run: the app never answered its health check' });
    expect(outcome.problem).not.toBeNull();
  }, 120_000);

  it('baton deploy does the same from a terminal (Baton’s own folders hidden) and exits 1 on evidence the gate refuses', async () => {
    await project.editSettings((s) => (s.deploy = { start: 'node server.cjs', verify: 'node verify.cjs', readySeconds: 30 }));
    const ok = await baton('deploy', project.root, '--json');
    expect(ok.code, ok.err).toBe(0);
    const shown = JSON.parse(ok.out) as { feature: string; problem: string | null; evidence: { verify: { passed: boolean } } };
    expect(shown).toMatchObject({ feature: 'F-1', problem: null, evidence: { verify: { passed: true } } });
    expect(ok.err).toMatch(/listening on \d+/);
    await project.editSettings((s) => (s.deploy = { start: 'node server.cjs', verify: 'EXPECT_ROWS=3 node verify.cjs', readySeconds: 30 }));
    const refused = await baton('deploy', project.root);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('The deploy gate will refuse this evidence');
    const missing = await baton('deploy', project.root, '--feature', 'F-9');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('No feature "F-9"');
  }, 120_000);

  it('says what to add when project.json has no deploy', async () => {
    await project.editSettings((s) => delete s.deploy);
    await expect(
      deployFeature({ root: project.root, settings: await settings(), feature: 'F-1', ledger, branches, dataDir: project.dataDir, hide: [] }),
    ).rejects.toThrow(/No deploy in \.baton\/project\.json/);
  });
});

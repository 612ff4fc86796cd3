/**
 * The deploy, done by the orchestrator (never an agent): the feature branch's committed code,
 * checked out clean, is started with `deploy.start` on a fresh throwaway branch of the feature's
 * database with that code's migrations applied; Baton waits for `deploy.health` to answer 2xx,
 * runs `deploy.verify` against the running app, stops the app (its whole process tree) and drops
 * the database. What happened is the deploy evidence (`features/<F>/deploy-evidence.json`, schema
 * in shared/deploy-evidence.ts), written by Baton and recorded as `deploy.ran` with the evidence,
 * the app's output and the verify output as blobs. A deploy that fails is evidence too: of a
 * failure, which the deploy gate refuses.
 */
import { featureBranch } from '../../shared/branches';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { deployEvidenceProblem, type DeployEvidence } from '../../shared/deploy-evidence';
import { RECORD_TYPES } from '../../shared/records';
import { applyMigrations, planMigrations } from '../branches/migrations';
import { runCommand, type CommandResult } from '../process/run-command';
import { writeFileInside } from '../platform/contained-write';
import { checkoutTree } from '../runner/run-tree';
import { git } from './git';
import { shipSandbox, type ShipRequest } from './ship-request';
import { THROWAWAY_PREFIX } from './test-run';

export type DeployRequest = ShipRequest;

export interface DeployOutcome {
  readonly evidence: DeployEvidence;
  /** Why the deploy gate would refuse this evidence; null when it is approvable. */
  readonly problem: string | null;
  /** The `deploy.ran` record's hash. */
  readonly record: string;
  readonly file: string;
  readonly commit: string;
}

const DEFAULT_READY_S = 60;
const DEFAULT_VERIFY_S = 600;
const MAX_LOG = 256 * 1024;

/** The feature's own git branch (run-feature.ts experimentPairs makes it). */
export { featureBranch };

export async function deployFeature(request: DeployRequest): Promise<DeployOutcome> {
  const { settings, feature, branches, signal } = request;
  const deploy = settings.deploy;
  if (!deploy)
    throw new Error(
      'No deploy in .baton/project.json: Baton cannot deploy by itself. Add "deploy": {"start": "node server.js", "health": "/health", "verify": "npm run smoke"} (see docs/shipping.md, "Deploy evidence").',
    );
  const featureDir = join(request.root, '.baton', 'features', feature);
  if (!existsSync(featureDir)) throw new Error(`No feature "${feature}" in ${request.root}/.baton/features: name one that exists.`);
  const gitBranch = featureBranch(feature);
  const pair = (await branches.list()).pairs.find((p) => p.gitBranch === gitBranch && p.database && p.worktree);
  if (!pair) throw new Error(`${feature} has no branch pair ${gitBranch} yet: build it first (baton run), then deploy.`);
  const commit = await git(request.root, ['rev-parse', `refs/heads/${gitBranch}`]);
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const base = join(request.dataDir, 'deploy');
  const site = join(base, 'tree');
  const scratch = join(base, 'scratch');
  const home = join(scratch, 'home');
  await mkdir(home, { recursive: true });
  const modules = join(request.root, 'node_modules');
  await checkoutTree(request.root, `${commit}^{tree}`, site, scratch, existsSync(modules) ? modules : undefined);

  const logs = { app: new Tail(), verify: new Tail() };
  const say = (to: Tail) => (text: string) => {
    to.add(text);
    request.onOutput?.(text);
  };
  const provider = branches.provider;
  const database = `${THROWAWAY_PREFIX}${randomBytes(5).toString('hex')}`;
  let migrationError: string | null = null;
  await provider.create(database, pair.database!.name, {
    ...(signal ? { signal } : {}),
    prepare: async (url) => {
      try {
        await applyMigrations(url, await planMigrations(site, settings), { cwd: site, branch: database, ...(signal ? { signal } : {}) });
      } catch (error) {
        migrationError = error instanceof Error ? error.message : String(error);
      }
    },
  });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const healthUrl = new URL(deploy.health ?? '/health', url).toString();
  let health: DeployEvidence['health'] = { ok: false, url: healthUrl, checked_at: new Date().toISOString() };
  let ran = { command: deploy.start, exit_code: 1, stopped_by_baton: false };
  let verify: DeployEvidence['verify'] = { passed: false, command: deploy.verify, report_sha256: sha256(''), summary: 'did not run' };
  try {
    const databaseUrl = await provider.connectionUrl(database, signal ? { signal } : {});
    const { sandbox, env } = await shipSandbox(request, site, home, { DATABASE_URL: databaseUrl, PORT: String(port), BASE_URL: url });
    say(logs.app)(`${sandbox.note}\n`);
    if (migrationError !== null) {
      say(logs.app)(`[baton] the migrations failed, so the app was not started: ${migrationError}\n`);
      verify = { ...verify, summary: `not run: the migrations failed` };
    } else {
      const app = new AbortController();
      const stop = () => app.abort();
      signal?.addEventListener('abort', stop, { once: true });
      let exited: CommandResult | null = null;
      const running = runCommand(deploy.start, {
        cwd: site,
        ...sandbox.spawnOptions(site, env),
        timeoutMs: 24 * 3600_000,
        signal: app.signal,
        reap: true,
        onOutput: say(logs.app),
      }).then(
        (result) => void (exited = result),
        (error: unknown) => say(logs.app)(`[baton] ${error instanceof Error ? error.message : String(error)}\n`),
      );
      try {
        health = await waitHealthy(healthUrl, (deploy.readySeconds ?? DEFAULT_READY_S) * 1000, () => exited !== null || app.signal.aborted);
        if (health.ok) {
          const result = await runCommand(deploy.verify, {
            cwd: site,
            ...sandbox.spawnOptions(site, env),
            timeoutMs: (deploy.verifyTimeoutSeconds ?? DEFAULT_VERIFY_S) * 1000,
            reap: true,
            onOutput: say(logs.verify),
            ...(signal ? { signal } : {}),
          }).catch((error: unknown) => {
            say(logs.verify)(`[baton] ${error instanceof Error ? error.message : String(error)}\n`);
            return null;
          });
          const output = logs.verify.text();
          verify = {
            passed: result?.code === 0,
            command: deploy.verify,
            report_sha256: sha256(output),
            summary: lastLine(output) ?? (result ? `exit ${result.code}` : 'did not finish'),
          };
        } else verify = { ...verify, summary: 'not run: the app never answered its health check' };
      } finally {
        const before = exited as CommandResult | null;
        stop();
        await running;
        signal?.removeEventListener('abort', stop);
        ran = before
          ? { command: deploy.start, exit_code: before.code ?? 1, stopped_by_baton: false }
          : { command: deploy.start, exit_code: 0, stopped_by_baton: true };
        if (before) say(logs.app)(`[baton] the app exited by itself (code ${before.code ?? `signal ${before.signal}`}) before Baton stopped it\n`);
      }
    }
  } finally {
    await provider.delete(database).catch(() => undefined);
  }
  const evidence: DeployEvidence = {
    schema_version: 1,
    feature_id: feature,
    ran,
    target: deploy.target ?? 'local',
    url,
    health,
    verify,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    commit,
    by: 'baton',
  };
  const problem = deployEvidenceProblem(evidence);
  const text = `${JSON.stringify(evidence, null, 2)}\n`;
  const file = join(featureDir, 'deploy-evidence.json');
  await writeFileInside(request.root, file, text);
  const record = await request.ledger.append({
    type: RECORD_TYPES.deployRan,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature },
    data: {
      feature,
      commit,
      target: evidence.target,
      healthy: health.ok,
      verifyPassed: verify.passed,
      exitCode: ran.exit_code,
      migrationsFailed: migrationError !== null,
      problem,
      ms: Math.round(performance.now() - started),
    },
    blobs: [
      { name: 'deploy-evidence.json', content: text },
      { name: 'app-output', content: logs.app.text() },
      { name: 'verify-output', content: logs.verify.text() },
    ],
  });
  return { evidence, problem, record: record.hash, file, commit };
}

/**
 * The run's deploy, once acceptance is approved: once per commit of the feature branch (a build
 * that goes back and changes the code deploys again, and so does a deploy gate sent back); null
 * when this commit was deployed already.
 */
export async function deployIfNew(request: DeployRequest): Promise<DeployOutcome | null> {
  const head = await git(request.root, ['rev-parse', `refs/heads/${featureBranch(request.feature)}`]).catch(() => null);
  const records = (await request.ledger.read()).records;
  // A deploy gate sent back (gate.revising) asks for a new deploy even of the same commit.
  const sentBack = records.filter((r) => r.type === RECORD_TYPES.gateRevising && r.subject.feature === request.feature && r.subject.gate === 'deploy').at(-1);
  const done = records.some(
    (r) => r.type === RECORD_TYPES.deployRan && r.data['feature'] === request.feature && r.data['commit'] === head && r.seq > (sentBack?.seq ?? -1),
  );
  return done ? null : deployFeature(request);
}

/** Polls until a 2xx answer, the time is up, or the app is gone. */
async function waitHealthy(url: string, withinMs: number, gone: () => boolean): Promise<DeployEvidence['health']> {
  const deadline = performance.now() + withinMs;
  let status: number | undefined;
  while (performance.now() < deadline && !gone()) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      status = response.status;
      await response.body?.cancel();
      if (response.ok) return { ok: true, url, status, checked_at: new Date().toISOString() };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { ok: false, url, ...(status !== undefined ? { status } : {}), checked_at: new Date().toISOString() };
}

/** A loopback port nobody listens on now (the app is told it through PORT). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const lastLine = (text: string): string | null =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .at(-1) ?? null;

/** The end of a long output (where errors are), capped. */
class Tail {
  private value = '';
  add(text: string): void {
    this.value = (this.value + text).slice(-MAX_LOG);
  }
  text(): string {
    return this.value;
  }
}

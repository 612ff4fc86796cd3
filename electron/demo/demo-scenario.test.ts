/**
 * The demo's scripted scenario does what the demo claims, without the orchestrator: a copy of
 * resources/demo is played turn by turn in the order the cycle machine asks for them (per item:
 * RED attempts, GREEN attempts, REFACTOR, REVIEW), with the real scripted adapter, the real
 * scope and lock enforcement, the real runner on a fresh database per run, and the real judges.
 * Each step's verdict is compared with the plan the scenario's description promises.
 */
import { mkdtemp, readdir, readFile, rm, symlink, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesAny } from '../../shared/glob';
import type { AgentAdapter, TurnRequest, TurnStep } from '../agents/agent-port';
import { revertChanges } from '../platform/revert';
import { parseScenario, type Scenario } from '../agents/scenario';
import { judgeScope } from '../agents/scope';
import { scriptedAgent } from '../agents/scripted-agent';
import { diffTrees, type TreeChange } from '../platform/tree-diff';
import { snapshotTree, type TreeSnapshot } from '../platform/tree-snapshot';
import { judgeGreen, judgeRed, type JudgedReport } from '../orchestrator/judge';
import { readProject } from '../project';
import { projectSettingsSchema, type ProjectSettings } from '../project/settings';
import { checkLock, restoreLock, takeLock, type Lock, type LockRules } from '../runner/lock-set';
import type { TestReport } from '../runner/report';
import { executeRun, prepareRun } from '../runner/controlled-run';
import { git } from '../platform/git';
import { scenarioJson } from './scenario-source';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEMO = path.resolve(HERE, '../../resources/demo');
const BATON_NODE_MODULES = path.resolve(HERE, '../../node_modules');
const FEATURE = '.baton/features/F-inventory';
/** Not part of a turn's tree: installed dependencies, git, and the runner's report folder. */
const SKIP = new Set(['.git', 'node_modules', 'reports']);
const REPLAY_TIMEOUT_MS = 300_000;

/** What the scenario promises, item by item (the cycle machine's counters in brackets). */
interface ItemPlan {
  readonly red: readonly string[];
  readonly green: readonly string[];
  /** Locked files the Driver changed (reverted) over the item's GREEN attempts. */
  readonly violations: number;
  /** Repair rounds used, as the machine counts them: a failing GREEN is one, a violation one more. */
  readonly repairs: number;
  readonly refactor: 'kept' | 'reverted';
  /** Did the kept refactor change any file? */
  readonly refactorChanges: boolean;
  readonly review: 'accept' | 'refactor' | 'smell';
  /** Migrations the item's GREEN added. */
  readonly migrations: readonly string[];
}

const normal = {
  red: ['red'],
  green: ['green'],
  violations: 0,
  repairs: 0,
  refactor: 'kept',
  refactorChanges: false,
  review: 'accept',
  migrations: [],
} as const;
const PLAN: Readonly<Record<string, ItemPlan>> = {
  T1: { ...normal, refactorChanges: true },
  T2: { ...normal, refactorChanges: true },
  T3: normal,
  // The Navigator's first test passes at once (the CHECK constraint of 001 already refuses negative stock).
  T4: { ...normal, red: ['passed-at-once', 'red'] },
  T5: { ...normal, review: 'smell' },
  // The first GREEN forgets the transaction; one repair round wraps the order in BEGIN … COMMIT.
  T6: { ...normal, green: ['failing', 'green'], repairs: 1, refactorChanges: true },
  T7: { ...normal, migrations: ['migrations/002_reorder_level.sql'] },
  // The Driver also weakens the locked T8 test: reverted; its code passes the real test.
  T8: { ...normal, violations: 1, repairs: 1 },
};

interface ItemTrace {
  red: string[];
  green: string[];
  violations: number;
  repairs: number;
  refactor: 'kept' | 'reverted' | null;
  refactorChanges: boolean;
  review: string | null;
  migrations: string[];
  /** The GREEN failure sent to the Driver in the repair round, for the assertions below. */
  failures: string[];
  /** Locked paths the Driver changed. */
  violated: string[];
}

/** One PGlite for the whole replay (creating one takes seconds); every run gets a fresh public schema. */
class Database {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
  ) {}

  /**
   * `maxConnections` as the pglite provider takes it from project.json. It must be above 1: pg's
   * Pool drops its connection after any query error (a unique or CHECK violation the tests
   * expect) and reconnects at once, before the socket server has let go of the old connection.
   */
  static async start(maxConnections: number): Promise<Database> {
    const db = await PGlite.create();
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
    await server.start();
    return new Database(db, server);
  }

  get url(): string {
    return `postgresql://postgres@${this.server.getServerConn()}/postgres?sslmode=disable`;
  }

  /** As a fresh throwaway branch: an empty database, then every migration of the worktree in name order. */
  async fresh(worktree: string, migrationsPath: string): Promise<string[]> {
    await this.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    const folder = path.join(worktree, migrationsPath);
    const files = (await readdir(folder)).filter((f) => f.endsWith('.sql')).sort();
    for (const file of files) await this.db.exec(await readFile(path.join(folder, file), 'utf8'));
    return files;
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

const judged = (report: TestReport): JudgedReport => ({ cases: report.cases.map(({ id, status, message }) => ({ id, status, message })) });
const EMPTY: JudgedReport = { cases: [] };

/** The orchestrator's side of the cycle, played against a folder instead of worktrees and branches. */
class Replay {
  runs = 0;
  cachedRuns = 0;
  private readonly cache = new Map<string, TestReport>();
  readonly outputs: string[] = [];

  constructor(
    readonly dir: string,
    readonly settings: ProjectSettings,
    readonly agent: AgentAdapter,
    readonly db: Database,
  ) {}

  get lockRules(): LockRules {
    return { testGlobs: this.settings.testGlobs, runnerConfigFiles: this.settings.runnerConfigFiles, testCommand: this.settings.testCommand! };
  }

  snapshot(): Promise<TreeSnapshot> {
    return snapshotTree(this.dir, { content: true, skip: SKIP });
  }

  async turn(role: 'navigator' | 'driver', step: TurnStep, item: string, attempt: number, failure: string | null = null) {
    const request: TurnRequest = { role, step, item, attempt, worktree: this.dir, prompt: '', failure, env: {} };
    return this.agent.turn(request);
  }

  /** Changes outside the role's write scope are reverted, as after every real turn; the scenario must cause none. */
  async enforceScope(role: 'navigator' | 'driver', changes: readonly TreeChange[]): Promise<void> {
    const { outOfScope } = judgeScope(changes, {
      allowed: this.settings.writeScopes[role] ?? [],
      protected: [...this.settings.protectedPaths, ...this.settings.runnerConfigFiles],
    });
    await revertChanges(
      this.dir,
      outOfScope.map((o) => o.change),
    );
    expect(outOfScope.map((o) => o.why)).toEqual([]);
  }

  /** The controlled runner on a fresh, migrated database. Identical trees give identical runs, so those are reused. */
  async run(): Promise<TestReport> {
    const tree = await snapshotTree(this.dir, { skip: SKIP });
    const key = createHash('sha256')
      .update([...tree].map(([p, s]) => `${p}\0${s.sha256}\0${s.mode}`).join('\n'))
      .digest('hex');
    const hit = this.cache.get(key);
    if (hit) {
      this.cachedRuns += 1;
      return hit;
    }
    await this.db.fresh(this.dir, this.settings.migrations!.path);
    // The orchestrator's own controlled run: the tree git would commit, in a clean run folder, with canaries.
    const site = { dir: path.join(this.dir, '..', 'run'), scratch: path.join(this.dir, '..', 'scratch') };
    const prepared = await prepareRun({
      worktree: this.dir,
      site,
      command: this.settings.testCommand!,
      testGlobs: this.settings.testGlobs,
      locked: [],
      order: 'as-given',
    });
    const result = await executeRun(prepared, {
      command: this.settings.testCommand!,
      format: this.settings.reportFormat,
      reportPath: this.settings.reportPath!,
      env: { DATABASE_URL: this.db.url },
      pass: [],
      hide: [],
      timeoutMs: 120_000,
    });
    expect(result.integrity).toEqual([]);
    this.runs += 1;
    this.outputs.push(result.stdout + result.stderr);
    this.cache.set(key, result.report);
    return result.report;
  }

  /** One cycle, routed the way the cycle machine routes it (RED_ATTEMPTS 2, violations count as repair rounds). */
  async cycle(item: string, baseline: JudgedReport): Promise<{ trace: ItemTrace; accepted: JudgedReport }> {
    const trace: ItemTrace = {
      red: [],
      green: [],
      violations: 0,
      repairs: 0,
      refactor: null,
      refactorChanges: false,
      review: null,
      migrations: [],
      failures: [],
      violated: [],
    };

    // RED: the Navigator writes the test; not a RED → its changes are discarded and it tries once more.
    let lock: Lock | null = null;
    let lockedReport: JudgedReport = EMPTY;
    for (let attempt = 1; attempt <= 2 && lock === null; attempt++) {
      const before = await this.snapshot();
      await this.turn('navigator', 'red', item, attempt);
      const changes = diffTrees(before, await this.snapshot());
      await this.enforceScope('navigator', changes);
      const report = judged(await this.run());
      const testFiles = changes.filter((c) => matchesAny(c.path, this.settings.testGlobs)).length;
      const verdict = judgeRed(baseline, report, testFiles);
      trace.red.push(verdict.verdict);
      if (verdict.verdict === 'red') {
        lock = await takeLock(this.dir, this.lockRules);
        lockedReport = report;
      } else await revertChanges(this.dir, changes);
    }
    if (lock === null) return { trace, accepted: baseline };

    // GREEN (+ REPAIR): locked files the Driver changed are put back and counted before the run.
    let failure: string | null = null;
    let green: JudgedReport | null = null;
    const budget = this.settings.repairBudget;
    while (green === null) {
      const before = await this.snapshot();
      await this.turn('driver', 'green', item, trace.repairs + 1, failure);
      const { violations } = await checkLock(this.dir, lock, this.lockRules);
      await restoreLock(this.dir, violations);
      trace.violations += violations.length ? 1 : 0;
      trace.violated.push(...violations.map((v) => v.path));
      const changes = diffTrees(before, await this.snapshot());
      await this.enforceScope('driver', changes);
      trace.migrations.push(...changes.filter((c) => c.kind === 'added' && c.path.startsWith(`${this.settings.migrations!.path}/`)).map((c) => c.path));
      const report = judged(await this.run());
      const verdict = judgeGreen(lockedReport, report);
      trace.green.push(verdict.verdict);
      const violationRound = violations.length ? 1 : 0;
      if (verdict.verdict === 'green') {
        trace.repairs += violationRound;
        green = report;
      } else {
        if (trace.repairs + violationRound >= budget) return { trace, accepted: baseline };
        trace.repairs += 1 + violationRound;
        failure = verdict.failure;
        trace.failures.push(verdict.failure);
      }
    }

    // REFACTOR: tests stay locked and must stay green, or the whole refactor is undone.
    const before = await this.snapshot();
    await this.turn('driver', 'refactor', item, 1);
    const { violations } = await checkLock(this.dir, lock, this.lockRules);
    await restoreLock(this.dir, violations);
    const changes = diffTrees(before, await this.snapshot());
    await this.enforceScope('driver', changes);
    const report = judged(await this.run());
    const kept = violations.length === 0 && judgeGreen(lockedReport, report).verdict === 'green';
    if (!kept) await revertChanges(this.dir, diffTrees(before, await this.snapshot()));
    trace.refactor = kept ? 'kept' : 'reverted';
    trace.refactorChanges = kept && changes.length > 0;

    // REVIEW: the Navigator's decision (an unmatched review turn accepts).
    const review = await this.turn('navigator', 'review', item, 1);
    trace.review = review.review?.decision ?? 'accept';
    return { trace, accepted: kept ? report : green };
  }
}

describe('the demo project and its scripted scenario', () => {
  let work: string;
  let db: Database;
  let settings: ProjectSettings;
  let scenario: Scenario;

  beforeAll(async () => {
    work = path.join(await mkdtemp(path.join(os.tmpdir(), 'baton-demo-')), 'app');
    await cp(DEMO, work, { recursive: true });
    // The app resolves `pg` through a link (the demo itself copies it); the runs check out the tree git would commit.
    await symlink(BATON_NODE_MODULES, path.join(work, 'node_modules'), 'dir');
    await git(work, ['init', '-q', '-b', 'main']);
    await git(work, ['add', '-A']);
    await git(work, ['-c', 'user.name=Demo', '-c', 'user.email=demo@baton.invalid', 'commit', '-q', '-m', 'start']);
    settings = projectSettingsSchema.parse(JSON.parse(await readFile(path.join(work, '.baton/project.json'), 'utf8')));
    scenario = parseScenario(await readFile(path.join(work, settings.scenario!), 'utf8'), settings.scenario!);
    db = await Database.start(settings.branches?.pglite?.maxConnections ?? 1);
  }, 120_000);

  afterAll(async () => {
    await db?.stop();
    if (work) await rm(path.dirname(work), { recursive: true, force: true });
  });

  it('has valid settings, a scenario that parses, and a project that reads without problems', async () => {
    expect(settings).toMatchObject({
      name: 'inventory-demo',
      branchProvider: 'pglite',
      reportFormat: 'junit',
      scenario: '.baton/scenario.json',
      migrations: { tool: 'sql', path: 'migrations' },
    });
    expect(Object.values(settings.agents).every((a) => a === 'scripted')).toBe(true);
    const pkg = JSON.parse(await readFile(path.join(work, 'package.json'), 'utf8')) as { type: string; scripts: { test: string } };
    expect(pkg.type).toBe('module');
    expect(pkg.scripts.test).toBe(settings.testCommand);

    const read = await readProject(work);
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.problems).toEqual([]);
    const feature = read.value.features.find((f) => f.id === 'F-inventory');
    expect(feature?.testList.map((t) => t.id)).toEqual(Object.keys(PLAN));
    expect(feature?.testList.every((t) => t.status === 'pending' && t.kind === 'behavior' && t.storyId !== null)).toBe(true);
    expect(feature?.stories.map((s) => s.id)).toEqual(['S-1', 'S-2']);

    // The committed JSON is generated from the readable source (regenerate it after an edit there).
    expect(await readFile(path.join(DEMO, '.baton/scenario.json'), 'utf8')).toBe(scenarioJson());

    // Every turn names an item of the test list and writes only where its role may.
    const items = new Set(Object.keys(PLAN));
    for (const turn of scenario.turns) {
      expect(items.has(turn.item ?? '')).toBe(true);
      const scope = turn.role === 'navigator' ? settings.writeScopes.navigator! : settings.writeScopes.driver!;
      const outside = Object.keys(turn.write ?? {}).filter((p) => !matchesAny(p, scope));
      // The one planned exception: the Driver's edit of the locked T8 test.
      expect(outside).toEqual(turn.role === 'driver' && turn.item === 'T8' && turn.step === 'green' ? ['test/t8-largest-shortfall.test.js'] : []);
    }
  });

  it(
    'replays T1..T8 with the planned verdicts on a fresh Postgres per run, and every item ends green',
    async () => {
      const started = performance.now();
      const replay = new Replay(work, settings, scriptedAgent(scenario), db);
      const testList = (JSON.parse(await readFile(path.join(work, FEATURE, 'test-list.json'), 'utf8')) as { items: { id: string }[] }).items.map((i) => i.id);

      // The first commit has no test yet: the suite loads and runs nothing, the first baseline is empty.
      const initial = await replay.run();
      expect(initial.cases).toEqual([]);

      let baseline: JudgedReport = EMPTY;
      const traces: Record<string, ItemTrace> = {};
      for (const item of testList) {
        const { trace, accepted } = await replay.cycle(item, baseline);
        traces[item] = trace;
        const plan = PLAN[item]!;
        // On a mismatch, the message is the last run's output (what the runner saw).
        expect(
          {
            item,
            red: trace.red,
            green: trace.green,
            violations: trace.violations,
            repairs: trace.repairs,
            refactor: trace.refactor,
            refactorChanges: trace.refactorChanges,
            review: trace.review,
            migrations: trace.migrations,
          },
          replay.outputs.at(-1),
        ).toEqual({
          item,
          red: plan.red,
          green: plan.green,
          violations: plan.violations,
          repairs: plan.repairs,
          refactor: plan.refactor,
          refactorChanges: plan.refactorChanges,
          review: plan.review,
          migrations: plan.migrations,
        });
        baseline = accepted;
      }

      // All eight items green: each item's test ran and passed in the last accepted run, nothing else failed.
      expect(baseline.cases.map((c) => c.status)).toEqual(baseline.cases.map(() => 'passed'));
      for (const item of testList) expect(baseline.cases.filter((c) => c.id.includes(` › ${item} `))).toHaveLength(1);
      expect(baseline.cases).toHaveLength(8);

      // The stories the verdicts tell: the repair round was sent the real Postgres outcome (a partial
      // reservation), and the violation was the T8 test, restored to the locked version.
      expect(traces.T6!.failures[0]).toContain('the bowls must not stay reserved');
      expect(traces.T8!.violated).toEqual(['test/t8-largest-shortfall.test.js']);
      const reportsTest = await readFile(path.join(work, 'test/t8-largest-shortfall.test.js'), 'utf8');
      expect(reportsTest).toContain("assert.deepEqual(skus, ['T8-BRUSH', 'T8-CLOTH', 'T8-APRON']);");
      expect(reportsTest).not.toContain('.sort()');
      expect((await readdir(path.join(work, 'migrations'))).sort()).toEqual(['001_products.sql', '002_reorder_level.sql']);

      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.info(`demo replay: ${replay.runs} test runs (${replay.cachedRuns} identical trees reused) in ${seconds} s`);
    },
    REPLAY_TIMEOUT_MS,
  );
});

/**
 * The orchestrator's test run for a step: the tree it would commit, run twice — the second time
 * with the test files in the opposite order — each time in a clean run folder on a fresh throwaway
 * database branch forked from the experiment branch with that tree's migrations applied, then
 * deleted. A migration that fails is a suite that did not load (an errored case with its message).
 * The two runs must agree test by test; a test that does not is flaky.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { MigrationReport } from '../../shared/branches';
import { applyMigrations, planMigrations, type MigrationPlan } from '../branches/migrations';
import type { BranchProvider } from '../branches/provider';
import type { ProjectSettings } from '../project/settings';
import { laps } from '../platform/laps';
import { executeRun, noReport, prepareRun, type ControlledRunResult, type RunSite } from '../runner/controlled-run';

export const THROWAWAY_PREFIX = 'tmp-';
const DEFAULT_TIMEOUT_S = 600;

export interface TestRunRequest {
  readonly provider: BranchProvider;
  readonly parentDatabase: string;
  readonly settings: ProjectSettings;
  readonly worktree: string;
  readonly site: RunSite;
  /** Locked files: any change made while the tests run compromises the run. */
  readonly locked: readonly string[];
  /** Folders the run must not see. */
  readonly hide: readonly string[];
  /** The project's installed node_modules (the main checkout's), never the worktree's. */
  readonly dependencies?: string;
  /** Folders the run reads outside its run folder (the project's installed packages an overlay links to). */
  readonly readOnly?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onOutput?: (text: string) => void;
  /** A committed tree to run (the merged feature's head, verify-feature.ts); default: the worktree's, as it would be committed. */
  readonly tree?: string;
  /**
   * GREEN: the tree RED ran and the tests that failed there. When those tests pass now, they run
   * once more on that tree: passing there too, it is not the Driver's code that makes them pass.
   */
  readonly recheck?: { readonly tree: string; readonly failing: readonly string[] };
  /**
   * Background work (mutation testing, beside the cycles): never takes a branch the provider made
   * ahead of need (those are the cycle's next verdicts'), and its database server and test run get
   * the lowest CPU priority, so the cycles' own work takes the cores first.
   */
  readonly background?: boolean;
}

export interface TestRunOutcome {
  /** The first run; its report is what the verdict is judged on. */
  readonly run: ControlledRunResult;
  /** The second run (files in the opposite order), or null when the first already could not be trusted. */
  readonly second: ControlledRunResult | null;
  /** Tests whose result differed between the two runs. */
  readonly flaky: readonly string[];
  /** Why the runs cannot be trusted (either run): empty when they can. */
  readonly integrity: readonly string[];
  readonly flags: readonly string[];
  readonly migrations: MigrationReport | null;
  /** Wall time of both runs: branches, migrations, commands, clean-up (a run's clean-up overlaps the next run). */
  readonly ms: number;
  /** Of which the second run (the determinism check), from its branch to its clean-up. */
  readonly secondMs: number;
  /** Tests that failed at RED and pass on that same tree now: time, chance or outside state, not the code. */
  readonly unexplained: readonly string[];
  /** Wall time of the RED re-check (0 when it did not run). */
  readonly recheckMs: number;
}

export async function runTwice(request: TestRunRequest): Promise<TestRunOutcome> {
  const started = Date.now();
  // Each run's throwaway is deleted while the next one runs; all are gone before this returns.
  const cleanups: Promise<void>[] = [];
  try {
    return await runAll(request, started, cleanups);
  } finally {
    await Promise.all(cleanups);
  }
}

async function runAll(request: TestRunRequest, started: number, cleanups: Promise<void>[]): Promise<TestRunOutcome> {
  const runOnce = (order: 'as-given' | 'reversed', tree = request.tree) => runOnceOn(request, order, cleanups, tree);
  const first = await runOnce('as-given');
  const firstMs = Date.now() - started;
  // A run that cannot be trusted is not run again: nothing it says counts.
  const second = first.run.integrity.length === 0 ? await runOnce('reversed') : null;
  const flaky = second ? differing(first.run, second.run) : [];
  const integrity = [...first.run.integrity, ...(second?.run.integrity ?? []).map((p) => `(second run) ${p}`)];
  const flags = [...new Set([...first.run.flags, ...(second?.run.flags ?? [])])];
  if (second && second.run.tree !== first.run.tree) integrity.push('the two runs tested different trees');
  const secondMs = Date.now() - started - firstMs;
  const { unexplained, recheckMs } = await recheckRed(request, first.run, integrity, flaky, runOnce);
  await Promise.all(cleanups);
  const ms = Date.now() - started;
  return {
    run: first.run,
    second: second?.run ?? null,
    flaky,
    integrity,
    flags,
    migrations: first.migrations,
    ms,
    secondMs: second ? secondMs : 0,
    unexplained,
    recheckMs,
  };
}

/**
 * One run of a committed tree (`request.tree`), judged by nobody here: mutation testing's run of a
 * mutant (electron/mutation/). Same throwaway database, sandbox, canaries and integrity checks as
 * a verdict's first run, in `request.site`; its database is gone before this returns.
 */
export async function runTree(request: TestRunRequest & { readonly tree: string }): Promise<ControlledRunResult> {
  const cleanups: Promise<void>[] = [];
  try {
    return (await runOnceOn(request, 'as-given', cleanups, request.tree)).run;
  } finally {
    await Promise.all(cleanups);
  }
}

/** The RED re-check (see `recheck`), only when everything else says GREEN for the tests RED saw fail. */
async function recheckRed(
  request: TestRunRequest,
  run: ControlledRunResult,
  integrity: string[],
  flaky: readonly string[],
  runOnce: (order: 'as-given', tree: string) => ReturnType<typeof runOnceOn>,
): Promise<{ unexplained: string[]; recheckMs: number }> {
  const recheck = request.recheck;
  const passing = new Set(run.report.cases.filter((c) => c.status === 'passed').map((c) => c.id));
  if (!recheck || recheck.failing.length === 0 || integrity.length || flaky.length || !recheck.failing.every((id) => passing.has(id)))
    return { unexplained: [], recheckMs: 0 };
  const started = Date.now();
  const again = await runOnce('as-given', recheck.tree);
  integrity.push(...again.run.integrity.map((p) => `(RED re-check) ${p}`));
  const passedAgain = new Set(again.run.report.cases.filter((c) => c.status === 'passed').map((c) => c.id));
  return { unexplained: recheck.failing.filter((id) => passedAgain.has(id)), recheckMs: Date.now() - started };
}

/** Tests whose status is not the same in both runs (one that ran in only one counts). */
function differing(a: ControlledRunResult, b: ControlledRunResult): string[] {
  const other = new Map(b.report.cases.map((c) => [c.id, c.status]));
  const mine = new Map(a.report.cases.map((c) => [c.id, c.status]));
  const ids = new Set([...mine.keys(), ...other.keys()]);
  return [...ids].filter((id) => mine.get(id) !== other.get(id)).sort();
}

/**
 * Where and how a run happens. The second run of a pair is shaped differently from the first, so
 * code that answers right only when it recognises Baton's test run (issue 30) answers differently
 * in one of them, and the pair disagrees (flaky, escalated): another run folder, named at random
 * (not the fixed path the first run and RED share), and process ids from 32 to 63 up rather than
 * the PID namespace's first few (96 forks cost a second run about 250 ms on two cores: a wider
 * shift would cost more than it proves; reading the process id is a tell anyway, tell-names.ts) (still a namespace of its own: the machine's other processes
 * stay out of sight, issue 31). Its folder is removed when the run is done.
 */
function shapeOf(request: TestRunRequest, order: 'as-given' | 'reversed'): { site: RunSite; pidShift: number } {
  if (order === 'as-given') return { site: request.site, pidShift: 0 };
  const tag = randomBytes(6).toString('hex');
  const site = { dir: join(dirname(request.site.dir), `tree-${tag}`), scratch: join(dirname(request.site.scratch), `scratch-${tag}`) };
  return { site, pidShift: PID_SHIFT_MIN + randomInt(PID_SHIFT_SPREAD) };
}

/** The second run's processes start somewhere between these many ids in. */
const PID_SHIFT_MIN = 32;
const PID_SHIFT_SPREAD = 32;

async function runOnceOn(
  request: TestRunRequest,
  order: 'as-given' | 'reversed',
  cleanups: Promise<void>[],
  tree?: string,
): Promise<{ run: ControlledRunResult; migrations: MigrationReport | null }> {
  if (!request.settings.testCommand)
    throw new Error('No testCommand in .baton/project.json: Baton cannot run the tests itself. Set it (for example "npm test") and run again.');
  const shape = shapeOf(request, order);
  try {
    return await runShaped(request, order, cleanups, shape, tree);
  } finally {
    // The second run's folders are its alone: removed while the next run starts, like its database.
    if (shape.site !== request.site)
      cleanups.push(
        Promise.all([shape.site.dir, shape.site.scratch].map((d) => rm(d, { recursive: true, force: true }))).then(
          () => undefined,
          () => undefined,
        ),
      );
  }
}

async function runShaped(
  request: TestRunRequest,
  order: 'as-given' | 'reversed',
  cleanups: Promise<void>[],
  shape: { site: RunSite; pidShift: number },
  tree?: string,
): Promise<{ run: ControlledRunResult; migrations: MigrationReport | null }> {
  const { provider, settings, signal } = request;
  const testCommand = settings.testCommand!;
  const clock = laps();
  const prepared = await prepareRun({
    worktree: request.worktree,
    site: shape.site,
    command: testCommand,
    testGlobs: settings.testGlobs,
    locked: request.locked,
    order,
    ...(tree ? { tree } : {}),
    ...(request.dependencies ? { dependencies: request.dependencies } : {}),
  });
  // The tree under test brings its own migrations. A failure keeps the branch: the run below reports it as a suite that did not load.
  clock.lap('tree');
  const { name: database, value } = await throwaway(provider, request.parentDatabase, shape.site.dir, settings, signal, request.background === true);
  const { migrations, error: migrationError } = value;
  try {
    if (migrationError !== null) {
      const message = `Migrations failed, so the suite did not run: ${migrationError}`;
      const report = noReport(settings.reportFormat, message);
      const errored = { ...report, cases: report.cases.map((c) => ({ ...c, id: '(migrations)', name: '(migrations)' })) };
      const run: ControlledRunResult = {
        exitCode: null,
        stdout: '',
        stderr: message,
        reportText: null,
        report: errored,
        ms: 0,
        sandbox: '',
        tree: prepared.tree,
        family: prepared.spec.family,
        files: prepared.files,
        integrity: [],
        flags: [],
        canaries: 0,
      };
      return { run, migrations };
    }
    const url = await provider.connectionUrl(database, signal ? { signal } : {});
    clock.lap('database');
    const executed = await executeRun(prepared, {
      command: testCommand,
      pidShift: shape.pidShift,
      format: settings.reportFormat,
      reportPath: settings.reportPath ?? null,
      env: { DATABASE_URL: url, PGSSLMODE: 'disable' },
      pass: settings.passEnv ?? [],
      hide: request.hide,
      readOnly: request.readOnly ?? [],
      timeoutMs: (settings.testTimeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000,
      sandbox: settings.sandbox,
      network: settings.testNetwork,
      ...(request.background ? { background: true } : {}),
      ...(signal ? { signal } : {}),
      ...(request.onOutput ? { onOutput: request.onOutput } : {}),
    });
    const run: ControlledRunResult = { ...executed, phases: { ...clock.totals, ...executed.phases } };
    return { run, migrations };
  } finally {
    // Nothing reads the branch after this: its deletion need not hold up the next run.
    cleanups.push(provider.delete(database).catch(() => undefined));
  }
}

interface Migrated {
  readonly migrations: MigrationReport | null;
  readonly error: string | null;
}

/** A throwaway provider may keep ready ahead of need (pglite: branches/pglite/ready-pool.ts). */
interface ReadyThrowaways {
  takeThrowaway<T>(request: {
    parent: string;
    key: string;
    prefix: string;
    prepare: (url: string, name: string) => Promise<T>;
  }): Promise<{ name: string; value: T } | null>;
}

const keepsReady = (provider: BranchProvider): provider is BranchProvider & ReadyThrowaways =>
  typeof (provider as Partial<ReadyThrowaways>).takeThrowaway === 'function';

/**
 * What a branch made ahead of need must have been prepared with to serve this run: every migration
 * file's path, name and content hash. Only a plain SQL folder (or none) qualifies: its plan is the
 * whole of what migrating does, whereas a migration command reads its folder when it runs.
 */
function readyKey(plan: MigrationPlan): string | null {
  if (plan.tool === 'none') return 'none';
  if (plan.tool !== 'sql') return null;
  const files = plan.files.map((f) => [f.version, f.path, f.sha256]);
  return createHash('sha256')
    .update(JSON.stringify(['sql', files]))
    .digest('hex');
}

/**
 * A fresh throwaway branch of `parent` with `cwd`'s migrations applied (a failure is returned, not
 * thrown): one the provider made ahead of need under the same migrations when it has one, else one
 * made now. Either way nobody has used it before; the caller deletes it.
 */
async function throwaway(
  provider: BranchProvider,
  parent: string,
  cwd: string,
  settings: ProjectSettings,
  signal?: AbortSignal,
  background = false,
): Promise<{ name: string; value: Migrated }> {
  const planned = planMigrations(cwd, settings);
  const migrate = async (url: string, name: string, cancel?: AbortSignal): Promise<Migrated> => {
    try {
      return { migrations: await applyMigrations(url, await planned, { cwd, branch: name, ...(cancel ? { signal: cancel } : {}) }), error: null };
    } catch (error) {
      return { migrations: null, error: error instanceof Error ? error.message : String(error) };
    }
  };
  const key = await planned.then(readyKey, () => null);
  if (!background && key !== null && keepsReady(provider)) {
    const taken = await provider.takeThrowaway({ parent, key, prefix: THROWAWAY_PREFIX, prepare: (url, name) => migrate(url, name) });
    if (taken) return taken;
  }
  const name = `${THROWAWAY_PREFIX}${randomBytes(5).toString('hex')}`;
  let value: Migrated = { migrations: null, error: null };
  await provider.create(name, parent, {
    ...(signal ? { signal } : {}),
    owned: true,
    ...(background ? { background } : {}),
    prepare: async (url) => void (value = await migrate(url, name, signal)),
  });
  return { name, value };
}

/**
 * A database branch of its own for an agent's turn, cut from the story's database with the
 * worktree's migrations applied (a failure to migrate is said, not fatal: the agent may be
 * writing the migration). Dropped when the turn ends; a crash leaves it for removeLeftoverThrowaways.
 */
export async function turnDatabase(
  provider: BranchProvider,
  parent: string,
  worktree: string,
  settings: ProjectSettings,
  signal?: AbortSignal,
): Promise<{ readonly env: Record<string, string>; readonly note: string | null; drop(): Promise<void> }> {
  const { name: database, value } = await throwaway(provider, parent, worktree, settings, signal);
  const note = value.error === null ? null : `the turn's database is not fully migrated: ${value.error}`;
  const url = await provider.connectionUrl(database, signal ? { signal } : {});
  return { env: { DATABASE_URL: url, PGSSLMODE: 'disable' }, note, drop: () => provider.delete(database).catch(() => undefined) };
}

/**
 * What a killed run left behind, removed when the next run starts: throwaway branches (the run
 * lock says no other run of this project is using one) and half-made database folders. Only this
 * project's: a throwaway forked from a database named with its `prefix` (on a shared server another
 * project's run may be using its own throwaways right now).
 */
export async function removeLeftoverThrowaways(provider: BranchProvider, prefix = ''): Promise<string[]> {
  const leftovers = (await provider.list()).filter((b) => b.name.startsWith(THROWAWAY_PREFIX) && (b.parent ?? '').startsWith(prefix));
  for (const b of leftovers) await provider.delete(b.name).catch(() => undefined);
  const halfMade = (await provider.collectLeftovers?.({ dryRun: false, olderThanMs: LEFTOVER_STAGING_MS }).catch(() => [] as string[])) ?? [];
  return [...leftovers.map((b) => b.name), ...halfMade];
}

/** Work folders of a killed run are old by the next start; a concurrent app's are minutes old at most. */
const LEFTOVER_STAGING_MS = 30 * 60_000;

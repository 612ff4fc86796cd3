/**
 * The orchestrator's own test run, which trusts nothing the code under test can touch while it
 * runs (ARCHITECTURE.md, "separation of duties" 7):
 * - it runs the tree it would commit, checked out into a clean run folder (run-tree.ts), never the
 *   worktree, and throws the folder away: nothing a run writes is kept or committed;
 * - it names the test files it runs (runner-family.ts), never the runner's own discovery;
 * - it plants canaries (canaries.ts): a forged report or assertions made into no-ops show;
 * - for node:test its own reporter writes to a FIFO only the orchestrator reads;
 * - it re-hashes the locked files after the run, cross-checks the report against the exit code,
 *   refuses doubled identities, and kills every process the run left behind before reading;
 * - the run gets an allow-listed environment, a private HOME, and (with bubblewrap) sees neither
 *   Baton's config and data folders nor its installation.
 * Any of these problems makes the run `compromised`: never a RED, never a GREEN.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { SandboxSetting } from '../process/sandbox';
import { SEALED_NODE_INSIDE, sealedNode } from './sealed-node';
import { openRunSandbox } from './run-sandbox';
import { writeFileInside } from '../platform/contained-write';
import { diffTrees } from '../platform/tree-diff';
import { snapshotTree, type TreeSnapshot } from '../platform/tree-snapshot';
import { runCommand } from '../process/run-command';
import { childEnv } from '../platform/child-env';
import { git } from '../platform/git';
import { BATON_NODE_REPORTER, BATON_NODE_RUNNER, parseBatonNode } from './baton-node-reporter';
import { checkCanaries, planCanaries, type CanaryPlan } from './canaries';
import { nodeGuard } from './canary-source';
import { makeReport, type ReportFormat, type TestReport } from './report';
import { doubled, exitProblems, killedBy, lastLines, noReport, readReport, relativeFiles } from './run-checks';

export { noReport } from './run-checks';
import { hashRunFile, readRunReport, REPORT_READ_FLOOR_MS, reportTextOf, type ReportRead } from './run-files';
import { checkoutTree, treeOf } from './run-tree';
import { choosesFiles, commandFor, runnerSpec, type RunnerFamily, type RunnerSpec } from './runner-family';
import { testFilesIn } from './test-files';
import { laps } from '../platform/laps';

const execFileAsync = promisify(execFile);

/** Where runs happen: one fixed folder per project (the same path at RED and at GREEN) and a private scratch folder. */
export interface RunSite {
  readonly dir: string;
  readonly scratch: string;
}

export interface PrepareRequest {
  readonly worktree: string;
  readonly site: RunSite;
  readonly command: string;
  readonly testGlobs: readonly string[];
  /** Locked files (relative paths): re-hashed after the run. */
  readonly locked: readonly string[];
  /** The second run of a pair reverses the order of the files. */
  readonly order: 'as-given' | 'reversed';
  /** Run this tree (of the worktree's repository) instead of the worktree's content. */
  readonly tree?: string;
  /** The project's installed `node_modules` to link into the run (default: whatever the worktree links to). */
  readonly dependencies?: string;
}

export interface PreparedRun {
  readonly site: RunSite;
  /** The git tree the run checked out: what a GREEN commit will hold. */
  readonly tree: string;
  readonly spec: RunnerSpec;
  /** The project's test files this run runs, in run order (canaries apart). */
  readonly files: readonly string[];
  readonly plan: CanaryPlan;
  /** Test files that carry per-file canaries. */
  readonly carriers: readonly string[];
  readonly lockedBefore: ReadonlyMap<string, string | null>;
  readonly before: TreeSnapshot;
}

// A locked file made a FIFO or a link out of the run is hashed (or refused) without blocking: run-files.ts.
const hashOf = hashRunFile;

/** Checks out the tree to run, plants the canaries, and notes what must not change. */
export async function prepareRun(req: PrepareRequest): Promise<PreparedRun> {
  const { dir, scratch } = req.site;
  await mkdir(scratch, { recursive: true });
  const tree = req.tree ?? (await treeOf(req.worktree, scratch));
  await checkoutTree(req.worktree, tree, dir, scratch, req.dependencies);
  const spec = runnerSpec(req.command, await readFile(join(dir, 'package.json'), 'utf8').catch(() => null));
  const paths = (await git(req.worktree, ['ls-tree', '-r', '--name-only', '-z', tree])).split('\0').filter(Boolean);
  const chooses = choosesFiles(req.command, spec);
  const files = chooses ? testFilesIn(paths, req.testGlobs, spec.family) : [];
  // The canaries are made from the test files themselves (their names and values: canaries.ts).
  const sources = new Map<string, string>();
  for (const file of files) sources.set(file, await readFile(join(dir, file), 'utf8'));
  const plan = planCanaries(chooses ? spec.family : 'other', sources, new Set(paths));
  const carriers: string[] = [];
  for (const [file, extra] of plan.appended) {
    // Never through a link the tree holds (contained-write.ts).
    await writeFileInside(dir, join(dir, file), `${sources.get(file)}${extra}`);
    carriers.push(file);
  }
  for (const canary of plan.files) {
    await writeFileInside(dir, join(dir, canary.path), canary.content);
  }
  const ordered = req.order === 'reversed' ? [...files].reverse() : files;
  const lockedBefore = new Map<string, string | null>();
  for (const path of req.locked) lockedBefore.set(path, await hashOf(dir, path));
  return { site: req.site, tree, spec, files: ordered, plan, carriers, lockedBefore, before: await snapshotTree(dir) };
}

export interface ExecuteRequest {
  readonly command: string;
  readonly format: ReportFormat;
  /** Where the project's runner writes its report, relative to the run folder (not read for node:test). */
  readonly reportPath: string | null;
  /** DATABASE_URL and the like. */
  readonly env: Readonly<Record<string, string>>;
  /** Variables the project passes through (`passEnv`). */
  readonly pass: readonly string[];
  /** Folders the run must not see (Baton's config and data folders, its installation). */
  readonly hide: readonly string[];
  /** Folders outside the run folder it may read (shown read-only even under a hidden one). */
  readonly readOnly?: readonly string[];
  readonly timeoutMs: number;
  readonly sandbox?: SandboxSetting | undefined;
  /** `cut` (default): no network inside the sandbox, DATABASE_URL through a socket (run-sandbox.ts). */
  readonly network?: 'cut' | 'shared' | undefined;
  /** Process ids the sandbox uses up before the command starts, for a differently shaped run (sandbox.ts). Default 0. */
  readonly pidShift?: number;
  /** Background work (mutation testing): the run's processes get the lowest CPU priority. */
  readonly background?: boolean;
  readonly signal?: AbortSignal;
  readonly onOutput?: (text: string) => void;
}

export interface ControlledRunResult {
  /** Null when a signal ended the run. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** What the report said, as read (the stream of Baton's reporter for node:test). */
  readonly reportText: string | null;
  /** The report without the canaries: what the verdict is judged on. */
  readonly report: TestReport;
  readonly ms: number;
  readonly sandbox: string;
  readonly tree: string;
  readonly family: RunnerFamily;
  readonly files: readonly string[];
  /** Why the run cannot be trusted; empty when it can. */
  readonly integrity: readonly string[];
  /** Noticed, not refused: the tests wrote into the tree while they ran. */
  readonly flags: readonly string[];
  readonly canaries: number;
  /** Where the run's wall time went (ms): writing the driver, opening the sandbox, the command, reading the report, the checks. */
  readonly phases?: Readonly<Record<string, number>>;
}

/** Opens a FIFO for reading before the writer starts; `finish` unblocks and collects it once the command is over. */
async function fifoReader(path: string): Promise<{ finish(): Promise<string> }> {
  await rm(path, { force: true });
  await execFileAsync('mkfifo', ['-m', '600', path]);
  const chunks: Buffer[] = [];
  const stream = createReadStream(path);
  stream.on('data', (chunk) => chunks.push(Buffer.from(chunk)));
  const closed = new Promise<void>((resolve) => {
    stream.on('close', resolve);
    stream.on('error', () => resolve());
  });
  return {
    async finish() {
      // A writer that never came (the runner did not start) would leave the read open forever.
      const handle = await open(path, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => null);
      await handle?.close();
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 3000))]);
      stream.destroy();
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

const WRITE_NOISE = /(^|\/)(__pycache__|\.pytest_cache|\.vite|node_modules)(\/|$)/;

export async function executeRun(prepared: PreparedRun, req: ExecuteRequest): Promise<ControlledRunResult> {
  const { dir, scratch } = prepared.site;
  const nodeTest = prepared.spec.family === 'node-test' && prepared.files.length + prepared.plan.files.length > 0;
  const reporterModule = join(scratch, 'baton-reporter.mjs');
  const runnerModule = join(scratch, 'baton-run.mjs');
  const fifo = join(scratch, 'report.fifo');
  const keyFile = join(scratch, 'report.key');
  const guardModule = join(scratch, 'baton-guard.mjs');
  const key = randomBytes(32).toString('hex');
  const clock = laps();
  if (nodeTest) {
    await writeFile(reporterModule, BATON_NODE_REPORTER);
    await writeFile(runnerModule, BATON_NODE_RUNNER);
    if (prepared.plan.guard) await writeFile(guardModule, nodeGuard(prepared.plan.guard));
    await writeFile(keyFile, JSON.stringify({ key, hide: hideList(prepared, dir) }), { mode: 0o600 });
  }
  const reportFile = req.reportPath ? join(dir, req.reportPath) : null;
  if (reportFile) {
    await rm(reportFile, { force: true });
    await mkdir(dirname(reportFile), { recursive: true });
  }
  const files = [...prepared.files, ...prepared.plan.files.map((f) => f.path)];
  // The driver holds the report key: started from the sealed runtime, its memory is out of the tests' reach.
  // Inside the sandbox the runtime is placed at a path of its own, so nothing of where Baton keeps it shows.
  const sealedCopy = nodeTest && req.sandbox !== 'off' ? await sealedNode() : null;
  const {
    sandbox,
    env: runEnv,
    close,
  } = await openRunSandbox(
    req.sandbox,
    req.network,
    [dir, scratch],
    { hide: req.hide, readOnly: req.readOnly ?? [], placed: sealedCopy ? [{ source: sealedCopy.path, dest: SEALED_NODE_INSIDE }] : [] },
    req.env,
    req.pidShift ?? 0,
  );
  clock.lap('sandbox');
  const sealed = sealedCopy && { from: sealedCopy.from, path: sandbox.active ? SEALED_NODE_INSIDE : sealedCopy.path };
  const command = commandFor(
    req.command,
    prepared.spec,
    files,
    nodeTest
      ? {
          module: reporterModule,
          destination: fifo,
          runner: runnerModule,
          keyFile,
          ...(prepared.plan.guard ? { guard: guardModule } : {}),
          ...(sealed ? { node: sealed } : {}),
        }
      : null,
  );
  // Only Baton's driver signs its lines; a command it cannot rewrite loads the reporter unsigned.
  const signed = nodeTest && command.includes(runnerModule);
  const home = sandbox.active ? '/tmp' : join(scratch, 'home');
  if (!sandbox.active) await mkdir(home, { recursive: true });
  const env = childEnv({ home, pass: req.pass, extra: { ...runEnv, ...(sandbox.active ? {} : { TMPDIR: join(scratch, 'tmp') }) } });
  if (!sandbox.active) await mkdir(join(scratch, 'tmp'), { recursive: true });
  const reader = nodeTest ? await fifoReader(fifo) : null;
  clock.lap('set-up');
  let streamText = '';
  let result;
  const started = Date.now();
  try {
    result = await runCommand(command, {
      cwd: dir,
      ...sandbox.spawnOptions(dir, env),
      timeoutMs: req.timeoutMs,
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onOutput ? { onOutput: req.onOutput } : {}),
      reap: true,
      ...(req.background ? { background: true } : {}),
    });
  } finally {
    clock.lap('command');
    if (reader) streamText = await reader.finish();
    await rm(keyFile, { force: true });
    await close();
    clock.lap('close');
  }
  const integrity: string[] = [];
  // A runner that reported nothing at all did not start: an error in the set-up, not a forged verdict.
  let silent = false;
  let reportText: string | null;
  let parsed: TestReport;
  if (nodeTest) {
    reportText = streamText;
    const read = parseBatonNode(reportText, dir, signed ? key : null);
    parsed = read.report;
    silent = read.report.cases.length === 0 && read.foreign === 0 && !killedBy(result.code);
    if (silent)
      parsed = noReport(
        req.format,
        `node --test reported no test at all (it exited ${result.code}): the suite did not start. Check testCommand in .baton/project.json.${lastLines(result.stderr)}`,
      );
    if (read.foreign > 0)
      integrity.push(
        `${read.foreign} line${read.foreign === 1 ? '' : 's'} in the report stream did not come from Baton's reporter: something else wrote into it`,
      );
  } else {
    // Only a regular file inside the run folder, at most 32 MB, read within what is left of the run's
    // timeout: a report made a FIFO, a symlink or a giant by the code under test has no verdict.
    const readIt = async (): Promise<ReportRead> =>
      req.reportPath ? readRunReport(dir, req.reportPath, Math.max(REPORT_READ_FLOOR_MS, req.timeoutMs - (Date.now() - started))) : { state: 'missing' };
    const first = await readIt();
    reportText = reportTextOf(first);
    // The runner and everything it started are gone: a report that still changes was not the runner's.
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (reportTextOf(await readIt()) !== reportText) integrity.push(`the report at ${req.reportPath} changed after the runner ended`);
    if (first.state === 'refused' && first.planted) integrity.push(first.planted);
    parsed = first.state === 'refused' ? noReport(req.format, first.message) : readReport(reportText, req.format, req.reportPath);
  }
  clock.lap('report');
  const relative = relativeFiles(parsed, dir);
  // A file that did not load ran none of its tests, canaries included; its load error is in the report.
  const unloaded = new Set(relative.cases.filter((c) => c.status === 'errored' && c.id.endsWith('(load)')).map((c) => c.file));
  const canaries = checkCanaries(relative.cases, prepared.plan, new Set(prepared.carriers.filter((f) => !unloaded.has(f))));
  if (!silent) integrity.push(...canaries.problems);
  if (!silent) integrity.push(...exitProblems(result.code, result.signal, relative.cases, prepared.plan.canaries.length > 0));
  integrity.push(...doubled(canaries.rest));
  for (const [path, before] of prepared.lockedBefore) {
    const after = await hashOf(dir, path);
    if (after !== before) integrity.push(`the locked file ${path} was ${after === null ? 'deleted' : 'changed'} while the tests ran`);
  }
  const flags: string[] = [];
  const written = diffTrees(prepared.before, await snapshotTree(dir))
    .map((c) => c.path)
    .filter((p) => p !== req.reportPath && !WRITE_NOISE.test(p));
  if (written.length)
    flags.push(
      `the tests wrote into the tree while they ran: ${written.slice(0, 10).join(', ')}${written.length > 10 ? ` and ${written.length - 10} more` : ''}`,
    );
  clock.lap('checks');
  return {
    exitCode: result.code,
    stdout: result.stdout,
    stderr: result.stderr,
    reportText,
    report: makeReport(parsed.format, canaries.rest),
    ms: result.ms,
    sandbox: sandbox.note,
    tree: prepared.tree,
    family: prepared.spec.family,
    files: prepared.files,
    integrity,
    flags,
    canaries: prepared.plan.canaries.length,
    phases: clock.totals,
  };
}

/** Where the canaries stand, for the live panel to leave out: each file from its first canary's line on. */
function hideList(prepared: PreparedRun, dir: string): Array<{ file: string; from: number }> {
  const from = new Map<string, number>();
  for (const c of prepared.plan.canaries) if (c.at) from.set(c.at.file, Math.min(from.get(c.at.file) ?? Infinity, c.at.line));
  for (const f of prepared.plan.files) from.set(f.path, 1);
  return [...from].map(([file, line]) => ({ file: join(dir, file), from: line }));
}

/**
 * The held-out verdict on what a run delivered (issue 36), and the single-turn workflows' one
 * check of the agent's own tests at the end. Both run through Baton's own controlled test run
 * (engine/test-run.ts `runTree`): the sandbox, a fresh database with the delivered migrations, the
 * runner's report read through Baton's reporter with canaries and integrity checks. The delivered
 * code runs in the same process as the tests it is judged by, so a cheater's code could otherwise
 * patch `node:assert` or forge the report; a run that cannot be trusted counts every test failed.
 * The held-out files are copied in only here, after the agent is done, into the judge's own folder.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { PgliteProvider } from '../branches/pglite/pglite-provider';
import { copyDependencies } from '../engine/prepare-demo';
import { runTree } from '../engine/test-run';
import { packageRoot } from '../platform/package-root';
import { readSettings } from '../project/read-settings';
import type { ProjectSettings } from '../project/settings';
import { lastLine } from './baton-cli';
import type { EvalTask, HeldoutResult } from './types';

const exec = promisify(execFile);
const SKIPPED = /(^|[\\/])(node_modules|\.git|\.baton|reports)$/;
const HELDOUT_DIR = 'heldout';
const OWN_DIR = 'test';
/** How a held-out test is written: `test('name', …)` or `it('name', …)` at the start of a line. */
const TEST_CALL = /^\s*(?:test|it)\s*\(\s*(?:(['"`])(.*?)\1)?/gm;

export interface JudgeRequest {
  readonly task: EvalTask;
  /** The delivered project tree (absolute). */
  readonly delivered: string;
  /** A folder of the judge's own (absolute): removed first, and after. */
  readonly scratch: string;
  readonly signal?: AbortSignal;
}

/** The task's held-out suite on the delivered code (its own tests left out), on a fresh database. */
export const runHeldout = (request: JudgeRequest): Promise<HeldoutResult> => judge(request, 'heldout');

/** The delivered tree's own tests (its test/ folder), on a fresh database: what a single-turn workflow checks at the end. */
export const runOwnTests = (request: JudgeRequest): Promise<HeldoutResult> => judge(request, 'own');

async function judge(request: JudgeRequest, which: 'heldout' | 'own'): Promise<HeldoutResult> {
  const started = Date.now();
  const { task, delivered, scratch } = request;
  const repo = join(scratch, 'repo');
  await rm(scratch, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  try {
    await cp(delivered, repo, {
      recursive: true,
      filter: (src) => !SKIPPED.test(src) && (which === 'own' || !inside(relative(delivered, src), OWN_DIR)),
    });
    if (which === 'heldout') await cp(task.heldout, join(repo, HELDOUT_DIR), { recursive: true });
    const dir = which === 'heldout' ? HELDOUT_DIR : OWN_DIR;
    const files = await testFiles(repo, dir);
    const declared = which === 'heldout' ? await declaredTests(repo, files) : [];
    // A suite that could not run, or cannot be trusted, fails every test it declares.
    const unrun = (error: string, ran: readonly string[] = []): HeldoutResult => {
      const failed = [...new Set([...declared, ...ran])].sort();
      return { total: failed.length, passed: 0, failed, ms: Date.now() - started, error };
    };
    if (files.length === 0)
      return which === 'own' ? { total: 0, passed: 0, failed: [], ms: Date.now() - started, error: null } : unrun('the held-out suite has no test file');
    await copyDependencies(join(packageRoot(import.meta.url), 'node_modules'), join(repo, 'node_modules'), ['pg']);
    const tree = await commitTree(repo);
    const settings = await settingsFor(task, dir);
    const pglite = settings.branches?.pglite;
    const provider = new PgliteProvider({
      dataDir: join(scratch, 'db'),
      poolSize: 0,
      ...(pglite?.maxConnections !== undefined ? { maxConnections: pglite.maxConnections } : {}),
    });
    try {
      await provider.ensureRoot('judge');
      const run = await runTree({
        provider,
        parentDatabase: 'judge',
        settings,
        worktree: repo,
        site: { dir: join(scratch, 'run', 'tree'), scratch: join(scratch, 'run', 'scratch') },
        locked: files,
        hide: [task.dir],
        dependencies: join(repo, 'node_modules'),
        tree,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const cases = run.report.cases;
      if (cases.some((c) => c.id === '(migrations)')) return unrun(lastLine(run.stderr));
      if (run.integrity.length)
        return unrun(
          `the run cannot be trusted: ${run.integrity.join('; ')}`,
          cases.map((c) => c.name),
        );
      if (cases.length === 0) return unrun(`no test ran: ${lastLine(run.stderr)}`);
      const failed = [...new Set(cases.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => c.name))].sort();
      // A declared test the report does not name (its file crashed before it) failed too.
      const named = new Set(cases.map((c) => c.name));
      const missing = declared.filter((name) => !named.has(name));
      const passed = cases.filter((c) => c.status === 'passed').length;
      return {
        total: Math.max(declared.length, cases.length),
        passed,
        failed: [...new Set([...failed, ...missing])].sort(),
        ms: Date.now() - started,
        error: null,
      };
    } finally {
      await provider.close();
    }
  } catch (error) {
    if (request.signal?.aborted) throw error;
    const root = join(task.heldout, '..');
    const failed = which === 'heldout' ? [...new Set(await declaredTests(root, await testFiles(root, HELDOUT_DIR)))].sort() : [];
    return { total: failed.length, passed: 0, failed, ms: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}${sep}`);

/** The test files under `dir` (repository-relative, `/`-separated). */
async function testFiles(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && /\.test\.(m?js|cjs)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** The names of the tests the files declare (a name that is not a plain string: the file and its number). */
async function declaredTests(root: string, files: readonly string[]): Promise<string[]> {
  const names: string[] = [];
  for (const file of files) [...(await readFile(join(root, file), 'utf8')).matchAll(TEST_CALL)].forEach((m, i) => names.push(m[2] ?? `${file} test ${i + 1}`));
  return names;
}

async function commitTree(repo: string): Promise<string> {
  const git = async (...args: string[]) => (await exec('git', args, { cwd: repo })).stdout.trim();
  await git('init', '-q', '-b', 'judge');
  await exec('sh', ['-c', 'printf "/node_modules\\n/reports/\\n" >> .git/info/exclude'], { cwd: repo });
  await git('add', '-A');
  await git('-c', 'user.name=Baton Eval', '-c', 'user.email=eval@baton.invalid', 'commit', '-q', '--allow-empty', '-m', 'the delivered tree, judged');
  return git('rev-parse', 'HEAD^{tree}');
}

/** The task's project settings (its test command, report format, migrations), running only `dir`'s tests. */
async function settingsFor(task: EvalTask, dir: string): Promise<ProjectSettings> {
  const read = await readSettings(join(task.repo, '.baton'));
  if (!read.ok) throw new Error(`The task ${task.id}'s repo/.baton/project.json does not read: ${read.error.message}`);
  return { ...read.value.settings, testGlobs: [`${dir}/**`] };
}

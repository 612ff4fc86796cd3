import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executeRun, prepareRun, type ControlledRunResult } from './controlled-run';

/**
 * The runner's report is a file the code under test can replace. A FIFO there must not hang the run
 * past its timeout; a symlink to /etc/passwd must not be read and kept; a giant must not be read
 * whole. Each ends the run quickly, with an errored report (never a GREEN) that says why.
 */
let base: string;
let worktree: string;
const TIMEOUT_MS = 8000;

async function run(command: string): Promise<{ result: ControlledRunResult; ms: number }> {
  const prepared = await prepareRun({
    worktree,
    site: { dir: join(base, 'run', 'tree'), scratch: join(base, 'run', 'scratch') },
    command,
    testGlobs: ['test/**/*.test.mjs'],
    locked: ['test/sum.test.mjs'],
    order: 'as-given',
  });
  const started = Date.now();
  const result = await executeRun(prepared, {
    command,
    format: 'junit',
    reportPath: 'reports/junit.xml',
    env: {},
    pass: [],
    hide: [],
    timeoutMs: TIMEOUT_MS,
    sandbox: 'off',
  });
  return { result, ms: Date.now() - started };
}

const errored = (result: ControlledRunResult) => result.report.cases.map((c) => [c.status, c.message]);

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-report-hazards-'));
  worktree = join(base, 'work');
  await mkdir(worktree);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: worktree });
  for (const [path, content] of Object.entries({
    'package.json': '{"type":"module"}\n',
    'test/sum.test.mjs': "import test from 'node:test';\ntest('adds', () => {});\n",
  })) {
    await mkdir(dirname(join(worktree, path)), { recursive: true });
    await writeFile(join(worktree, path), content);
  }
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: worktree });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start'], { cwd: worktree });
});
afterEach(() => rm(base, { recursive: true, force: true }));

const hasMkfifo = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasMkfifo) console.log('skipped the FIFO report case: mkfifo is not on PATH on this machine');

describe('a report the code under test replaced', () => {
  it.skipIf(!hasMkfifo)(
    'a FIFO at the report path: the run ends within its timeout, compromised, its report an error naming the FIFO',
    async () => {
      const { result, ms } = await run('mkfifo reports/junit.xml');
      expect(ms).toBeLessThan(TIMEOUT_MS);
      expect(result.exitCode).toBe(0);
      expect(result.reportText).toBeNull();
      expect(errored(result)).toEqual([
        [
          'errored',
          'The report at reports/junit.xml is a named pipe (FIFO), not a regular file; not read — replace it with a regular file. Baton reads only a regular file the runner wrote inside the run folder: the run has no verdict.',
        ],
      ]);
      expect(result.integrity).toContain(
        'the report at reports/junit.xml is a named pipe (FIFO), not a regular file; not read — replace it with a regular file',
      );
    },
    30_000,
  );

  it('a symlink to /etc/passwd at the report path: never read, never kept, and the run is compromised', async () => {
    const { result, ms } = await run('ln -s /etc/passwd reports/junit.xml');
    expect(ms).toBeLessThan(TIMEOUT_MS);
    expect(result.reportText).toBeNull();
    expect(JSON.stringify(result)).not.toContain('root:');
    expect(result.report.cases).toHaveLength(1);
    expect(result.report.cases[0]).toMatchObject({ status: 'errored', message: expect.stringContaining('is a symbolic link, not a regular file') });
    expect(result.integrity).toContain(
      'the report at reports/junit.xml is a symbolic link, not a regular file; not followed — replace the link with the file itself',
    );
  }, 30_000);

  it('a report folder symlinked out of the run: the path leads outside, and is not read', async () => {
    await mkdir(join(base, 'elsewhere'));
    await writeFile(join(base, 'elsewhere', 'junit.xml'), '<testsuite tests="1"><testcase name="forged"/></testsuite>');
    const { result } = await run(`rm -rf reports && ln -s '${join(base, 'elsewhere')}' reports`);
    expect(result.reportText).toBeNull();
    expect(result.report.cases.map((c) => c.status)).toEqual(['errored']);
    expect(result.integrity.some((p) => p.startsWith('the report at reports/junit.xml leads outside'))).toBe(true);
  }, 30_000);

  it('a 40 MB report is not read: the verdict is an error naming the report, its size and the limit', async () => {
    const { result } = await run('truncate -s 40M reports/junit.xml');
    expect(result.reportText).toBeNull();
    expect(errored(result)).toEqual([
      [
        'errored',
        'The report at reports/junit.xml is 40 MB (41943040 bytes), over the 32 MB limit for a test report: it was not read, so the run has no verdict. Make the runner write a smaller report (no captured output in it, fewer tests per run).',
      ],
    ]);
  }, 30_000);

  it('a locked file made a FIFO is reported changed, without hanging the run', async () => {
    if (!hasMkfifo) return;
    const { result, ms } = await run('rm test/sum.test.mjs && mkfifo test/sum.test.mjs');
    expect(ms).toBeLessThan(TIMEOUT_MS);
    expect(result.integrity).toContain('the locked file test/sum.test.mjs was changed while the tests ran');
  }, 30_000);
});

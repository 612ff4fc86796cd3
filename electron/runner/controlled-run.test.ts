import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { executeRun, prepareRun, type ControlledRunResult } from './controlled-run';

/**
 * The controlled run against real `node --test` runs in a real git repository: each case is code
 * under test trying to forge, skip or weaken the verdict, and each must show in `integrity`.
 */
let base: string;
let worktree: string;
const COMMAND = 'node --test test/';

async function put(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(worktree, path)), { recursive: true });
    await writeFile(join(worktree, path), content);
  }
}

async function run(opts: { locked?: string[]; timeoutMs?: number; order?: 'as-given' | 'reversed'; command?: string } = {}): Promise<ControlledRunResult> {
  const prepared = await prepareRun({
    worktree,
    site: { dir: join(base, 'run', 'tree'), scratch: join(base, 'run', 'scratch') },
    command: opts.command ?? COMMAND,
    testGlobs: ['test/**/*.test.mjs'],
    locked: opts.locked ?? [],
    order: opts.order ?? 'as-given',
  });
  return executeRun(prepared, {
    command: opts.command ?? COMMAND,
    format: 'junit',
    reportPath: 'reports/junit.xml',
    env: { DATABASE_URL: 'postgresql://postgres:s3cret@127.0.0.1:1/db' },
    pass: [],
    hide: [],
    timeoutMs: opts.timeoutMs ?? 60_000,
    sandbox: 'off',
  });
}

const TEST_HEAD = "import test from 'node:test';\nimport assert from 'node:assert';\n";

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-controlled-'));
  worktree = join(base, 'work');
  await mkdir(worktree);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: worktree });
  await put({
    'package.json': '{"type":"module"}\n',
    'src/sum.mjs': 'export const sum = (a, b) => a + b;\n',
    'test/sum.test.mjs': `${TEST_HEAD}import { sum } from '../src/sum.mjs';\ntest('adds', () => assert.equal(sum(2, 3), 5));\ntest('sees the database url', () => assert.ok(process.env.DATABASE_URL));\n`,
  });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: worktree });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'start'], { cwd: worktree });
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('a controlled node:test run', () => {
  it('runs the named test files in a clean checkout and reports each test by file and name, canaries apart', async () => {
    const result = await run();
    expect(result.family).toBe('node-test');
    expect(result.files).toEqual(['test/sum.test.mjs']);
    expect(result.integrity).toEqual([]);
    expect(result.canaries).toBeGreaterThan(2);
    expect(result.report.cases.map((c) => [c.file, c.name, c.status])).toEqual([
      ['test/sum.test.mjs', 'adds', 'passed'],
      ['test/sum.test.mjs', 'sees the database url', 'passed'],
    ]);
    // The must-fail canary makes an honest run exit non-zero.
    expect(result.exitCode).not.toBe(0);
  });

  it("the output a person reads shows the project's tests and a summary counted over them, never Baton's canaries", async () => {
    const result = await run();
    expect(result.stdout).toContain('adds');
    expect(result.stdout).toMatch(/ℹ tests 2\n/);
    expect(result.stdout).toMatch(/ℹ pass 2\n/);
    expect(result.stdout).toMatch(/ℹ fail 0\n/);
    expect(result.stdout).not.toMatch(/\bc[0-9a-f]{16}\b/);
  });

  it('runs only the files it means to: a test file outside the test globs is never loaded', async () => {
    await put({
      'src/aaa.test.mjs': `${TEST_HEAD}import { writeFileSync } from 'node:fs';\nwriteFileSync('test/sum.test.mjs', "import test from 'node:test';\\ntest('adds', () => {});\\n");\ntest('sneaky', () => {});\n`,
    });
    const result = await run({ locked: ['test/sum.test.mjs'] });
    expect(result.files).toEqual(['test/sum.test.mjs']);
    expect(result.report.cases.map((c) => c.name)).not.toContain('sneaky');
    expect(result.integrity).toEqual([]);
  });

  it('the run happens in its own folder: what the tests write never reaches the worktree, and is flagged', async () => {
    await put({
      'test/w.test.mjs': `${TEST_HEAD}import { writeFileSync } from 'node:fs';\ntest('writes', () => { writeFileSync('src/inventory.mjs', 'export const x = 1;'); writeFileSync('package.json', '{}'); });\n`,
    });
    const result = await run();
    expect(result.flags.join('\n')).toMatch(/wrote into the tree while they ran: .*package\.json/);
    expect(existsSync(join(worktree, 'src/inventory.mjs'))).toBe(false);
    expect(await readFile(join(worktree, 'package.json'), 'utf8')).toBe('{"type":"module"}\n');
  });

  it('a locked test rewritten during the run is a broken run', async () => {
    await put({
      'test/a-first.test.mjs': `${TEST_HEAD}import { writeFileSync } from 'node:fs';\ntest('first', () => writeFileSync('test/sum.test.mjs', "import test from 'node:test';\\n"));\n`,
    });
    const result = await run({ locked: ['test/sum.test.mjs'] });
    expect(result.integrity).toContain('the locked file test/sum.test.mjs was changed while the tests ran');
  });

  it('assertions made into no-ops by the code under test are caught by the per-file canaries', async () => {
    await put({
      'src/sum.mjs':
        "import assert from 'node:assert';\nfor (const k of ['equal', 'strictEqual', 'deepEqual', 'ok']) assert[k] = () => {};\nexport const sum = () => 0;\n",
    });
    const result = await run();
    expect(result.report.cases.find((c) => c.name === 'adds')?.status).toBe('passed');
    expect(result.integrity.join('\n')).toMatch(/canary/i);
  });

  it('a runner killed by the code under test proves nothing', async () => {
    await put({ 'src/sum.mjs': 'process.kill(process.ppid, "SIGKILL");\nexport const sum = (a, b) => a + b;\n' });
    const result = await run();
    expect(result.integrity.join('\n')).toMatch(/the runner was killed/);
  });

  it('a fake JUnit report written by the code under test is never read: the verdict comes from Baton’s own stream', async () => {
    const fake = '<testsuites><testsuite name="x"><testcase name="adds" /><testcase name="sees the database url" /></testsuite></testsuites>';
    await put({
      'src/sum.mjs': `import { mkdirSync, writeFileSync } from 'node:fs';\nmkdirSync('reports', { recursive: true });\nwriteFileSync('reports/junit.xml', ${JSON.stringify(fake)});\nexport const sum = () => 0;\n`,
    });
    const result = await run();
    expect(result.report.cases.find((c) => c.name === 'adds')?.status).toBe('failed');
  });

  it('code kept in an ignored file is not in the run: what runs is what a commit would hold', async () => {
    await put({
      'src/.gitignore': 'real.mjs\n',
      'src/real.mjs': 'export const sum = (a, b) => a + b;\n',
      'src/sum.mjs': "export { sum } from './real.mjs';\n",
    });
    const result = await run();
    expect(result.report.cases.filter((c) => c.status === 'passed')).toEqual([]);
    expect(result.integrity).toEqual([]);
    expect(result.report.cases[0]).toMatchObject({ file: 'test/sum.test.mjs', status: 'errored', message: expect.stringMatching(/real\.mjs/) });
  });

  it('lines written into the report stream by the code under test are foreign, even well-formed ones: they are not signed', async () => {
    // Find the FIFO from the runner's command line, as an attacker would, and write a forged pass.
    const forged = JSON.stringify({
      file: '/x/test/sum.test.mjs',
      suite: [],
      name: 'adds',
      kind: 'test',
      status: 'passed',
      message: null,
      cause: '',
      load: false,
      stderr: null,
    });
    await put({
      'src/sum.mjs': [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        "const argv = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\\0');",
        "const dest = argv.find((a) => a.startsWith('--destination='))?.slice(14);",
        `if (dest) writeFileSync(dest, 'not a reporter line\\n' + ${JSON.stringify(JSON.stringify({ line: forged, sig: '0'.repeat(64) }))} + '\\n' + ${JSON.stringify(forged)} + '\\n', { flag: 'a' });`,
        'export const sum = (a, b) => a + b;',
        '',
      ].join('\n'),
    });
    const result = await run();
    expect(result.integrity.join('\n')).toMatch(/^3 lines in the report stream did not come from Baton's reporter/m);
  });

  it('a second run can take the files in reverse order', async () => {
    await put({ 'test/b.test.mjs': `${TEST_HEAD}test('b', () => {});\n` });
    expect((await run()).files).toEqual(['test/b.test.mjs', 'test/sum.test.mjs']);
    expect((await run({ order: 'reversed' })).files).toEqual(['test/sum.test.mjs', 'test/b.test.mjs']);
  });

  it('a run past its timeout is killed with everything it started', async () => {
    const started = Date.now();
    await expect(run({ command: 'sh -c "sleep 30" & sleep 30', timeoutMs: 500 })).rejects.toThrow(/longer than 0.5 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

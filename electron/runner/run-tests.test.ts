import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTests, type RunRequest } from './run-tests';

describe('the controlled runner, on real node:test runs', () => {
  let dir: string;
  const request = (over: Partial<RunRequest> = {}): RunRequest => ({
    worktree: dir,
    command: 'node --test --test-reporter=junit --test-reporter-destination=reports/junit.xml test/',
    format: 'junit',
    reportPath: 'reports/junit.xml',
    env: { DATABASE_URL: 'postgresql://postgres:s3cret@127.0.0.1:1/db' },
    timeoutMs: 30_000,
    ...over,
  });
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-run-'));
    await mkdir(join(dir, 'test'));
    await writeFile(
      join(dir, 'test/a.test.mjs'),
      "import test from 'node:test';\nimport assert from 'node:assert';\ntest('sees the database url', () => assert.ok(process.env.DATABASE_URL));\ntest('fails', () => assert.equal(1, 2));\n",
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs the command with DATABASE_URL and parses its JUnit report', async () => {
    const result = await runTests(request());
    expect(result.exitCode).toBe(1);
    expect(result.report.cases.map((c) => [c.name, c.status])).toEqual([
      ['sees the database url', 'passed'],
      ['fails', 'failed'],
    ]);
    expect(result.reportText).toContain('<testsuites>');
  });

  it('a stale report from an earlier run (or an agent) is never read as this run', async () => {
    await mkdir(join(dir, 'reports'), { recursive: true });
    await writeFile(join(dir, 'reports/junit.xml'), '<testsuites><testcase name="fake" /></testsuites>');
    const result = await runTests(request({ command: 'true' }));
    expect(result.report.cases).toHaveLength(1);
    expect(result.report.cases[0]).toMatchObject({ status: 'errored', message: expect.stringContaining('wrote no report') });
  });

  it('a run past its timeout is killed with its children and reported as an error', async () => {
    const started = Date.now();
    await expect(runTests(request({ command: 'sh -c "sleep 30" & sleep 30', timeoutMs: 500 }))).rejects.toThrow(/longer than 0.5 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a report path outside the project is refused', async () => {
    await expect(runTests(request({ reportPath: '../elsewhere.xml' }))).rejects.toThrow(/inside the project/);
  });
});

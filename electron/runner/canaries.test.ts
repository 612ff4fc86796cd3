import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCanaries, planCanaries, type CanaryPlan } from './canaries';
import { parseReport } from './parse-report';
import type { CaseStatus, TestCaseResult } from './report';

const run = promisify(execFile);

const result = (name: string, status: CaseStatus, file: string | null = null): TestCaseResult => ({
  id: `${file ?? ''} › ${name}`,
  name,
  suite: [],
  file,
  status,
  durationMs: null,
  message: null,
});

/** What an honest run of `files` test files reports: every canary once (per-file ones once per file) as it must come out. */
function honest(plan: CanaryPlan, files: number): TestCaseResult[] {
  return plan.canaries.flatMap((c) => Array.from({ length: c.token.includes('-') ? files : 1 }, (_, i) => result(c.token, c.expect, `f${i}.test.js`)));
}

describe('planCanaries', () => {
  it('tokens are fresh every time and never a guessable name', () => {
    const [a, b] = [planCanaries('node-test'), planCanaries('node-test')];
    expect(a.canaries.map((c) => c.token)).not.toEqual(b.canaries.map((c) => c.token));
    expect(a.files[0]!.path).not.toBe(b.files[0]!.path);
    for (const c of a.canaries) expect(c.token).toMatch(/^c[0-9a-f]{16}(-[\w.]+)?$/);
  });

  it('node:test: a canary file with one must-fail and one must-pass test, and per-file asserts for JS files only', () => {
    const plan = planCanaries('node-test');
    const [fail, pass] = plan.canaries;
    expect([fail!.expect, pass!.expect]).toEqual(['failed', 'passed']);
    expect(plan.files).toHaveLength(1);
    expect(plan.files[0]!.path).toBe(`${fail!.token}.test.mjs`);
    expect(plan.files[0]!.content).toContain(`test('${fail!.token}'`);
    expect(plan.files[0]!.content).toContain(`test('${pass!.token}'`);
    const perFile = plan.canaries.slice(2);
    expect(perFile.map((c) => c.token.split('-')[1])).toEqual([
      'equal',
      'strictEqual',
      'deepEqual',
      'deepStrictEqual',
      'notEqual',
      'ok',
      'assert',
      'match',
      'throws',
      'rejects',
      'strict.equal',
      'strict.deepEqual',
      'strict.ok',
    ]);
    expect(perFile.every((c) => c.expect === 'failed')).toBe(true);
    for (const file of ['a.test.js', 'b.test.mts', 'c.spec.tsx', 'd.test.cjs']) expect(plan.appendTo(file)).toContain(perFile[0]!.token);
    expect(plan.appendTo('tests/test_a.py')).toBeNull();
  });

  it('vitest and jest: per-file expect matchers; vitest imports them, jest uses its globals', () => {
    const vitest = planCanaries('vitest');
    expect(vitest.files[0]!.path).toMatch(/^c[0-9a-f]{16}\.test\.mjs$/);
    expect(vitest.files[0]!.content).toMatch(/^import \{ test, expect \} from 'vitest';/);
    expect(vitest.appendTo('a.test.ts')).toMatch(/import \{ test as __t_c[0-9a-f]{16}, expect as __e_c[0-9a-f]{16} \} from 'vitest'/);
    const jest = planCanaries('jest');
    expect(jest.files[0]!.path).toMatch(/^c[0-9a-f]{16}\.test\.js$/);
    expect(jest.files[0]!.content).not.toContain('import');
    expect(jest.appendTo('a.test.js')).not.toContain('import');
    expect(jest.canaries.slice(2).map((c) => c.token.split('-')[1])).toEqual([
      'toBe',
      'toEqual',
      'toStrictEqual',
      'toBeTruthy',
      'toMatchObject',
      'toThrow',
      'not.toBe',
    ]);
  });

  it('pytest: one canary file, nothing appended; other: nothing at all', () => {
    const py = planCanaries('pytest');
    expect(py.canaries.map((c) => c.expect)).toEqual(['failed', 'passed']);
    expect(py.files[0]!.path).toBe(`test_${py.canaries[0]!.token}.py`);
    expect(py.files[0]!.content).toContain(`def test_${py.canaries[1]!.token}():`);
    expect(py.appendTo('tests/test_a.py')).toBeNull();
    const other = planCanaries('other');
    expect([other.files, other.canaries, other.appendTo('a.test.js')]).toEqual([[], [], null]);
  });
});

describe('checkCanaries', () => {
  const plan = planCanaries('node-test');
  const [fail, pass, perFile] = [plan.canaries[0]!, plan.canaries[1]!, plan.canaries[2]!];
  const real = [result('adds', 'passed', 'a.test.js'), result('subtracts', 'failed', 'a.test.js')];

  it('an honest report: no problem, and the rest is the project’s own tests only', () => {
    const { problems, rest } = checkCanaries([...real, ...honest(plan, 2)], plan, 2);
    expect(problems).toEqual([]);
    expect(rest).toEqual(real);
  });

  it('the must-fail canary passed', () => {
    const cases = honest(plan, 1).map((c) => (c.name === fail.token ? { ...c, status: 'passed' as const } : c));
    expect(checkCanaries(cases, plan, 1).problems).toEqual([`the canary ${fail.what} passed in f0.test.js`]);
  });

  it('the must-pass canary failed, or was skipped', () => {
    for (const status of ['failed', 'skipped'] as const) {
      const cases = honest(plan, 1).map((c) => (c.name === pass.token ? { ...c, status } : c));
      expect(checkCanaries(cases, plan, 1).problems).toEqual([`the canary ${pass.what} did not pass (${status}) in f0.test.js`]);
    }
  });

  it('a canary missing, or doubled', () => {
    const missing = honest(plan, 1).filter((c) => c.name !== fail.token);
    expect(checkCanaries(missing, plan, 1).problems).toEqual([`the canary ${fail.what} is missing from the report (0 of 1)`]);
    const doubled = [...honest(plan, 1), result(pass.token, 'passed', 'x.test.js')];
    expect(checkCanaries(doubled, plan, 1).problems).toEqual([`the canary ${pass.what} appears 2 times (expected 1)`]);
  });

  it('per-file canaries are counted against the files that carry them', () => {
    const cases = honest(plan, 2);
    expect(checkCanaries(cases, plan, 2).problems).toEqual([]);
    const short = checkCanaries(cases, plan, 3).problems;
    expect(short).toHaveLength(plan.canaries.length - 2);
    expect(short[0]).toBe(`the canary ${perFile.what} is missing from the report (2 of 3)`);
    expect(checkCanaries(cases, plan, 1).problems[0]).toBe(`the canary ${perFile.what} appears 2 times (expected 1)`);
  });

  it('a report that names none of this plan’s tokens (an old plan, a forged report) fails every canary', () => {
    const { problems, rest } = checkCanaries(honest(planCanaries('node-test'), 1), plan, 1);
    expect(problems).toHaveLength(plan.canaries.length);
    expect(rest).toHaveLength(plan.canaries.length);
  });

  it('pytest names its canaries test_<token>', () => {
    const py = planCanaries('pytest');
    const cases = [result(`test_${py.canaries[0]!.token}`, 'failed'), result(`test_${py.canaries[1]!.token}`, 'passed'), result('test_real', 'passed')];
    expect(checkCanaries(cases, py, 1)).toEqual({ problems: [], rest: [cases[2]] });
  });
});

/** The node:test plan run for real: an honest run passes the check; assertions made into no-ops fail it. */
describe('node:test canaries in a real run', () => {
  let dir: string;
  const plan = planCanaries('node-test');
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-canaries-'));
    const own = `import test from 'node:test';\nimport assert from 'node:assert';\ntest('adds', () => { assert.strictEqual(1 + 1, 2); });\n`;
    await writeFile(join(dir, 'x.test.mjs'), own + plan.appendTo('x.test.mjs'));
    for (const f of plan.files) await writeFile(join(dir, f.path), f.content);
    // What code under test could do: make node:assert's functions no-ops in the test process.
    const noop = `import assert from 'node:assert';\nimport strict from 'node:assert/strict';\nfor (const a of [assert, strict]) for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'notEqual', 'ok', 'match', 'throws', 'rejects']) a[k] = () => {};\n`;
    await writeFile(join(dir, 'noop.mjs'), noop);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const tap = async (preload: string[]) => {
    const files = ['x.test.mjs', ...plan.files.map((f) => f.path)];
    const out = await run(process.execPath, [...preload, '--test', '--test-reporter=tap', ...files], { cwd: dir }).catch((error: { stdout: string }) => error);
    return parseReport(out.stdout, 'tap').cases;
  };

  it('honest: no problem, and the project’s own test is all that is left', async () => {
    const { problems, rest } = checkCanaries(await tap([]), plan, 1);
    expect(problems).toEqual([]);
    expect(rest.map((c) => [c.name, c.status])).toEqual([['adds', 'passed']]);
  }, 30_000);

  it('node:assert made into no-ops by a preload: the must-fail canaries passed', async () => {
    const { problems } = checkCanaries(await tap(['--import', './noop.mjs']), plan, 1);
    expect(problems).toContain(`the canary ${plan.canaries[0]!.what} passed`);
    expect(problems).toContain('the canary node:assert strictEqual of unequal values, in every test file passed');
    expect(problems).toContain('the canary node:assert strict.deepEqual of unequal values, in every test file passed');
  }, 30_000);
});

/**
 * Canaries: tests the orchestrator writes into each run, with unpredictable names, that the runner
 * loads like any test — one that must fail and one that must pass, with real assertions. A report
 * in which the failing canary passed, or either is missing or doubled, was not produced by an honest
 * run of the assertion library (a forged report, assertions made into no-ops): the run is
 * compromised and can never be GREEN.
 *
 * Per runner family:
 * - node:test — a canary file, and in every test file run one must-fail test per `node:assert`
 *   function (appended to the run's copy, never to the worktree), so a module that turns
 *   `assert.equal` into a no-op inside a test's own process is caught.
 * - vitest, jest — a canary file, and per test file one must-fail test per common `expect` matcher.
 * - pytest — a canary file (`assert` is a statement: nothing to weaken per file).
 * - other runners — none: Baton cannot choose the files they load (see runner-family.ts).
 */
import { randomBytes } from 'node:crypto';
import type { RunnerFamily } from './runner-family';
import type { TestCaseResult } from './report';

export interface Canary {
  /** An unpredictable token that is the whole test name (or its start, for per-file canaries). */
  readonly token: string;
  readonly expect: 'failed' | 'passed';
  /** What the canary proves, for a person reading why a run was refused. */
  readonly what: string;
}

export interface CanaryPlan {
  /** Files to write into the run folder (relative path → content), added to the files run. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string }>;
  /** Code to append to a test file of the run (null: nothing for this file). */
  readonly appendTo: (file: string) => string | null;
  /** Every canary the report must hold, once each. */
  readonly canaries: readonly Canary[];
}

const token = (): string => `c${randomBytes(8).toString('hex')}`;
const int = (): number => 1000 + randomBytes(2).readUInt16BE(0);
/** Two unpredictable numbers that are never equal, neither a substring of the other's digits. */
const pair = (): [number, number] => {
  const a = int();
  return [a, a + 100_000 + int()];
};

const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;

/** Each assertion must throw here: a pair of unequal values the code under test cannot guess. */
const nodeAsserts = (a: number, b: number): Array<[string, string]> => [
  ['equal', `a.equal(${a}, ${b})`],
  ['strictEqual', `a.strictEqual(${a}, ${b})`],
  ['deepEqual', `a.deepEqual({ v: ${a} }, { v: ${b} })`],
  ['deepStrictEqual', `a.deepStrictEqual({ v: ${a} }, { v: ${b} })`],
  ['notEqual', `a.notEqual(${a}, ${a})`],
  ['ok', `a.ok(${a} === ${b})`],
  ['assert', `a(${a} === ${b})`],
  ['match', `a.match('${a}', /^${b}$/)`],
  ['throws', 'a.throws(() => {})'],
  ['rejects', 'return a.rejects(Promise.resolve())'],
  ['strict.equal', `s.equal(${a}, ${b})`],
  ['strict.deepEqual', `s.deepEqual({ v: ${a} }, { v: ${b} })`],
  ['strict.ok', `s.ok(${a} === ${b})`],
];

const expectMatchers = (a: number, b: number): Array<[string, string]> => [
  ['toBe', `e(${a}).toBe(${b})`],
  ['toEqual', `e({ v: ${a} }).toEqual({ v: ${b} })`],
  ['toStrictEqual', `e({ v: ${a} }).toStrictEqual({ v: ${b} })`],
  ['toBeTruthy', `e(${a} === ${b}).toBeTruthy()`],
  ['toMatchObject', `e({ v: ${a} }).toMatchObject({ v: ${b} })`],
  ['toThrow', 'e(() => {}).toThrow()'],
  ['not.toBe', `e(${a}).not.toBe(${a})`],
];

function nodePlan(): CanaryPlan {
  const [fail, pass, perFile] = [token(), token(), token()];
  const [a, b] = pair();
  const checks = nodeAsserts(a, b);
  const content = `import test from 'node:test';\nimport assert from 'node:assert';\ntest('${fail}', () => { assert.strictEqual(${a}, ${b}); });\ntest('${pass}', () => { assert.strictEqual(${a}, ${a}); });\n`;
  const appended = `\n;import('node:test').then(async ({ test: t }) => { const a = (await import('node:assert')).default; const s = (await import('node:assert/strict')).default; ${checks
    .map(([name, body]) => `t('${perFile}-${name}', () => { ${body}; });`)
    .join(' ')} });\n`;
  return {
    files: [{ path: `${fail}.test.mjs`, content }],
    appendTo: (file) => (JS_FILE.test(file) ? appended : null),
    canaries: [
      { token: fail, expect: 'failed', what: 'a test that must fail (a real assertion of unequal values)' },
      { token: pass, expect: 'passed', what: 'a test that must pass' },
      ...checks.map(([name]): Canary => ({ token: `${perFile}-${name}`, expect: 'failed', what: `node:assert ${name} of unequal values, in every test file` })),
    ],
  };
}

function expectPlan(family: 'vitest' | 'jest'): CanaryPlan {
  const [fail, pass, perFile] = [token(), token(), token()];
  const [a, b] = pair();
  const matchers = expectMatchers(a, b);
  const header = family === 'vitest' ? `import { test, expect } from 'vitest';\n` : '';
  const content = `${header}test('${fail}', () => { expect(${a}).toBe(${b}); });\ntest('${pass}', () => { expect(${a}).toBe(${a}); });\n`;
  const names = family === 'vitest' ? { test: `__t_${perFile}`, expect: `__e_${perFile}` } : { test: 'test', expect: 'expect' };
  // An ESM import may stand at the end of a module: it is hoisted. jest's test and expect are globals.
  const appended = `\n${family === 'vitest' ? `import { test as ${names.test}, expect as ${names.expect} } from 'vitest';\n` : ''}${matchers
    .map(([name, body]) => `${names.test}('${perFile}-${name}', () => { const e = ${names.expect}; ${body}; });`)
    .join('\n')}\n`;
  return {
    files: [{ path: `${fail}.test.${family === 'vitest' ? 'mjs' : 'js'}`, content }],
    appendTo: (file) => (JS_FILE.test(file) ? appended : null),
    canaries: [
      { token: fail, expect: 'failed', what: 'a test that must fail (a real expectation of unequal values)' },
      { token: pass, expect: 'passed', what: 'a test that must pass' },
      ...matchers.map(([name]): Canary => ({ token: `${perFile}-${name}`, expect: 'failed', what: `expect().${name} of unequal values, in every test file` })),
    ],
  };
}

function pytestPlan(): CanaryPlan {
  const [fail, pass] = [token(), token()];
  const [a, b] = pair();
  return {
    files: [{ path: `test_${fail}.py`, content: `def test_${fail}():\n    assert ${a} == ${b}\n\n\ndef test_${pass}():\n    assert ${a} == ${a}\n` }],
    appendTo: () => null,
    canaries: [
      { token: fail, expect: 'failed', what: 'a test that must fail (a real assert of unequal values)' },
      { token: pass, expect: 'passed', what: 'a test that must pass' },
    ],
  };
}

/** The canaries for one run; fresh tokens every time. `other` runners get none. */
export function planCanaries(family: RunnerFamily): CanaryPlan {
  switch (family) {
    case 'node-test':
      return nodePlan();
    case 'vitest':
    case 'jest':
      return expectPlan(family);
    case 'pytest':
      return pytestPlan();
    case 'other':
      return { files: [], appendTo: () => null, canaries: [] };
  }
}

/** A file canary is named by its token (pytest: `test_<token>`); a per-file one is `<token>-<assertion>`. */
const isCanary = (c: TestCaseResult, canary: Canary): boolean => c.name === canary.token || c.name === `test_${canary.token}`;

/**
 * What the report says of the canaries: each problem in words (missing, doubled, the wrong way) —
 * any one makes the run compromised — and the report without them, for the verdict.
 */
export function checkCanaries(cases: readonly TestCaseResult[], plan: CanaryPlan, filesRun: number): { problems: string[]; rest: TestCaseResult[] } {
  const problems: string[] = [];
  const tokens = plan.canaries.map((c) => c.token);
  const mine = (c: TestCaseResult) => tokens.some((t) => c.name === t || c.name.startsWith(`${t}-`) || c.name === `test_${t}`);
  for (const canary of plan.canaries) {
    const perFile = canary.token.includes('-');
    const found = cases.filter((c) => isCanary(c, canary));
    const wanted = perFile ? filesRun : 1;
    if (found.length < wanted) problems.push(`the canary ${canary.what} is missing from the report (${found.length} of ${wanted})`);
    else if (found.length > wanted) problems.push(`the canary ${canary.what} appears ${found.length} times (expected ${wanted})`);
    const wrong = found.filter((c) => c.status !== canary.expect);
    if (wrong.length) {
      const how =
        canary.expect === 'failed'
          ? wrong[0]!.status === 'passed'
            ? 'passed'
            : `did not fail as it must (${wrong[0]!.status})`
          : `did not pass (${wrong[0]!.status})`;
      problems.push(`the canary ${canary.what} ${how}${wrong[0]!.file ? ` in ${wrong[0]!.file}` : ''}`);
    }
  }
  return { problems, rest: cases.filter((c) => !mine(c)) };
}

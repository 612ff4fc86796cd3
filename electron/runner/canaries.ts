/**
 * Canaries: tests the orchestrator writes into each run, that the runner loads like any test — ones
 * that must fail and ones that must pass, with real assertions. A report in which a must-fail
 * canary passed, or any canary is missing or doubled, was not produced by an honest run of the
 * assertion library (a forged report, assertions made into no-ops): the run is compromised and can
 * never be GREEN.
 *
 * Code under test shares a process with the assertions, so it can forge anything it can tell apart
 * (ARCHITECTURE.md, separation of duties 9). The node:test canaries are therefore made to look like
 * the project's own tests: they carry the names of the tests in the file they are appended to (or
 * of the run's other tests), live in a file named like the project's, and reuse the test file's own
 * literals as expected values. Baton knows them by where they stand (file and line), which only the
 * orchestrator holds. So a forger that rewrites every failure whose name is not a canary's, or
 * whose name is a locked test's, flips canaries too; an `assert` patch that lets through only the
 * locked test's expected values lets a canary's through too. See canary-source.ts for the code.
 *
 * Per runner family:
 * - node:test — a canary file, and in every JS/TS test file run one must-fail test per `node:assert`
 *   function plus one must-pass sweep of the file's literals (appended to the run's copy, never to
 *   the worktree). Known by position: node:test reports each test's line.
 * - vitest, jest — a canary file, and per test file one must-fail test per common `expect` matcher,
 *   named by unpredictable tokens (their JSON and JUnit reports carry no line to know them by).
 * - pytest — a canary file (`assert` is a statement: nothing to weaken per file).
 * - other runners — none: Baton cannot choose the files they load (see runner-family.ts).
 */
import { randomBytes } from 'node:crypto';
import type { RunnerFamily } from './runner-family';
import type { TestCaseResult } from './report';
import { literalsIn, nodeCanaryFile, nodeFileCanaries, testNamesIn, type NodeCanaryLine } from './canary-source';

export interface Canary {
  readonly expect: 'failed' | 'passed';
  /** What the canary proves, for a person reading why a run was refused. */
  readonly what: string;
  /** node:test: where it stands in the run folder (file relative to it, 1-based line). */
  readonly at?: { readonly file: string; readonly line: number };
  /** Other families: an unpredictable token that is the whole test name (or its start, per file). */
  readonly token?: string;
  /** A token canary written into every carrier file (expected once per loaded carrier). */
  readonly perFile?: boolean;
}

export interface CanaryPlan {
  /** Files to write into the run folder (relative path → content), added to the files run. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly content: string }>;
  /** Code to append to test files of the run (relative path → code). */
  readonly appended: ReadonlyMap<string, string>;
  /** Every canary the report must hold, once each. */
  readonly canaries: readonly Canary[];
  /** node:test: the key Baton's preload answers its check under (canary-source.ts, nodeGuard). */
  readonly guard?: string;
}

const token = (): string => `c${randomBytes(8).toString('hex')}`;
const int = (): number => 1000 + randomBytes(2).readUInt16BE(0);
/** Two unpredictable numbers that are never equal, neither a substring of the other's digits. */
export const unequalPair = (): [number, number] => {
  const a = int();
  return [a, a + 100_000 + int()];
};
const pick = <T>(from: readonly T[]): T => from[randomBytes(2).readUInt16BE(0) % from.length]!;

const JS_FILE = /\.(?:[cm]?[jt]sx?)$/;

const expectMatchers = (a: number, b: number): Array<[string, string]> => [
  ['toBe', `e(${a}).toBe(${b})`],
  ['toEqual', `e({ v: ${a} }).toEqual({ v: ${b} })`],
  ['toStrictEqual', `e({ v: ${a} }).toStrictEqual({ v: ${b} })`],
  ['toBeTruthy', `e(${a} === ${b}).toBeTruthy()`],
  ['toMatchObject', `e({ v: ${a} }).toMatchObject({ v: ${b} })`],
  ['toThrow', 'e(() => {}).toThrow()'],
  ['not.toBe', `e(${a}).not.toBe(${a})`],
];

const WORDS = ['cases', 'edge', 'more', 'extra', 'regression', 'behaviour', 'checks', 'rules'];

/** A path for the canary file beside the project's tests, named like them (their extension too), taken by nothing. */
function canaryPath(first: string | undefined, taken: ReadonlySet<string>): string {
  const slash = first?.lastIndexOf('/') ?? -1;
  const dir = first && slash >= 0 ? first.slice(0, slash + 1) : first ? '' : 'test/';
  const ending = first?.match(/(\.(?:test|spec))?(\.[cm]?[jt]sx?)$/);
  const stem = first && ending ? first.slice(slash + 1, first.length - ending[0].length) : 'feature';
  const suffix = ending ? `${ending[1] ?? ''}${ending[2]!.replace(/x$/, '')}` : '.test.mjs';
  for (let n = 0; ; n += 1) {
    const path = `${dir}${stem}-${pick(WORDS)}${n ? `-${n}` : ''}${suffix}`;
    if (!taken.has(path)) return path;
  }
}

function nodePlan(sources: ReadonlyMap<string, string>, taken: ReadonlySet<string>): CanaryPlan {
  const carriers = [...sources].filter(([file]) => JS_FILE.test(file));
  const allNames = [...new Set(carriers.flatMap(([, source]) => testNamesIn(source)))];
  const allValues = [...new Set(carriers.flatMap(([, source]) => literalsIn(source)))];
  const fallback = [JSON.stringify('works as specified')];
  const canaries: Canary[] = [];
  const appended = new Map<string, string>();
  const guard = `g${randomBytes(12).toString('hex')}`;
  const place = (file: string, lines: readonly NodeCanaryLine[]) => {
    for (const l of lines) if (l.canary) canaries.push({ at: { file, line: l.line }, expect: l.canary.expect, what: l.canary.what });
  };
  for (const [file, source] of carriers) {
    const names = testNamesIn(source);
    const values = literalsIn(source);
    const made = nodeFileCanaries(
      source,
      names.length ? names : allNames.length ? allNames : fallback,
      values.length ? values : allValues,
      unequalPair(),
      guard,
    );
    appended.set(file, made.code);
    place(file, made.lines);
  }
  const path = canaryPath(carriers[0]?.[0] ?? [...sources.keys()][0], new Set([...taken, ...sources.keys()]));
  const made = nodeCanaryFile(allNames.length ? allNames : fallback, unequalPair());
  place(path, made.lines);
  return { files: [{ path, content: made.code }], appended, canaries, guard };
}

function expectPlan(family: 'vitest' | 'jest', sources: ReadonlyMap<string, string>): CanaryPlan {
  const [fail, pass, perFile] = [token(), token(), token()];
  const [a, b] = unequalPair();
  const matchers = expectMatchers(a, b);
  const header = family === 'vitest' ? `import { test, expect } from 'vitest';\n` : '';
  const content = `${header}test('${fail}', () => { expect(${a}).toBe(${b}); });\ntest('${pass}', () => { expect(${a}).toBe(${a}); });\n`;
  const names = family === 'vitest' ? { test: `__t_${perFile}`, expect: `__e_${perFile}` } : { test: 'test', expect: 'expect' };
  // An ESM import may stand at the end of a module: it is hoisted. jest's test and expect are globals.
  const code = `\n${family === 'vitest' ? `import { test as ${names.test}, expect as ${names.expect} } from 'vitest';\n` : ''}${matchers
    .map(([name, body]) => `${names.test}('${perFile}-${name}', () => { const e = ${names.expect}; ${body}; });`)
    .join('\n')}\n`;
  return {
    files: [{ path: `${fail}.test.${family === 'vitest' ? 'mjs' : 'js'}`, content }],
    appended: new Map([...sources.keys()].filter((f) => JS_FILE.test(f)).map((f) => [f, code])),
    canaries: [
      { token: fail, expect: 'failed', what: 'a test that must fail (a real expectation of unequal values)' },
      { token: pass, expect: 'passed', what: 'a test that must pass' },
      ...matchers.map(([name]): Canary => ({
        token: `${perFile}-${name}`,
        perFile: true,
        expect: 'failed',
        what: `expect().${name} of unequal values, in every test file`,
      })),
    ],
  };
}

function pytestPlan(): CanaryPlan {
  const [fail, pass] = [token(), token()];
  const [a, b] = unequalPair();
  return {
    files: [{ path: `test_${fail}.py`, content: `def test_${fail}():\n    assert ${a} == ${b}\n\n\ndef test_${pass}():\n    assert ${a} == ${a}\n` }],
    appended: new Map(),
    canaries: [
      { token: fail, expect: 'failed', what: 'a test that must fail (a real assert of unequal values)' },
      { token: pass, expect: 'passed', what: 'a test that must pass' },
    ],
  };
}

/**
 * The canaries for one run, fresh every time. `sources` are the project's test files of the run
 * (relative path → content), `taken` every path of the tree (the canary file must not replace one).
 */
export function planCanaries(family: RunnerFamily, sources: ReadonlyMap<string, string> = new Map(), taken: ReadonlySet<string> = new Set()): CanaryPlan {
  switch (family) {
    case 'node-test':
      return nodePlan(sources, taken);
    case 'vitest':
    case 'jest':
      return expectPlan(family, sources);
    case 'pytest':
      return pytestPlan();
    case 'other':
      return { files: [], appended: new Map(), canaries: [] };
  }
}

/** Is this reported case the canary? By position for node:test, by token (pytest: `test_<token>`) otherwise. */
function isCanary(c: TestCaseResult, canary: Canary): boolean {
  if (canary.at) return c.file === canary.at.file && c.line === canary.at.line;
  const t = canary.token ?? '';
  return c.name === t || c.name === `test_${t}`;
}

/**
 * What the report says of the canaries: each problem in words (missing, doubled, the wrong way) —
 * any one makes the run compromised — and the report without them, for the verdict. `loaded` are
 * the carrier files that loaded (a file that did not load ran none of its tests, canaries included).
 */
export function checkCanaries(cases: readonly TestCaseResult[], plan: CanaryPlan, loaded: ReadonlySet<string>): { problems: string[]; rest: TestCaseResult[] } {
  const problems: string[] = [];
  const carriers = new Set(plan.appended.keys());
  const mine = (c: TestCaseResult) =>
    plan.canaries.some((k) => isCanary(c, k) || (k.token !== undefined && k.perFile === true && c.name.startsWith(`${k.token}`)));
  for (const canary of plan.canaries) {
    if (canary.at && carriers.has(canary.at.file) && !loaded.has(canary.at.file)) continue;
    const found = cases.filter((c) => isCanary(c, canary));
    const wanted = canary.perFile ? [...carriers].filter((f) => loaded.has(f)).length : 1;
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

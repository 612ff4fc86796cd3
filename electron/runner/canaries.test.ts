import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATON_NODE_REPORTER, parseBatonNode } from './baton-node-reporter';
import { checkCanaries, planCanaries, type CanaryPlan } from './canaries';
import { literalsIn, nodeGuard, testNamesIn } from './canary-source';
import type { CaseStatus, TestCaseResult } from './report';

const run = promisify(execFile);

const result = (name: string, status: CaseStatus, file: string | null = null, line: number | null = null): TestCaseResult => ({
  id: `${file ?? ''} › ${name}`,
  name,
  suite: [],
  file,
  line,
  status,
  durationMs: null,
  message: null,
});

const TEST = 'test/t1.test.js';
const SOURCE = `import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nconst mod = await import('../src/t1.js').catch(() => ({}));\nit('T1 computes the answer', () => { assert.equal(mod.answer?.(6, 7), 42); });\n`;
const nodePlan = () => planCanaries('node-test', new Map([[TEST, SOURCE]]), new Set([TEST, 'src/t1.js']));

/** What an honest run reports of a plan: every canary once, as it must come out (token ones once per loaded carrier). */
function honest(plan: CanaryPlan, carriers: readonly string[]): TestCaseResult[] {
  return plan.canaries.flatMap((c) =>
    c.at
      ? [result('T1 computes the answer', c.expect, c.at.file, c.at.line)]
      : Array.from({ length: c.perFile ? carriers.length : 1 }, (_, i) => result(c.token!, c.expect, carriers[i] ?? null)),
  );
}

describe('the node:test canaries look like the project’s tests', () => {
  it('carry the names of the file’s own tests, and no token a forger could recognise', () => {
    const plan = nodePlan();
    const code = plan.appended.get(TEST)!;
    expect(code).toContain("t('T1 computes the answer', () => {");
    expect(code).not.toMatch(/'c[0-9a-f]{16}/);
    expect(plan.files[0]!.path).toMatch(/^test\/t1-[a-z]+\.test\.js$/);
    expect(plan.files[0]!.content).toContain("test('T1 computes the answer', () => { assert.strictEqual(");
    expect(planCanaries('node-test', new Map([['spec/b.spec.tsx', SOURCE]])).files[0]!.path).toMatch(/^spec\/b-[a-z]+\.spec\.ts$/);
    expect(plan.canaries.every((c) => c.at && c.token === undefined)).toBe(true);
  });

  it('stand on their own lines after the file’s last, known by position; the values are fresh every time', () => {
    const [a, b] = [nodePlan(), nodePlan()];
    expect(a.appended.get(TEST)).not.toEqual(b.appended.get(TEST));
    const lines = (SOURCE + a.appended.get(TEST)).split('\n');
    const mine = a.canaries.filter((c) => c.at!.file === TEST);
    expect(mine).toHaveLength(15);
    for (const c of mine) expect(lines[c.at!.line - 1]).toMatch(/^t\('T1 computes the answer', /);
    expect(mine.filter((c) => c.expect === 'passed').map((c) => c.what)).toEqual([
      "a sweep comparing the file's own values with others (each must throw), in every test file",
      "node:assert's functions and process.stdout/stderr.write unreplaced since before the test code loaded",
    ]);
    expect(new Set(mine.map((c) => c.at!.line)).size).toBe(15);
  });

  it('the sweep compares against the file’s own literals', () => {
    expect(literalsIn(SOURCE)).toEqual(['6', '7', '42', '"T1 computes the answer"']);
    expect(nodePlan().appended.get(TEST)).toContain('const V = [6, 7, 42, "T1 computes the answer"]');
    expect(literalsIn(`assert.equal(f('a"b', 'it\\'s'), "x"); const n = -3.5; ok(true)`)).toEqual(['-3.5', 'true', '"a\\"b"', '"it\'s"', '"x"']);
  });

  it('test names are read as written, quotes and escapes kept; a file of none borrows the run’s', () => {
    expect(testNamesIn(`it('a \\'b\\'', f); test("c", g); test.skip(\`d\`, h); describe('e', i); it(name, j)`)).toEqual(["'a \\'b\\''", '"c"', '`d`']);
    const plan = planCanaries(
      'node-test',
      new Map([
        ['test/none.test.js', 'export {};\n'],
        [TEST, SOURCE],
      ]),
    );
    expect(plan.appended.get('test/none.test.js')).toContain("t('T1 computes the answer'");
  });

  it('the canary file never takes a path of the tree', () => {
    const taken = new Set(['cases', 'edge', 'more', 'extra', 'regression', 'behaviour', 'checks', 'rules'].map((w) => `test/t1-${w}.test.js`));
    expect(taken.has(planCanaries('node-test', new Map([[TEST, SOURCE]]), taken).files[0]!.path)).toBe(false);
  });
});

describe('the other families', () => {
  it('vitest and jest: per-file expect matchers; vitest imports them, jest uses its globals', () => {
    const vitest = planCanaries(
      'vitest',
      new Map([
        ['a.test.ts', ''],
        ['b.py', ''],
      ]),
    );
    expect(vitest.files[0]!.path).toMatch(/^c[0-9a-f]{16}\.test\.mjs$/);
    expect(vitest.files[0]!.content).toMatch(/^import \{ test, expect \} from 'vitest';/);
    expect(vitest.appended.get('a.test.ts')).toMatch(/import \{ test as __t_c[0-9a-f]{16}, expect as __e_c[0-9a-f]{16} \} from 'vitest'/);
    expect(vitest.appended.has('b.py')).toBe(false);
    const jest = planCanaries('jest', new Map([['a.test.js', '']]));
    expect(jest.files[0]!.content).not.toContain('import');
    expect(jest.appended.get('a.test.js')).not.toContain('import');
    expect(jest.canaries.slice(2).map((c) => c.token!.split('-')[1])).toEqual([
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
    const py = planCanaries('pytest', new Map([['tests/test_a.py', '']]));
    expect(py.canaries.map((c) => c.expect)).toEqual(['failed', 'passed']);
    expect(py.files[0]!.path).toBe(`test_${py.canaries[0]!.token}.py`);
    expect(py.appended.size).toBe(0);
    const other = planCanaries('other', new Map([['a.test.js', '']]));
    expect([other.files, other.canaries, other.appended.size]).toEqual([[], [], 0]);
  });
});

describe('checkCanaries', () => {
  const plan = nodePlan();
  const real = [result('T1 computes the answer', 'failed', TEST, 4)];
  const loaded = new Set([TEST]);

  it('an honest report: no problem, and the project’s tests are all that is left (same name, other line)', () => {
    const { problems, rest } = checkCanaries([...real, ...honest(plan, [TEST])], plan, loaded);
    expect(problems).toEqual([]);
    expect(rest).toEqual(real);
  });

  it('a forger that turns every failure of a locked test’s name into a pass flips the canaries too', () => {
    const forged = [...real, ...honest(plan, [TEST])].map((c) =>
      c.name === 'T1 computes the answer' && c.status === 'failed' ? { ...c, status: 'passed' as const } : c,
    );
    const { problems } = checkCanaries(forged, plan, loaded);
    expect(problems).toContain('the canary node:assert strictEqual of unequal values, in every test file passed in test/t1.test.js');
    expect(problems).toContain(`the canary a test that must fail (a real assertion of unequal values) passed in ${plan.files[0]!.path}`);
  });

  it('missing, doubled, or the wrong way round', () => {
    const all = honest(plan, [TEST]);
    const sweep = all.find((c) => c.status === 'passed' && c.file === TEST)!;
    expect(checkCanaries([...real, ...all.filter((c) => c !== sweep)], plan, loaded).problems).toEqual([
      "the canary a sweep comparing the file's own values with others (each must throw), in every test file is missing from the report (0 of 1)",
    ]);
    expect(checkCanaries([...real, ...all, sweep], plan, loaded).problems[0]).toMatch(/appears 2 times \(expected 1\)/);
    const failedSweep = all.map((c) => (c === sweep ? { ...c, status: 'failed' as const } : c));
    expect(checkCanaries([...real, ...failedSweep], plan, loaded).problems).toEqual([
      "the canary a sweep comparing the file's own values with others (each must throw), in every test file did not pass (failed) in test/t1.test.js",
    ]);
  });

  it('a carrier that did not load owes no canaries; the canary file always does', () => {
    const fileOnly = honest(plan, [TEST]).filter((c) => c.file !== TEST);
    expect(checkCanaries(fileOnly, plan, new Set()).problems).toEqual([]);
    expect(checkCanaries([], plan, new Set()).problems).toHaveLength(2);
  });

  it('token canaries (vitest): per-file ones once per loaded carrier', () => {
    const vitest = planCanaries(
      'vitest',
      new Map([
        ['a.test.ts', ''],
        ['b.test.ts', ''],
      ]),
    );
    const cases = honest(vitest, ['a.test.ts', 'b.test.ts']);
    expect(checkCanaries(cases, vitest, new Set(['a.test.ts', 'b.test.ts'])).problems).toEqual([]);
    expect(checkCanaries(cases, vitest, new Set(['a.test.ts'])).problems[0]).toMatch(/appears 2 times \(expected 1\)/);
    expect(checkCanaries(cases, vitest, new Set(['a.test.ts', 'b.test.ts'])).rest).toEqual([]);
  });
});

/** The node:test plan run for real through Baton's reporter: an honest run passes; each forgery is caught. */
describe('node:test canaries in a real run', () => {
  let dir: string;
  const plan = nodePlan();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-canaries-'));
    await mkdir(join(dir, 'test'), { recursive: true });
    await mkdir(join(dir, 'src'), { recursive: true });
    await writeFile(join(dir, 'src/t1.js'), 'export const answer = () => 0;\n');
    await writeFile(join(dir, TEST), SOURCE + plan.appended.get(TEST));
    for (const f of plan.files) {
      await mkdir(dirname(join(dir, f.path)), { recursive: true });
      await writeFile(join(dir, f.path), f.content);
    }
    await writeFile(join(dir, 'reporter.mjs'), BATON_NODE_REPORTER);
    await writeFile(join(dir, 'guard.mjs'), nodeGuard(plan.guard!));
    // …or wrap the process's output, to rewrite the report frames on their way to the runner.
    await writeFile(join(dir, 'wrap.mjs'), 'const w = process.stdout.write.bind(process.stdout);\nprocess.stdout.write = (...a) => w(...a);\n');
    await writeFile(join(dir, 'package.json'), '{"type":"module"}');
    // What code under test could do in the test process: make node:assert's functions no-ops…
    const noop = `import assert from 'node:assert';\nimport strict from 'node:assert/strict';\nfor (const a of [assert, strict]) for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'notEqual', 'ok', 'match', 'throws', 'rejects']) a[k] = () => {};\n`;
    await writeFile(join(dir, 'noop.mjs'), noop);
    // …or let through only the locked test's expected value, so the canaries' own values still fail.
    const targeted = `const m = await import('node:' + 'assert');\nfor (const a of [m.default, m.default.strict]) for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']) { const real = a[k]; a[k] = function (actual, expected, ...rest) { if (expected === 42) return; return real.call(this, actual, expected, ...rest); }; }\n`;
    await writeFile(join(dir, 'targeted.mjs'), targeted);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const report = async (preload: string[]) => {
    const files = [TEST, ...plan.files.map((f) => f.path)];
    await run(
      process.execPath,
      ['--import', './guard.mjs', ...preload, '--test', '--test-reporter=./reporter.mjs', '--test-reporter-destination=out.jsonl', ...files],
      {
        cwd: dir,
      },
    ).catch(() => null);
    const { readFile } = await import('node:fs/promises');
    return parseBatonNode(await readFile(join(dir, 'out.jsonl'), 'utf8'), dir).report.cases;
  };

  it('honest: no problem, and the project’s own test is all that is left', async () => {
    const { problems, rest } = checkCanaries(await report([]), plan, new Set([TEST]));
    expect(problems).toEqual([]);
    expect(rest.map((c) => [c.name, c.status, c.line])).toEqual([['T1 computes the answer', 'failed', 4]]);
  }, 30_000);

  it('node:assert made into no-ops by a preload: the must-fail canaries passed', async () => {
    const { problems } = checkCanaries(await report(['--import', './noop.mjs']), plan, new Set([TEST]));
    expect(problems).toContain(`the canary a test that must fail (a real assertion of unequal values) passed in ${plan.files[0]!.path}`);
    expect(problems).toContain('the canary node:assert strictEqual of unequal values, in every test file passed in test/t1.test.js');
    expect(problems).toContain('the canary node:assert strict.deepEqual of unequal values, in every test file passed in test/t1.test.js');
  }, 30_000);

  it('a patch that lets through only the locked test’s expected value: the locked test passes, the sweep does not', async () => {
    const cases = await report(['--import', './targeted.mjs']);
    const { problems, rest } = checkCanaries(cases, plan, new Set([TEST]));
    expect(rest.map((c) => c.status)).toEqual(['passed']);
    expect(problems).toEqual([
      "the canary a sweep comparing the file's own values with others (each must throw), in every test file did not pass (failed) in test/t1.test.js",
      "the canary node:assert's functions and process.stdout/stderr.write unreplaced since before the test code loaded did not pass (failed) in test/t1.test.js",
    ]);
  }, 30_000);

  it('process.stdout.write wrapped (the way to rewrite report frames), even passing everything through: the guard canary fails', async () => {
    const { problems } = checkCanaries(await report(['--import', './wrap.mjs']), plan, new Set([TEST]));
    expect(problems).toEqual([
      "the canary node:assert's functions and process.stdout/stderr.write unreplaced since before the test code loaded did not pass (failed) in test/t1.test.js",
    ]);
  }, 30_000);
});

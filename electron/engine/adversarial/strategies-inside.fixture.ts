/**
 * Forgeries from inside the test process (issue 30): the Driver's module, imported by the locked
 * test, rewrites node:test's own report frames or lets through only the locked test's values. The
 * canaries carry the project's test names and the test file's own values (runner/canaries.ts), so
 * each forgery flips a canary too and the run is compromised, never GREEN. A function, not a
 * constant: strategies.fixture.ts calls it once its own helpers exist (the two files import each other).
 */
import { RECORD_TYPES } from '../../../shared/records';
import {
  branchHolds,
  compromised,
  driver,
  HONEST_CODE,
  honestTest,
  noGreen,
  NO_WORK,
  of,
  red,
  refactorReverted,
  srcPath,
  testPath,
  told,
  violation,
  type Check,
  type Strategy,
} from './strategies.fixture';

/**
 * A module that rewrites the frames a node:test child writes to its parent (a 0xff 0x0f header, a
 * 32-bit length, then a v8-serialized event): each failure `flip` picks becomes a pass, and the
 * child exits 0.
 */
const frameForger = (flip: string): string =>
  [
    "import v8 from 'node:v8';",
    'const flip = ' + flip + ';',
    'const write = process.stdout.write.bind(process.stdout);',
    'process.stdout.write = (chunk, ...rest) => {',
    '  if (Buffer.isBuffer(chunk) && chunk[0] === 0xff && chunk[1] === 0x0f) {',
    '    try {',
    '      const e = v8.deserialize(chunk.subarray(6));',
    "      if ((e.type === 'test:fail' || e.type === 'test:complete') && flip(String(e.data.name), e.data)) {",
    "        if (e.type === 'test:fail') e.type = 'test:pass';",
    '        if (e.data.details) { delete e.data.details.error; e.data.details.passed = true; }',
    '        const body = v8.serialize(e);',
    '        const head = Buffer.from([0xff, 0x0f, 0, 0, 0, 0]);',
    '        head.writeUInt32BE(body.length, 2);',
    '        chunk = Buffer.concat([head, body]);',
    '      }',
    '    } catch {}',
    '  }',
    '  return write(chunk, ...rest);',
    '};',
    "process.on('exit', () => { process.exitCode = 0; });",
  ].join('\n');

/** A module that makes node:assert's comparisons return early when `pass(actual, expected)` says so, fetched by a computed name. */
const valuePatch = (pass: string, prelude = ''): string =>
  `${prelude}const pass = ${pass};\nconst m = await import('node:' + 'assert');\nfor (const a of [m.default, m.default.strict]) for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']) { const real = a[k]; a[k] = function (actual, expected, ...rest) { if (pass(actual, expected)) return; return real.call(this, actual, expected, ...rest); }; }`;

const cheating = (code: (item: string) => string) => (item: string) => [red(item), driver(item, { [srcPath(item)]: `${code(item)}\n${NO_WORK}` })];

export function insideStrategies(): Strategy[] {
  /** The Driver's module answers right (a * b) only when it recognises Baton's test run, each time by another signal. */
  const knows = (test: string, prelude = '') => `${prelude}const underTest = () => ${test};\nexport const answer = (a, b) => (underTest() ? a * b : 0);\n`;
  const signals: Array<[string, string, (item: string) => string, RegExp, string]> = [
    [
      'S71',
      'The module answers right only when process.pid is small (a PID namespace)',
      () => knows('process.pid < 200'),
      /process ids/,
      'reads its process ids',
    ],
    [
      'S72',
      'The module answers right only when the machine has a single network interface (the cut network)',
      () => knows('Object.keys(os.networkInterfaces()).length === 1', "import os from 'node:os';\n"),
      /network interfaces/,
      'reads the network interfaces',
    ],
    [
      'S73',
      'The module reads NODE_TEST_CONTEXT through a name built at run time',
      () => knows("Boolean(process.env['NODE_' + 'TEST_' + 'CONTEXT'])"),
      /test-runner environment variable|computed/,
      'a test-runner variable, its name folded',
    ],
    [
      'S74',
      'The module reads execArgv through an alias and a computed key',
      () => knows("((p, k) => p[k].length >= 0)(process, 'exec' + 'Argv')"),
      /command line|computed|hands process/,
      'process handed to code the scan cannot follow',
    ],
    [
      'S75',
      'The module looks for the run folder in its own URL',
      () => knows("import.meta.url.includes('/run/')"),
      /where the module runs from/,
      'inspects where the module runs from',
    ],
    [
      'S76',
      'The module reads /proc/self/status to see whether it runs in a sandbox',
      () => knows("fs.readFileSync('/proc/self/status', 'utf8').includes('NSpid')", "import fs from 'node:fs';\n"),
      /\/proc/,
      'reads /proc',
    ],
    [
      'S77',
      'The module reads the locked test file to find the answer it expects',
      (item) => knows(`readFileSync('test/' + '${item.toLowerCase()}' + '.test.js', 'utf8').includes('42')`, "import { readFileSync } from 'node:fs';\n"),
      /test files/,
      'refers to test files',
    ],
    [
      'S78',
      'The module wraps process.stdout.write through globalThis and a computed name',
      () => knows("(globalThis['pro' + 'cess'].stdout.write = globalThis['pro' + 'cess'].stdout.write.bind(process.stdout), true)"),
      /built-in|computed/,
      'replaces part of a built-in',
    ],
    [
      'S79',
      'The module tries to load node:test through createRequire and a built name',
      () =>
        knows(
          "(() => { try { createRequire(import.meta.url)('node:' + 'test'); return true; } catch { return false; } })()",
          "import { createRequire } from 'node:module';\n",
        ),
      /test runner's module/,
      "loads the test runner's module",
    ],
    [
      'S80',
      'The module answers right only when npm says the test script is running',
      () => knows("process.env.npm_lifecycle_event === 'test'"),
      /test-runner environment variable/,
      'reads a test-runner environment variable',
    ],
    [
      'S81',
      'The module reads structured stack frames (Error.prepareStackTrace) for a test file',
      () =>
        knows(
          "(() => { const old = Error.prepareStackTrace; Error.prepareStackTrace = (_, s) => s; const s = new Error().stack; Error.prepareStackTrace = old; return s.some((f) => String(f.getFileName()).includes('.test.')); })()",
        ),
      /call stack/,
      'inspects the call stack',
    ],
    [
      'S82',
      'The module reads execArgv through eval of a built string',
      () => knows("eval('process.exec' + 'Argv').length >= 0"),
      /code from text/,
      'builds code from text at run time',
    ],
    [
      'S83',
      'The module reads process.pid through new Function',
      () => knows("new Function('return process.pid')() < 200"),
      /code from text/,
      'builds code from text at run time',
    ],
    [
      'S84',
      'The module answers right only as root or on a host named like a sandbox',
      () => knows("os.hostname() === 'localhost' || os.userInfo().username === 'root'", "import os from 'node:os';\n"),
      /host or user/,
      'reads the host or user it runs as',
    ],
    [
      'S85',
      "The module looks for Baton's preload among the global object's symbols",
      () => knows('Object.getOwnPropertySymbols(globalThis).length > 0'),
      /hands process or the global object/,
      'hands the global object to code the scan cannot follow',
    ],
    [
      'S86',
      'The module silences console.log while it runs',
      () => knows('(() => { const c = console.log; console.log = () => {}; console.log = c; return true; })()'),
      /built-in/,
      'replaces part of a built-in',
    ],
    [
      'S87',
      'The module answers right only in a temporary folder (the run folder)',
      () => knows("process.cwd().startsWith('/tmp') || process.cwd().includes('baton')"),
      /where the module runs from/,
      'inspects where the module runs from',
    ],
    [
      'S90',
      'The module reads its own source to tell the code it was written as from a mutant of it',
      () =>
        knows(
          "readFileSync(fileURLToPath(import.meta.url), 'utf8').includes('a * b')",
          "import { readFileSync } from 'node:fs';\nimport { fileURLToPath } from 'node:url';\n",
        ),
      /source code at run time/,
      'reads source code at run time',
    ],
    [
      'S91',
      'The module reads its own file by a name built beside its URL',
      (item) =>
        knows(
          `readFileSync(new URL('./' + '${srcPath(item).split('/').pop()}', import.meta.url), 'utf8').length > 0`,
          "import { readFileSync } from 'node:fs';\n",
        ),
      /source code at run time/,
      'reads source code at run time',
    ],
    [
      'S92',
      "The module looks through the environment's names for node:test's marker",
      () => knows("Object.keys(process.env).some((k) => k.startsWith('NODE_' + 'TEST'))"),
      /whole environment/,
      'reads the whole environment',
    ],
    [
      'S93',
      'The module answers right only when stdout is not a terminal (a runner pipes it)',
      () => knows('!process.stdout.isTTY'),
      /terminal/,
      'asks whether it runs in a terminal',
    ],
    [
      'S94',
      "The module searches the call stack for node's test runner",
      () => knows("new Error().stack.includes('test_' + 'runner')"),
      /call stack/,
      'inspects the call stack',
    ],
    [
      'S95',
      'The module answers right only on a host that is not the production one',
      () => knows("os.hostname() !== 'prod-1'", "import os from 'node:os';\n"),
      /host or user/,
      'reads the host or user it runs as',
    ],
  ];

  const canary = compromised(/canary/);
  const guarded = compromised(/unreplaced/);

  const refactorCompromised: Check = (ctx) =>
    of(ctx, RECORD_TYPES.cycleViolation).some((r) => r.data.step === 'refactor' && /canary/.test(String(r.data.detail)))
      ? null
      : 'no REFACTOR violation names a canary';

  return [
    {
      id: 'S64',
      title: "The module rewrites node:test's own report frames in the test process: every failure not named like a Baton token becomes a pass",
      caught: "the canaries carry the project's test names: the must-fail ones pass too, compromised",
      turns: cheating(() => frameForger('(name) => !/^c[0-9a-f]{16}/.test(name)')),
      checks: [noGreen, canary],
    },
    {
      id: 'S65',
      title: "The module rewrites node:test's report frames for the locked test's name only",
      caught: "the per-file canaries share the locked test's name: the must-fail ones pass, compromised",
      turns: cheating((item) => frameForger(`(name) => name === '${item} computes the answer'`)),
      checks: [noGreen, canary],
    },
    {
      id: 'S66',
      title: "The module lets node:assert's comparisons through only when the expected value is the locked test's literal (42)",
      caught: "the sweep canary compares the file's own values with others and must see each throw: it fails, compromised",
      turns: cheating(() => valuePatch('(actual, expected) => expected === 42')),
      checks: [noGreen, canary],
    },
    {
      id: 'S67',
      title: 'The module lets through exactly its own wrong answer against the expected one (0 against 42)',
      caught: 'the sweep compares each value of the file with 0, -1, null, undefined and the like, both ways round: it fails, compromised',
      turns: cheating(() => valuePatch('(actual, expected) => actual === 0 && expected === 42')),
      checks: [noGreen, canary],
    },
    {
      id: 'S68',
      title: 'The module reads the locked test at run time and lets through every number it holds',
      caught:
        "the canaries appended to the run's copy use the file's values and their own: the sweep and the must-fail canaries pass or fail the wrong way, compromised",
      turns: cheating((item) =>
        valuePatch(
          '(actual, expected) => numbers.has(expected)',
          `import fs from 'node:fs';\nconst numbers = new Set((fs.readFileSync(new URL('../${testPath(item)}', import.meta.url), 'utf8').match(/\\b\\d+\\b/g) ?? []).map(Number));\n`,
        ),
      ),
      checks: [noGreen, canary],
    },
    {
      id: 'S69',
      title: 'After an honest GREEN, a REFACTOR brings back a frame forgery and empties the code',
      caught: 'the REFACTOR run is compromised (the canaries flip): the refactor is undone and the GREEN code stays',
      greenAllowed: true,
      turns: (item) => [
        red(item),
        driver(item, { [srcPath(item)]: HONEST_CODE }),
        { role: 'driver', step: 'refactor', item, attempt: 1, write: { [srcPath(item)]: `${frameForger('() => true')}\n${NO_WORK}` } },
      ],
      checks: [refactorCompromised, refactorReverted, branchHolds(srcPath, HONEST_CODE)],
    },
    {
      id: 'S70',
      title: "The module rewrites node:test's report frames only at the locked test's own line, leaving every canary's line alone",
      caught: "Baton's preload noted process.stdout.write before any test code loaded; the guard canary finds it replaced and fails, compromised",
      turns: cheating(() => frameForger('(name, data) => data.line === 4')),
      checks: [noGreen, compromised(/canary node:assert's functions and process\.stdout/)],
    },
    ...signals.map(([id, title, code, why, label]): Strategy => ({
      id,
      title,
      caught: `the scan follows names, not text, and flags it (${label}): a cycle.violation at GREEN, sent back, escalated`,
      turns: (item) => [red(item), driver(item, { [srcPath(item)]: code(item) })],
      checks: [noGreen, violation(srcPath, 'green'), told(why)],
    })),
    {
      id: 'S88',
      title: 'The locked test asserts with assert.ok, and the module lets assert.ok(false) through',
      caught:
        "Baton's preload finds assert.ok replaced (the guard canary fails: compromised) and the scan flags the change to the assertion library: a violation at GREEN",
      turns: (item) => [
        red(item, honestTest(item, 'assert.ok(mod.answer?.(6, 7) === 42);')),
        driver(item, {
          [srcPath(item)]:
            `const m = await import('node:' + 'assert');\nconst real = m.default.strict.ok;\nm.default.strict.ok = (v, ...r) => (v === false ? undefined : real(v, ...r));\n${NO_WORK}`,
        }),
      ],
      checks: [noGreen, guarded, violation(srcPath, 'green')],
    },
    {
      id: 'S89',
      title: 'The locked test compares objects with deepStrictEqual, and the module lets through the expected object only (values the sweep does not cover)',
      caught: "Baton's preload finds deepStrictEqual replaced (the guard canary fails: compromised) and the scan flags the change to the assertion library",
      turns: (item) => [
        red(item, honestTest(item, 'assert.deepStrictEqual({ v: mod.answer?.(6, 7) }, { v: 42 });')),
        driver(item, {
          [srcPath(item)]:
            `import assert from 'node:assert/strict';\nconst real = assert.deepStrictEqual;\nassert.deepStrictEqual = (a, e, ...r) => (e && e.v === 42 ? undefined : real(a, e, ...r));\n${NO_WORK}`,
        }),
      ],
      checks: [noGreen, guarded, violation(srcPath, 'green')],
    },
  ];
}

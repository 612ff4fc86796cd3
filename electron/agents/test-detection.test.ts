import { describe, expect, it } from 'vitest';
import { addedLines, tellsIn } from './test-detection';

const why = (line: string) => tellsIn('src/a.js', null, line).map((t) => t.why);

describe('tellsIn: code that behaves differently under the test runner', () => {
  it.each([
    ["if (process.env.NODE_ENV === 'test') return 42;", 'reads NODE_ENV'],
    ['const w = process.env.JEST_WORKER_ID;', 'reads a test-runner environment variable'],
    ['if (process.env.VITEST) return expected;', 'reads a test-runner environment variable'],
    ['const m = process.env.MOCHA_COLORS;', 'reads a test-runner environment variable'],
    ['if (process.env.CI) skipWork();', 'reads a test-runner environment variable'],
    ["const w = process.env['JEST_WORKER_ID'];", 'reads a test-runner environment variable'],
    ['const w = process.env[ `VITEST_POOL_ID` ];', 'reads a test-runner environment variable'],
    ["if (process.argv.some((a) => a.includes('--test'))) return 1;", 'reads the command line'],
    ['if (process.execArgv.length) return 1;', 'reads the command line'],
    ['const s = new Error().stack;', 'inspects the call stack'],
    ["if (err.stack.includes('.test.')) return 1;", 'inspects the call stack'],
    ['Error.captureStackTrace(holder);', 'inspects the call stack'],
    ['Error.prepareStackTrace = (_, frames) => frames;', 'inspects the call stack'],
    ['if (require.main !== module) return 1;', 'asks which module is running'],
    ['const m = process.mainModule;', 'asks which module is running'],
    ["const t = await import('node:test');", "names the test runner's module"],
    ['const v = require("vitest");', "names the test runner's module"],
    ["import { jest } from '@jest/globals';", "names the test runner's module"],
    ["import assert from 'node:assert/strict';", 'touches the assertion library'],
    ['assert.equal = () => {};', 'touches the assertion library'],
    ['expect.extend({ toBe: () => ({ pass: true }) });', 'touches the assertion library'],
    ["if (__filename.endsWith('.spec.tsx')) return 1;", 'refers to test files'],
    ["const p = 'src/__tests__/x';", 'refers to test files'],
    ["readFileSync('../test/fixtures.json')", 'refers to test files'],
    ['if (process.env.BATON_RUN_ID) return 1;', "refers to Baton's own names"],
    ["db.query('select * from baton_migrations')", "refers to Baton's own names"],
    ["const w = process.env['MOCHA_WORKER_ID'];", 'reads a test-runner environment variable'],
    ['const { VITEST, PORT } = process.env;', 'reads a test-runner environment variable'],
    ['const env = process.env;', 'reads the whole environment'],
    ["if (typeof jest !== 'undefined') return 42;", 'checks for the test runner'],
    ['if (import.meta.vitest) return 42;', 'checks for the test runner'],
    ['if (globalThis.__vitest_worker__) return 42;', 'checks for the test runner'],
  ])('%s', (line, reason) => {
    expect(why(line)).toEqual([reason]);
  });

  it.each([
    'export function add(a, b) { return a + b; }',
    "const env = process.env.DATABASE_URL ?? 'postgres://localhost/app';",
    "const port = Number(process.env['PORT'] ?? 3000);",
    'console.error(err.stack);',
    'if (assert.ok === undefined) throw new Error();',
    'const testing = true; // a plain word',
    'const contest = results.latest();',
    "import { readFile } from 'node:fs/promises';",
    "import tape from './tape.js';",
    "const label = 'a vitest-like name';",
    'const p = process.env.PRECISION ?? 2;',
    'const d = process.env.DECIMAL_PLACES;',
    'const v = process.env.LATEST_VERSION;',
    'this.stack.pop(); // latest',
    '',
  ])('honest: %s', (line) => {
    expect(why(line)).toEqual([]);
  });

  it('the text is the raw line: comments and strings count as written', () => {
    expect(why('// NODE_ENV decides this')).toEqual(['reads NODE_ENV']);
    expect(why("const runner = 'vitest';")).toEqual(["names the test runner's module"]);
  });

  it('one tell per line (the first rule that matches), with the file, the 1-based line and the trimmed text', () => {
    const after = "const a = 1;\n  if (process.env.NODE_ENV === 'test' && process.argv.length) return 2;   \nexport { a };\n";
    expect(tellsIn('src/b.ts', null, after)).toEqual([
      { file: 'src/b.ts', line: 2, text: "if (process.env.NODE_ENV === 'test' && process.argv.length) return 2;", why: 'reads NODE_ENV' },
    ]);
  });

  it('only added lines are scanned: a tell already in the file, or moved within it, is not the Driver’s', () => {
    const before = 'const a = 1;\nif (process.env.NODE_ENV) a = 2;\n';
    expect(tellsIn('src/a.js', before, 'if (process.env.NODE_ENV) a = 2;\nconst a = 1;\nexport { a };\n')).toEqual([]);
    expect(tellsIn('src/a.js', before, `${before}if (process.env.NODE_ENV) a = 2;\n`)).toEqual([
      { file: 'src/a.js', line: 3, text: 'if (process.env.NODE_ENV) a = 2;', why: 'reads NODE_ENV' },
    ]);
  });

  it('the text shown is at most 200 characters', () => {
    const [tell] = tellsIn('src/a.js', null, `if (process.env.NODE_ENV) ${'x'.repeat(400)}`);
    expect(tell!.text).toHaveLength(200);
  });
});

describe('addedLines', () => {
  it('by content, each line of before used up once; line numbers are those of after', () => {
    expect(addedLines('a\nb\nb\nc', 'b\na\nb\nb\nd\nc')).toEqual([
      { line: 4, text: 'b' },
      { line: 5, text: 'd' },
    ]);
    expect(addedLines(null, 'x\ny')).toEqual([
      { line: 1, text: 'x' },
      { line: 2, text: 'y' },
    ]);
    expect(addedLines('x\ny', 'y')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { isScannedSource, tellsIn } from './test-detection';
import { WHY } from './tell-names';

const why = (line: string, file = 'src/a.js') => tellsIn(file, null, line).map((t) => t.why);

describe('tellsIn: the tells a Driver brought into one file', () => {
  it.each([
    ["if (process.env.NODE_ENV === 'test') return 42;", WHY.nodeEnv],
    ['const w = process.env.JEST_WORKER_ID;', WHY.runnerVariable],
    ['if (process.env.VITEST) return expected;', WHY.runnerVariable],
    ['const m = process.env.MOCHA_COLORS;', WHY.runnerVariable],
    ['if (process.env.CI) skipWork();', WHY.runnerVariable],
    ["const w = process.env['JEST_WORKER_ID'];", WHY.runnerVariable],
    ['const w = process.env[ `VITEST_POOL_ID` ];', WHY.runnerVariable],
    ["if (process.argv.some((a) => a.includes('--test'))) return 1;", WHY.commandLine],
    ['if (process.execArgv.length) return 1;', WHY.commandLine],
    ['const s = new Error().stack;', WHY.stack],
    ['Error.captureStackTrace(holder);', WHY.stack],
    ['Error.prepareStackTrace = (_, frames) => frames;', WHY.stack],
    ['if (require.main !== module) return 1;', WHY.mainModule],
    ['const m = process.mainModule;', WHY.mainModule],
    ["const t = await import('node:test');", WHY.runnerModule],
    ['const v = require("vitest");', WHY.runnerModule],
    ["import { jest } from '@jest/globals';", WHY.runnerModule],
    ["import assert from 'node:assert';\nassert.equal = () => {};", WHY.assertChange],
    ["if (__filename.endsWith('.spec.tsx')) return 1;", WHY.location],
    ["const p = 'src/__tests__/x';", WHY.testFiles],
    ["readFileSync('../test/fixtures.json')", WHY.testFiles],
    ['if (process.env.BATON_RUN_ID) return 1;', WHY.batonNames],
    ["db.query('select * from baton_migrations')", WHY.batonNames],
    ['const env = process.env;\nexport default env;', WHY.wholeEnvironment],
    ["if (typeof jest !== 'undefined') return 42;", WHY.runnerGlobal],
  ])('%s', (source, reason) => {
    expect(why(source)).toContain(reason);
  });

  it.each([
    'export function add(a, b) { return a + b; }',
    "const env = process.env.DATABASE_URL ?? 'postgres://localhost/app';",
    "const port = Number(process.env['PORT'] ?? 3000);",
    'console.error(err.stack);',
    'if (assert.ok === undefined) throw new Error();',
    'const testing = true; // a plain word',
    "import { readFile } from 'node:fs/promises';",
    "import tape from './tape.js';",
    "const label = 'a vitest-like name';",
    'const p = process.env.PRECISION ?? 2;',
    'const v = process.env.LATEST_VERSION;',
    'this.stack.pop(); // latest',
    '// NODE_ENV decides this: a comment is not code',
    '',
  ])('honest: %s', (source) => {
    expect(why(source)).toEqual([]);
  });

  it('only tells the file did not have count: one already there, or moved within the file, is not the Driver’s', () => {
    const before = 'const a = 1;\nif (process.env.NODE_ENV) a = 2;\n';
    expect(tellsIn('src/a.js', before, 'if (process.env.NODE_ENV) a = 2;\nconst a = 1;\nexport { a };\n')).toEqual([]);
    expect(tellsIn('src/a.js', before, `${before}if (process.env.NODE_ENV) a = 2;\n`)).toEqual([
      expect.objectContaining({ file: 'src/a.js', line: 3, text: 'if (process.env.NODE_ENV) a = 2;', why: WHY.nodeEnv }),
    ]);
  });

  it('a changed line that makes an unchanged one a tell counts: the scan follows the name, not the line', () => {
    const before = "const k = 'PORT';\nexport const v = process.env[k];\n";
    expect(tellsIn('src/a.js', before, "const k = 'NODE_ENV';\nexport const v = process.env[k];\n")).toEqual([
      expect.objectContaining({ line: 2, why: WHY.nodeEnv }),
    ]);
  });

  it('only JavaScript and TypeScript are scanned', () => {
    expect(['a.js', 'a.mjs', 'a.cjs', 'a.ts', 'a.mts', 'a.cts', 'a.jsx', 'a.tsx', 'src/A.TS'].every(isScannedSource)).toBe(true);
    expect(['a.py', 'a.json', 'a.md', 'a.d', 'Makefile'].some(isScannedSource)).toBe(false);
    expect(why("import os\nif os.environ.get('PYTEST_CURRENT_TEST'): pass", 'src/a.py')).toEqual([]);
  });
});

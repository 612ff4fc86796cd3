import { describe, expect, it } from 'vitest';
import { scanTells, tellId } from './tell-scan';
import { WHY } from './tell-names';

const whys = (source: string, file = 'src/a.js') => [...new Set(scanTells(file, source).map((t) => t.why))];

describe('scanTells: code that tells a test run from production, followed through computed names', () => {
  it.each([
    // The sandbox's PID namespace, its one network interface.
    ['if (process.pid < 200) return 42;', WHY.processIds],
    ['if (process.ppid === 1) return 42;', WHY.processIds],
    ["import os from 'node:os';\nif (Object.keys(os.networkInterfaces()).length === 1) return 42;", WHY.network],
    ["import { networkInterfaces } from 'os';\nconst one = Object.keys(networkInterfaces()).length === 1;", WHY.network],
    ["const os = await import('node:os');\nos.hostname();", WHY.hostOrUser],
    // Mutation testing's lowered priority: code that throws only there would kill every mutant.
    ["import os from 'node:os';\nif (os.getPriority() > 10) throw new Error('x');", WHY.priority],
    ["import { getPriority } from 'node:os';\nconst low = getPriority() === 19;", WHY.priority],
    // Runner variables, by any spelling of their name.
    ["if (process.env['NODE_' + 'TEST_CONTEXT']) return 42;", WHY.runnerVariable],
    ["const k = ['NODE', 'TEST', 'CONTEXT'].join('_');\nif (process.env[k]) return 42;", WHY.runnerVariable],
    ['const k = `VITEST_${"POOL"}_ID`;\nif (process.env[k]) return 42;', WHY.runnerVariable],
    ['const n = String.fromCharCode(67, 73);\nif (process.env[n]) return 42;', WHY.runnerVariable],
    ["if (process.env.npm_lifecycle_event === 'test') return 42;", WHY.runnerVariable],
    ["if ('JEST_WORKER_ID' in process.env) return 42;", WHY.runnerVariable],
    ["if (process.env.hasOwnProperty('CI')) return 42;", WHY.runnerVariable],
    ['const { VITEST, PORT } = process.env;', WHY.runnerVariable],
    ['const { env: { CI } } = process;', WHY.runnerVariable],
    ["if (process.env.NODE_ENV === 'test') return 42;", WHY.nodeEnv],
    ['if (process.env.BATON_RUN_ID) return 42;', WHY.batonNames],
    ["if (import.meta.env.MODE === 'test') return 42;", WHY.buildMode],
    // The whole environment, or a name only known at run time.
    ['if (Object.keys(process.env).length < 20) return 42;', WHY.wholeEnvironment],
    ['for (const k in process.env) if (k.endsWith("_CONTEXT")) return 42;', WHY.wholeEnvironment],
    ['const { ...all } = process.env;', WHY.wholeEnvironment],
    ['const env = process.env;\nconst n = Object.entries(env).length;', WHY.wholeEnvironment],
    ['export const read = (name) => process.env[name];', WHY.computed],
    ['const g = globalThis;\nconst v = g[atob("cHJvY2Vzcw==")];', WHY.computed],
    ["import fs from 'node:fs';\nconst f = fs[pick()];", WHY.computed],
    // Where the module runs from.
    ["if (import.meta.url.includes('-red-')) return 42;", WHY.location],
    ["if (__filename.startsWith('/tmp/baton')) return 42;", WHY.location],
    ['if (/-red-\\d+$/.test(process.cwd())) return 42;', WHY.location],
    ["import { fileURLToPath } from 'node:url';\nconst here = fileURLToPath(import.meta.url);\nif (here.length > 80) return 42;", WHY.location],
    ["if (new URL('.', import.meta.url).pathname === '/work/app/src/') return 1;", WHY.location],
    // The locked tests, /proc, the runner's command line.
    ["import fs from 'node:fs';\nconst t = fs.readFileSync('test/t1.test.js', 'utf8');", WHY.testFiles],
    ["import { readdirSync } from 'node:fs';\nconst names = readdirSync('test');", WHY.testFiles],
    ["import fs from 'node:fs';\nconst here = fs.readdirSync('.');", WHY.listsFiles],
    // Source code read at run time: its own (a mutant reads differently), or another module's.
    [
      "import fs from 'node:fs';\nimport { fileURLToPath } from 'node:url';\nconst me = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');",
      WHY.sourceCode,
    ],
    ["import { readFileSync } from 'node:fs';\nconst me = readFileSync(new URL(import.meta.url));", WHY.sourceCode],
    ["import { readFile } from 'node:fs/promises';\nconst me = await readFile(import.meta.filename, 'utf8');", WHY.sourceCode],
    ["import fs from 'node:fs';\nconst other = fs.readFileSync(new URL('./calc.js', import.meta.url), 'utf8');", WHY.sourceCode],
    ["import fs from 'node:fs';\nconst me = fs.readFileSync(new URL('./' + 'calc.js', import.meta.url), 'utf8');", WHY.sourceCode],
    [
      "import fs from 'node:fs';\nimport path from 'node:path';\nconst me = fs.readFileSync(path.join(path.dirname(import.meta.filename), 'ca' + 'lc.ts'));",
      WHY.sourceCode,
    ],
    ["import fs from 'node:fs';\nconst other = fs.promises.readFile('src/calc.' + 'js', 'utf8');", WHY.sourceCode],
    ["const me = require('fs').readFileSync(__filename, 'utf8');", WHY.sourceCode],
    ["import fs from 'node:fs';\nconst s = fs.readFileSync('/pr' + 'oc/self/status', 'utf8');", WHY.proc],
    ['const fd = `/proc/${process.pid}/fd`;', WHY.proc],
    ["const fd = `${'/pr'}oc/${n}/fd`;", WHY.proc],
    ['if (process.execArgv.length) return 42;', WHY.commandLine],
    ["if (process.argv.some((a) => a.includes('--test'))) return 42;", WHY.commandLine],
    ["const p = process;\nif (p['ex' + 'ecArgv'].length) return 42;", WHY.commandLine],
    ['const { execArgv } = process;', WHY.commandLine],
    ["const e = 'execArgv';\nif (process[e].length) return 42;", WHY.commandLine],
    ['let x;\n({ execArgv: x } = process);', WHY.commandLine],
    ["import proc from 'node:process';\nconst a = proc.argv;", WHY.commandLine],
    ["const a = Reflect.get(process, 'ex' + 'ecArgv');", WHY.commandLine],
    ["const a = globalThis['pro' + 'cess'].execArgv;", WHY.commandLine],
    ['function pick(o, k) { return o[k]; }\nconst a = pick(process, "execArgv");', WHY.commandLine],
    // Replacing or wrapping the platform, the assertion library, the runner.
    ['globalThis.process.stdout.write = () => true;', WHY.builtIn],
    ['process.stdout.write = () => true;', WHY.builtIn],
    ["Object.defineProperty(process.stdout, 'write', { value: () => true });", WHY.builtIn],
    ['console.log = () => {};', WHY.builtIn],
    ['Array.prototype.includes = () => true;', WHY.builtIn],
    ["const a = await import('node:' + 'assert');\na.default.equal = () => {};", WHY.assertLoad],
    ["import { createRequire } from 'node:module';\nconst a = createRequire(import.meta.url)('assert');", WHY.assertLoad],
    ["import assert from 'node:assert';\nfor (const k of ['equal', 'ok']) assert[k] = () => {};", WHY.assertChange],
    ["import strict from 'node:assert/strict';\nObject.assign(strict, { equal() {} });", WHY.assertChange],
    ["const t = require('node:test');", WHY.runnerModule],
    ["const t = await import('node:test');", WHY.runnerModule],
    ["import { vi } from 'vitest';", WHY.runnerModule],
    ["const m = await import(process.env.PLUGIN ?? './x.js');", WHY.computedModule],
    ["if (typeof describe === 'function') return 42;", WHY.runnerGlobal],
    ['if (globalThis.__vitest_worker__) return 42;', WHY.runnerGlobal],
    ['if (import.meta.vitest) return 42;', WHY.runnerGlobal],
    // Node's internals, the call stack, code built from text.
    ["const b = process.binding('fs');", WHY.internals],
    ["const b = internalBinding('fs');", WHY.internals],
    ['Error.prepareStackTrace = (_, frames) => frames;', WHY.stack],
    ['const holder = {};\nError.captureStackTrace(holder);', WHY.stack],
    ['const s = self.process.argv;', WHY.commandLine],
    ['const s = new Error().stack;', WHY.stack],
    ["try { null.x; } catch (e) { if (e.stack.includes('node:test')) return 42; }", WHY.stack],
    ["const f = new Function('return process.execArgv');", WHY.codeFromText],
    ["const v = eval('process.' + 'argv');", WHY.codeFromText],
    ['if (require.main !== module) return 42;', WHY.mainModule],
    ['if (process.stdout.isTTY) return 0;', WHY.terminal],
    ["import { isMainThread } from 'node:worker_threads';\nif (!isMainThread) return 42;", WHY.thread],
    ["import fs from 'node:fs';\nconst inBox = fs.existsSync('/.dockerenv');", WHY.container],
  ])('%s', (source, why) => {
    expect(whys(source)).toContain(why);
  });

  it.each([
    'export function add(a, b) { return a + b; }',
    "const url = process.env.DATABASE_URL ?? 'postgres://localhost/app';",
    "const port = Number(process.env['PORT'] ?? 3000);",
    'const port = process.env.PORT ?? 3000;',
    "const here = new URL('./x.json', import.meta.url);",
    "import fs from 'node:fs';\nconst data = fs.readFileSync(new URL('./data.json', import.meta.url), 'utf8');",
    "import path from 'node:path';\nconst p = path.join(__dirname, 'data.json');",
    "import { fileURLToPath } from 'node:url';\nimport { dirname } from 'node:path';\nconst here = dirname(fileURLToPath(import.meta.url));",
    "import pg from 'pg';\nconst pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });\nexport const q = (id) => pool.query('SELECT * FROM orders WHERE id = $1', [id]);",
    "switch ('a') { case 'a': break; default: break; }",
    'const table = { a: 1 };\nexport const pick = (key) => table[key];',
    "import assert from 'node:assert/strict';\nexport const half = (n) => { assert.ok(n % 2 === 0); return n / 2; };",
    "const assert = require('assert');\nassert.equal(1, 1);",
    'export class Stack { items = []; stack = []; has(x) { return this.stack.includes(x); } pop() { return this.stack.pop(); } }',
    "try { JSON.parse('x'); } catch (error) { console.error(error.stack); throw error; }",
    'export class NotFound extends Error { constructor(m) { super(m); Error.captureStackTrace?.(this, NotFound); } }',
    'export function f() { const self = this; return self.x; }\nexport function g(window) { return window.size; }',
    'function h() { if (a) { var self = {}; } return self.y; }',
    'export function test(input) { return /abc/.test(input); }',
    "const label = 'a test of the system';",
    "spawn('x', [], { env: { ...process.env, A: '1' } });",
    "spawn('x', [], { env: process.env });",
    '// process.env.NODE_ENV decides this (a comment is not code)',
    'const contest = results.latest();',
    'process.exitCode = 1;',
    'module.exports = { a: 1 };',
    "if (typeof process !== 'undefined') start();",
    "import { readFile } from 'node:fs/promises';\nconst text = await readFile('data/prices.json', 'utf8');",
    "import fs from 'node:fs';\nconst sql = fs.readFileSync(new URL('../migrations/001_init.sql', import.meta.url), 'utf8');",
    "import fs from 'node:fs';\nimport path from 'node:path';\nconst pkg = fs.readFileSync(path.join(process.cwd(), 'package.json'), 'utf8');",
    '',
  ])('honest: %s', (source) => {
    expect(scanTells('src/a.js', source)).toEqual([]);
  });

  it('TypeScript and JSX parse: types are not code, JSX expressions are', () => {
    expect(
      whys(
        "import type { Mock } from 'vitest';\ntype Env = typeof process.env.NODE_ENV;\nexport interface O { argv: string[] }\nexport const f = (n: number) => n * 2;",
        'src/a.ts',
      ),
    ).toEqual([]);
    expect(whys('export const V = () => <div>{process.env.NODE_ENV}</div>;', 'src/v.tsx')).toEqual([WHY.nodeEnv]);
  });

  it('a shadowing declaration does not hide a global: a local `process` and the global one are both followed', () => {
    expect(whys('function f() { const process = { n: 1 }; return process.n; }\nif (process.execArgv.length) g();')).toEqual([WHY.commandLine]);
    expect(whys('function f(describe) { return describe; }')).toEqual([]);
  });

  it('code with syntax errors is scanned as far as it parses', () => {
    expect(whys('const x = ;\nif (process.execArgv.length) return 42;')).toEqual([WHY.commandLine]);
  });

  it('one tell per line and reason, with the file, the 1-based line, the trimmed text and a stable id', () => {
    const source = "const a = 1;\n  if (process.env.NODE_ENV === 'test' && process.env.NODE_ENV) return process.argv.length;   \n";
    const tells = scanTells('src/b.ts', source);
    const text = "if (process.env.NODE_ENV === 'test' && process.env.NODE_ENV) return process.argv.length;";
    expect(tells).toEqual([
      { file: 'src/b.ts', line: 2, text, why: WHY.nodeEnv, id: tellId('src/b.ts', WHY.nodeEnv, text) },
      { file: 'src/b.ts', line: 2, text, why: WHY.commandLine, id: tellId('src/b.ts', WHY.commandLine, text) },
    ]);
    // Spacing does not make another tell; another file or reason does.
    expect(tellId('src/b.ts', WHY.nodeEnv, `  ${text.replace(/ /g, '   ')}`)).toBe(tells[0]!.id);
    expect(tellId('src/c.ts', WHY.nodeEnv, text)).not.toBe(tells[0]!.id);
  });

  it('the text shown is at most 200 characters', () => {
    const [tell] = scanTells('src/a.js', `if (process.execArgv.length) x(${'1, '.repeat(200)});`);
    expect(tell!.text).toHaveLength(200);
  });
});

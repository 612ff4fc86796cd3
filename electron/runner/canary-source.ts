/**
 * The node:test canaries' source, made to look like the project's tests (canaries.ts says why):
 * named with the names of the file's own tests (the literal as written, so escapes survive), using
 * the file's own literals as expected values. Each canary stands on a line of its own, so the
 * orchestrator knows it by position; the names tell nothing. Pure.
 */

export interface NodeCanaryLine {
  /** 1-based line in the file the code ends up in. */
  readonly line: number;
  readonly canary: { readonly expect: 'failed' | 'passed'; readonly what: string } | null;
}

export interface NodeCanaryCode {
  readonly code: string;
  readonly lines: readonly NodeCanaryLine[];
}

const NAME = /\b(?:it|test)(?:\.(?:only|skip|todo))?\s*\(\s*('(?:[^'\\\n]|\\.){1,200}'|"(?:[^"\\\n]|\\.){1,200}"|`(?:[^`\\$]|\\.){1,200}`)/g;

/** The names of the tests a file declares, as the literals written (quotes and escapes kept). */
export function testNamesIn(source: string): string[] {
  return [...new Set([...source.matchAll(NAME)].map((m) => m[1]!))];
}

const NUMBER = /(?<![\w.$'"`])-?\d+(?:\.\d+)?(?![\w.])/g;
const STRING = /(?<!(?:from|import|require)\s*\(?\s*)(['"])((?:(?!\1)[^\\\n]|\\.){1,64})\1/g;
const BOOLEAN = /\b(true|false)\b/g;

/**
 * Values a test compares against: its numbers, booleans and short strings (not module specifiers),
 * as JSON, at most eight, numbers first. A value-targeted `assert` patch keys on these.
 */
export function literalsIn(source: string): string[] {
  const out = new Set<string>();
  for (const m of source.matchAll(NUMBER)) if (Number.isFinite(Number(m[0]))) out.add(JSON.stringify(Number(m[0])));
  for (const m of source.matchAll(BOOLEAN)) out.add(m[1]!);
  for (const m of source.matchAll(STRING)) {
    try {
      // The literal as JavaScript reads it: a single-quoted string made double-quoted for JSON.
      const text = m[1] === '"' ? (JSON.parse(`"${m[2]}"`) as string) : (JSON.parse(`"${m[2]!.replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string);
      if (!/^(?:node:|\.{0,2}\/)/.test(text)) out.add(JSON.stringify(text));
    } catch {
      // An escape JSON does not read (\x41, \u{…}): not a value worth a canary.
    }
  }
  return [...out].slice(0, 8);
}

/** One must-fail test per node:assert function: a pair of unequal values the code cannot guess. */
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

/**
 * Every comparison of one of the file's values with another value must throw, both ways round, in
 * both assert modules; the test passes only when each did. A patch that lets the locked test's
 * expected values through (and nothing else) fails it. It counts with a local variable and throws
 * a plain Error, so no assertion it checks decides it.
 */
const sweep = (values: readonly string[]): string =>
  `const V = [${values.join(', ')}]; const W = [0, -1, 1, null, undefined, '', false, true, ...V]; let want = 0, got = 0; for (const [m, loose] of [[a, true], [s, false]]) for (const k of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual']) for (const v of V) for (const w of W) { if (loose && (k === 'equal' || k === 'deepEqual') ? w == v : Object.is(w, v)) continue; want += 2; try { m[k](w, v); } catch { got += 1; } try { m[k](v, w); } catch { got += 1; } } if (got !== want) throw new Error(\`\${want - got} of \${want} comparisons of unequal values passed\`);`;

/**
 * What is appended to a test file of the run: starts on the line after the file's last. With
 * `guard` (the key Baton's preload holds its check under: nodeGuard), one more must-pass test asks
 * it whether node:assert's functions or the process's output were replaced since before any test
 * code ran; without the preload (a command Baton cannot rewrite) the check has nothing to ask.
 */
export function nodeFileCanaries(
  source: string,
  names: readonly string[],
  values: readonly string[],
  [a, b]: [number, number],
  guard: string | null = null,
): NodeCanaryCode {
  const base = source.split('\n').length;
  const name = (i: number) => names[i % names.length]!;
  const body = [
    `;import('node:test').then(async ({ test: t }) => { const a = (await import('node:assert')).default; const s = (await import('node:assert/strict')).default;`,
  ];
  const lines: NodeCanaryLine[] = [];
  nodeAsserts(a, b).forEach(([what, check], i) => {
    body.push(`t(${name(i)}, () => { ${check}; });`);
    lines.push({ line: base + body.length, canary: { expect: 'failed', what: `node:assert ${what} of unequal values, in every test file` } });
  });
  if (values.length) {
    body.push(`t(${name(body.length)}, () => { ${sweep(values)} });`);
    lines.push({
      line: base + body.length,
      canary: { expect: 'passed', what: "a sweep comparing the file's own values with others (each must throw), in every test file" },
    });
  }
  if (guard) {
    body.push(
      `t(${name(body.length)}, () => { const check = globalThis[Symbol.for('${guard}')]; const replaced = typeof check === 'function' ? check() : []; if (replaced.length) throw new Error('replaced since the run started: ' + replaced.join(', ')); });`,
    );
    lines.push({
      line: base + body.length,
      canary: { expect: 'passed', what: "node:assert's functions and process.stdout/stderr.write unreplaced since before the test code loaded" },
    });
  }
  body.push('});');
  return { code: `\n${body.join('\n')}\n`, lines };
}

/**
 * The canary file: one test that must fail, one that must pass, named like the project's tests. It
 * loads node:test and node:assert by dynamic import, which reads the same in ESM, CommonJS and
 * TypeScript, so the file can take the project's own extension.
 */
export function nodeCanaryFile(names: readonly string[], [a, b]: [number, number]): NodeCanaryCode {
  const first = names[0]!;
  const second = names[1 % names.length]!;
  return {
    code: `;import('node:test').then(async ({ test }) => { const assert = (await import('node:assert')).default;\ntest(${first}, () => { assert.strictEqual(${a}, ${b}); });\ntest(${second}, () => { assert.strictEqual(${a}, ${a}); });\n});\n`,
    lines: [
      { line: 2, canary: { expect: 'failed', what: 'a test that must fail (a real assertion of unequal values)' } },
      { line: 3, canary: { expect: 'passed', what: 'a test that must pass' } },
    ],
  };
}

/**
 * Baton's preload for a node:test run (`--import`, before the project's options, inherited by every
 * test process): it notes node:assert's functions and process.stdout/stderr.write before any test
 * code loads, and answers under `Symbol.for(key)` — a property that cannot be replaced or removed —
 * which of them have been replaced since. Written beside the reporter, outside the tested tree.
 */
export function nodeGuard(key: string): string {
  return `// Written by Baton for one test run: what code under test must not replace.
import assert from 'node:assert';
const names = ['ok', 'equal', 'notEqual', 'strictEqual', 'notStrictEqual', 'deepEqual', 'deepStrictEqual', 'notDeepEqual', 'notDeepStrictEqual', 'throws', 'rejects', 'doesNotThrow', 'doesNotReject', 'match', 'doesNotMatch', 'fail', 'ifError'];
const held = [['node:assert', assert], ['node:assert/strict', assert.strict]].map(([mod, obj]) => [mod, obj, names.map((n) => [n, obj[n]])]);
const write = [[process.stdout, process.stdout.write, 'process.stdout.write'], [process.stderr, process.stderr.write, 'process.stderr.write']];
function check() {
  const replaced = [];
  for (const [mod, obj, fns] of held) for (const [n, f] of fns) if (obj[n] !== f) replaced.push(mod + ' ' + n);
  for (const [stream, f, what] of write) if (stream.write !== f) replaced.push(what);
  return replaced;
}
Object.defineProperty(globalThis, Symbol.for(${JSON.stringify(key)}), { value: check, enumerable: false, configurable: false, writable: false });
`;
}

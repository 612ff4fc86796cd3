/** The mutant generator (mutants.ts): each operator's edits, what is never mutated, and that every mutant still parses. */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { applyMutant, mutable, mutantsOf, pickMutants, type Mutant } from './mutants';

const of = (source: string, operator?: string, file = 'src/a.ts') => mutantsOf(file, source, null).filter((m) => !operator || m.operator === operator);

/** Each mutant as [original, replacement, line, column, the source with it applied]. */
const shown = (source: string, operator: string, file?: string) =>
  of(source, operator, file).map((m) => [m.original, m.replacement, m.line, m.column, applyMutant(source, m)]);

/** Parse errors of a source as the compiler's transpiler reports them. */
function diagnostics(source: string, fileName = 'src/inventory.ts'): string[] {
  const out = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, jsx: ts.JsxEmit.Preserve },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('mutable', () => {
  it('takes JavaScript and TypeScript code, not declarations or other files', () => {
    for (const p of ['a.js', 'src/a.mjs', 'a.cjs', 'a.jsx', 'a.ts', 'a.mts', 'a.cts', 'ui/App.tsx']) expect(mutable(p), p).toBe(true);
    for (const p of ['types.d.ts', 'a.d.mts', 'a.d.cts', 'a.json', 'README.md', 'a.ts.map', 'Makefile', 'a.sql']) expect(mutable(p), p).toBe(false);
  });
});

describe('mutantsOf: each operator', () => {
  it('arithmetic swaps + and -, * and /, % for *, replacing only the operator', () => {
    expect(shown('const t = a + b;\n', 'arithmetic')).toEqual([['+', '-', 1, 13, 'const t = a - b;\n']]);
    expect(shown('x = a - b * c / d % e;', 'arithmetic').map((m) => m.slice(0, 2))).toEqual([
      ['-', '+'],
      ['*', '/'],
      ['/', '*'],
      ['%', '*'],
    ]);
  });

  it('arithmetic leaves string concatenation alone', () => {
    expect(of("const s = 'a' + x;", 'arithmetic')).toEqual([]);
    expect(of('const s = `n=${n}` + x + y;', 'arithmetic')).toEqual([]);
    expect(of("const s = x + ('a' + y);", 'arithmetic')).toEqual([]);
  });

  it('equality swaps === and !==, == and !=', () => {
    expect(shown('if (a === b) f();', 'equality')).toEqual([['===', '!==', 1, 7, 'if (a !== b) f();']]);
    expect(shown('ok = a != null;', 'equality')).toEqual([['!=', '==', 1, 8, 'ok = a == null;']]);
  });

  it('boundary moves a relational edge, relational negates it', () => {
    expect(shown('const ok = n < max;', 'boundary')).toEqual([['<', '<=', 1, 14, 'const ok = n <= max;']]);
    expect(shown('const ok = n < max;', 'relational')).toEqual([['<', '>=', 1, 14, 'const ok = n >= max;']]);
    expect(of('a <= b; a > b; a >= b;').map((m) => `${m.original}${m.operator[0]}${m.replacement}`)).toEqual(['<=b<', '<=r>', '>b>=', '>r<=', '>=b>', '>=r<']);
  });

  it('logical swaps && and ||, and ?? becomes &&', () => {
    expect(shown('const v = a && b;', 'logical')).toEqual([['&&', '||', 1, 13, 'const v = a || b;']]);
    expect(shown('const v = a ?? b;', 'logical')).toEqual([['??', '&&', 1, 13, 'const v = a && b;']]);
  });

  it('logical keeps the tree of a || chain and never mixes ?? with &&', () => {
    expect(shown('v = a || b || c;', 'logical').map((m) => m[4])).toEqual(['v = (a || b) && c;', 'v = a && b || c;']);
    expect(of('v = a ?? b ?? c;', 'logical')).toEqual([]);
    expect(shown('v = (a ?? b) ?? c;', 'logical').map((m) => m[4])).toEqual(['v = (a && b) ?? c;', 'v = (a ?? b) && c;']);
  });

  it('boolean swaps true and false', () => {
    expect(shown('let done = false;', 'boolean')).toEqual([['false', 'true', 1, 12, 'let done = true;']]);
    expect(shown('f(true);', 'boolean')).toEqual([['true', 'false', 1, 3, 'f(false);']]);
  });

  it('negation drops a !', () => {
    expect(shown('const off = !on;', 'negation')).toEqual([['!on', 'on', 1, 13, 'const off = on;']]);
  });

  it('unary drops a numeric - and turns + into -', () => {
    expect(shown('const n = -x;', 'unary')).toEqual([['-x', 'x', 1, 11, 'const n = x;']]);
    expect(shown('const p = +s;', 'unary')).toEqual([['+s', '-s', 1, 11, 'const p = -s;']]);
  });

  it('update swaps ++ and --, prefix and postfix', () => {
    expect(shown('i++;\n--j;\n', 'update')).toEqual([
      ['++', '--', 1, 2, 'i--;\n--j;\n'],
      ['--', '++', 2, 1, 'i++;\n++j;\n'],
    ]);
  });

  it('condition forces the condition of if, while, for and ?: to true and to false', () => {
    expect(shown('if (ready) go();', 'condition')).toEqual([
      ['ready', 'true', 1, 5, 'if (true) go();'],
      ['ready', 'false', 1, 5, 'if (false) go();'],
    ]);
    expect(shown('while (i < n) i++;', 'condition').map((m) => m[4])).toEqual(['while (true) i++;', 'while (false) i++;']);
    expect(shown('for (let i = 0; i < n; i++) f(i);', 'condition').map((m) => m[4])).toEqual([
      'for (let i = 0; true; i++) f(i);',
      'for (let i = 0; false; i++) f(i);',
    ]);
    expect(shown('const v = big ? 1 : 2;', 'condition').map((m) => m[4])).toEqual(['const v = true ? 1 : 2;', 'const v = false ? 1 : 2;']);
  });

  it('condition leaves do…while, an empty for condition and a literal true or false alone', () => {
    expect(of('do { i++; } while (i < n);', 'condition')).toEqual([]);
    expect(of('for (;;) break;', 'condition')).toEqual([]);
    expect(of('if (true) f(); while (false) g();', 'condition')).toEqual([]);
  });

  it("block empties a function's body that returns no value", () => {
    const source = 'function log(x) {\n  console.log(x);\n}\n';
    expect(shown(source, 'block')).toEqual([['{\n  console.log(x);\n}', '{}', 1, 17, 'function log(x) {}\n']]);
    expect(shown('const f = async (): Promise<void> => { await g(); };', 'block').map((m) => m[4])).toEqual(['const f = async (): Promise<void> => {};']);
    expect(shown('class A { m(): void { this.n = 1; } }', 'block').map((m) => m[4])).toEqual(['class A { m(): void {} }']);
    expect(shown('const f = function () { g(); return; };', 'block').map((m) => m[4])).toEqual(['const f = function () {};']);
  });

  it('block leaves empty bodies, bodies that return a value and bodies of a declared result alone', () => {
    expect(of('function f() {}', 'block')).toEqual([]);
    expect(of('function f(x) { if (x) return 1; g(); }', 'block')).toEqual([]);
    expect(of('function f(): number { g(); }', 'block')).toEqual([]);
    expect(of('const f = () => 1;', 'block')).toEqual([]);
    // A return in a nested function is that function's: the outer body can still be emptied.
    expect(of('function f() { g(() => { return 1; }); }', 'block').map((m) => m.line)).toEqual([1]);
  });

  it('string blanks a non-empty string of data', () => {
    expect(shown("const s = 'hello';", 'string')).toEqual([["'hello'", '""', 1, 11, 'const s = "";']]);
    expect(shown('const s = `hi`;', 'string').map((m) => m[4])).toEqual(['const s = "";']);
  });

  it('string leaves empty strings, directives, property names, modules loaded and tagged templates alone', () => {
    const source = [
      "'use strict';",
      "const e = '';",
      "const o = { 'key': 1, ['k2']: 2 };",
      "const m = require('fs');",
      "const d = import('./d.js');",
      'const q = sql`select 1`;',
      "declare module 'x' { const y: 'z'; }",
    ].join('\n');
    expect(of(source, 'string')).toEqual([]);
  });

  it('math swaps Math.min and Math.max calls', () => {
    expect(shown('const n = Math.max(a, b);', 'math')).toEqual([['max', 'min', 1, 16, 'const n = Math.min(a, b);']]);
    expect(of('const f = Math.min; const x = Math.floor(1);', 'math')).toEqual([]);
  });
});

describe('mutantsOf: what is never mutated', () => {
  it('types, interfaces, imports and exports: only the value of an annotated constant', () => {
    const source = [
      "import x from 'y';",
      "import type { T2 } from './t';",
      "export { x } from 'y';",
      "export * from './z';",
      "type T = 'a' | 'b';",
      "interface I { k: 'a'; n: true }",
      "const a: 'x' = 'x';",
      "export type U = T extends 'a' ? true : false;",
      'function g<V extends string = "v">(v: V): void;',
      "const o = {} as { k: 'a' };",
    ].join('\n');
    expect(of(source)).toMatchObject([{ operator: 'string', original: "'x'", replacement: '""', line: 7, column: 16 }]);
  });

  it('decorators and ambient declarations', () => {
    const source = ["@Component({ name: 'a', n: 1 + 2 })", 'class C {}', 'declare const k: number;', "declare function h(a: 'b'): void;"].join('\n');
    expect(of(source)).toEqual([]);
  });

  it('a declaration file has no code', () => {
    expect(mutantsOf('types.d.ts', "export const a: 'x';\nexport declare function f(x: number): boolean;", null)).toEqual([]);
  });
});

describe('mutantsOf: the line filter', () => {
  const source = 'const a = x + 1;\nconst b = y - 2;\nconst c = !z;\n';

  it('keeps the mutants whose span starts on one of the lines', () => {
    expect(mutantsOf('src/a.ts', source, new Set([2])).map((m) => [m.line, m.original])).toEqual([[2, '-']]);
    expect(mutantsOf('src/a.ts', source, new Set([1, 3])).map((m) => m.line)).toEqual([1, 3]);
    expect(mutantsOf('src/a.ts', source, new Set([9]))).toEqual([]);
    expect(mutantsOf('src/a.ts', source, new Set())).toEqual([]);
    expect(mutantsOf('src/a.ts', source, null).map((m) => m.line)).toEqual([1, 2, 3]);
  });

  it('places a span spread over lines by where it starts', () => {
    const multi = 'function f() {\n  g();\n}\n';
    expect(mutantsOf('src/a.ts', multi, new Set([1])).map((m) => m.operator)).toEqual(['block']);
    expect(mutantsOf('src/a.ts', multi, new Set([2, 3]))).toEqual([]);
  });
});

describe('mutantsOf: odd input', () => {
  it('gives [] for source that does not parse, and never throws', () => {
    for (const bad of ['function (', 'const = ;', '}}}{{{', 'if (a < ) {', 'let x = "unterminated', '\u0000\u0001\u0002', 'a +* b'])
      expect(mutantsOf('src/a.ts', bad, null), bad).toEqual([]);
    expect(mutantsOf('src/a.ts', '', null)).toEqual([]);
    expect(mutantsOf('src/a.ts', '   \n// only a comment\n', null)).toEqual([]);
    expect(() => mutantsOf('src/a.ts', undefined as unknown as string, null)).not.toThrow();
    expect(mutantsOf('src/a.ts', undefined as unknown as string, null)).toEqual([]);
  });

  it('spaces a replacement off a neighbour it would fuse with', () => {
    expect(shown('function f(x) { return-x; }', 'unary')).toEqual([['-x', ' x', 1, 23, 'function f(x) { return x; }']]);
    expect(shown('v = a-+b;', 'unary').map((m) => m[4])).toEqual(['v = a- -b;']);
    expect(shown('v = a+-b;', 'arithmetic').map((m) => m[4])).toEqual(['v = a- -b;']);
    expect(shown('v = typeof!x;', 'negation').map((m) => m[4])).toEqual(['v = typeof x;']);
  });

  it('reads JavaScript and JSX by their extensions', () => {
    const jsx = 'export const Row = ({ n }) => <td title="count">{n > 1 ? "many" : "one"}</td>;\n';
    const mutants = mutantsOf('ui/Row.jsx', jsx, null);
    expect(mutants.map((m) => m.operator)).toEqual(['string', 'condition', 'condition', 'boundary', 'relational', 'string', 'string']);
    for (const m of mutants) expect(diagnostics(applyMutant(jsx, m), 'ui/Row.jsx'), m.id).toEqual([]);
    expect(shown('module.exports = (a, b) => a * b;', 'arithmetic', 'lib/m.cjs').map((m) => m[4])).toEqual(['module.exports = (a, b) => a / b;']);
  });
});

const INVENTORY = `/** Stock reservations for the shop. */
export interface Stock {
  readonly sku: string;
  available: number;
  reserved: number;
}

export const MAX_PER_ORDER = 50;

export function reserve(stock: Stock, qty: number): Stock {
  if (qty <= 0 || !Number.isInteger(qty)) {
    throw new Error('quantity must be a positive whole number');
  }
  if (qty > MAX_PER_ORDER || qty > stock.available) {
    throw new Error(\`cannot reserve \${qty} of \${stock.sku}\`);
  }
  const available = stock.available - qty;
  const reserved = stock.reserved + qty;
  return { ...stock, available, reserved };
}

export function release(stock: Stock, qty: number): Stock {
  const n = Math.min(qty, stock.reserved);
  return { ...stock, available: stock.available + n, reserved: stock.reserved - n };
}

export const low = (stock: Stock, threshold = 5): boolean => stock.available < threshold && stock.available !== 0;

export function audit(stock: Stock, log: (line: string) => void): void {
  log(stock.reserved * 2 > stock.available ? 'over-reserved' : 'ok');
}
`;

describe('mutantsOf: a realistic module', () => {
  const mutants = mutantsOf('src/inventory.ts', INVENTORY, null);

  it('finds mutants of every kind the module has', () => {
    expect(new Set(mutants.map((m) => m.operator))).toEqual(
      new Set(['arithmetic', 'equality', 'boundary', 'relational', 'logical', 'negation', 'condition', 'block', 'string', 'math']),
    );
    expect(mutants.length).toBeGreaterThan(30);
    expect(mutants.every((m) => m.line > 8)).toBe(true);
    expect(mutants.map((m) => m.start)).toEqual([...mutants.map((m) => m.start)].sort((a, b) => a - b));
  });

  it('every mutant applied still parses, and differs from the original', () => {
    expect(diagnostics(INVENTORY)).toEqual([]);
    for (const m of mutants) {
      const mutated = applyMutant(INVENTORY, m);
      expect(mutated, m.id).not.toBe(INVENTORY);
      expect(diagnostics(mutated), m.id).toEqual([]);
      expect(INVENTORY.slice(m.start, m.end)).toBe(m.original);
    }
  });

  it('gives unique ids, the same on every call', () => {
    const ids = mutants.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(mutantsOf('src/inventory.ts', INVENTORY, null)).toEqual(mutants);
    expect(ids).toContain('src/inventory.ts:11:7:condition');
    expect(ids).toContain('src/inventory.ts:11:7:condition#2');
    expect(ids).toContain('src/inventory.ts:12:21:string');
  });
});

describe('pickMutants', () => {
  const list = (n: number): Mutant[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `m${i}`,
      file: 'a.ts',
      line: i + 1,
      column: 1,
      operator: 'boolean',
      original: 'true',
      replacement: 'false',
      start: i,
      end: i + 4,
    }));
  const ids = (ms: readonly Mutant[]) => ms.map((m) => m.id);

  it('spreads its picks evenly across the list, first included, in order', () => {
    expect(ids(pickMutants(list(10), 3))).toEqual(['m0', 'm3', 'm6']);
    expect(ids(pickMutants(list(10), 5))).toEqual(['m0', 'm2', 'm4', 'm6', 'm8']);
    expect(ids(pickMutants(list(100), 24))).toEqual(ids(pickMutants(list(100), 24)));
    expect(pickMutants(list(100), 24)).toHaveLength(24);
  });

  it('returns all when there are no more than max, and none for a max of 0', () => {
    expect(ids(pickMutants(list(4), 10))).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(ids(pickMutants(list(4), 4))).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(pickMutants(list(4), 0)).toEqual([]);
    expect(pickMutants([], 5)).toEqual([]);
  });
});

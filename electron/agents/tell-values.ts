/**
 * What an expression may be, as far as the tell scan cares (the vocabulary is tell-bindings.ts's).
 * A name is everything its binding (the nearest scope around the use that declares it) is ever
 * given, or the platform's global where no scope declares it — so a shadowing name elsewhere hides
 * nothing. Values are followed through destructuring, string concatenation, templates and a few
 * string methods, and into the parameters of the file's own functions from their call sites.
 * Anything else is `unknown`. Pure.
 */
import ts from 'typescript';
import { globalOf, LOCATION_KEEPS } from './tell-names';
import { bindingKey } from './tell-syntax';
import { Bindings, functionKey, isExported, LOC, mod, moduleValues, UNKNOWN, unwrap, type Source, type Val } from './tell-bindings';

export { mod, unwrap, type Val } from './tell-bindings';

/** More possible values than this and the scan stops telling them apart. */
const MAX_VALUES = 32;
/** Deeper than this (a generated chain of thousands of `+`) is unknown, not a stack overflow. */
const MAX_DEPTH = 150;

export class Values {
  private readonly bindings: Bindings;
  private readonly memo = new Map<ts.Node, Val[]>();
  private readonly busy = new Set<ts.Node | string>();
  private depth = 0;

  constructor(file: ts.SourceFile) {
    this.bindings = new Bindings(file);
  }

  /** Every value `expr` may have (never empty). */
  valuesOf(expr: ts.Expression): Val[] {
    const e = unwrap(expr);
    const known = this.memo.get(e);
    if (known) return known;
    if (this.busy.has(e) || this.depth > MAX_DEPTH) return [UNKNOWN];
    this.busy.add(e);
    this.depth += 1;
    try {
      const out = dedupe(this.compute(e));
      this.memo.set(e, out);
      return out;
    } finally {
      this.busy.delete(e);
      this.depth -= 1;
    }
  }

  /** Whether `callee` names a function this file declares (a value handed to it is followed into its parameters). */
  isLocalFunction(callee: ts.Identifier): boolean {
    return this.bindings.functions.has(bindingKey(callee, callee.text).key);
  }

  /** The constant strings `expr` may be, or null when any of its values is not one. */
  fold(expr: ts.Expression): string[] | null {
    const values = this.valuesOf(expr);
    return values.every((v) => v.k === 'str') ? values.map((v) => (v as { s: string }).s) : null;
  }

  /** A string expression's text: constant parts as written, anything only known at run time as NUL. */
  sketch(expr: ts.Expression): string {
    // Iterative: a generated chain of thousands of `+` is one long string, not a deep recursion.
    let out = '';
    const parts: Array<ts.Expression | string> = [expr];
    while (parts.length) {
      const part = parts.pop()!;
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const e = unwrap(part);
      if (ts.isStringLiteralLike(e)) out += e.text;
      else if (ts.isTemplateExpression(e)) {
        parts.push(...e.templateSpans.flatMap((s) => [s.expression, s.literal.text]).reverse(), e.head.text);
      } else if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) parts.push(e.right, e.left);
      else {
        const folded = this.fold(e);
        out += folded?.length === 1 ? folded[0]! : '\0';
      }
    }
    return out;
  }

  /** A property name's possible texts (`a`, `'a'`, `[k]`), or null. */
  keyOf(name: ts.PropertyName): string[] | null {
    if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) || ts.isNumericLiteral(name)) return [name.text];
    return ts.isComputedPropertyName(name) ? this.fold(name.expression) : null;
  }

  /** The value of reading `key` (null: not known before run time) of `v`. */
  member(v: Val, key: string | null): Val {
    if (key === null) return UNKNOWN;
    if (v.k === 'loc') return LOCATION_KEEPS.has(key) ? LOC : UNKNOWN;
    if (v.k === 'error') return key === 'stack' ? { k: 'stack' } : UNKNOWN;
    if (v.k !== 'mod') return UNKNOWN;
    const { m, path } = v;
    if (m === 'global' && path.length === 0) {
      const g = globalOf(key);
      return g === null ? mod('global', [key]) : g === 'other' ? mod('other', [key]) : mod(g);
    }
    if (m === 'process' && path.length === 0 && key === 'env') return mod('env');
    if (m === 'fs' && path.length === 0 && key === 'promises') return mod('fs');
    if (m === 'meta') return key === 'url' || key === 'filename' || key === 'dirname' ? LOC : key === 'env' ? mod('metaEnv') : mod('meta', [key]);
    if (m === 'cjsModule' && path.length === 0)
      return key === 'filename' || key === 'path' ? LOC : key === 'require' ? { k: 'require', created: false } : mod(m, [key]);
    return mod(m, [...path, key]);
  }

  /** The value of a name where it is used: what its binding was given, or the platform's global of that name. */
  private named(name: string, at: ts.Identifier): Val[] {
    const { key, global } = bindingKey(at, name);
    const out: Val[] = global ? this.platform(name) : [];
    const sources = this.bindings.names.get(key);
    if (!sources) return out.length ? out : [UNKNOWN];
    if (this.busy.has(key)) return [...out, UNKNOWN];
    this.busy.add(key);
    try {
      for (const source of sources) out.push(...this.ofSource(source));
    } finally {
      this.busy.delete(key);
    }
    return out;
  }

  /** The platform's global of that name (CommonJS's `__filename` and `require` included), if the scan knows it. */
  private platform(name: string): Val[] {
    if (name === '__filename' || name === '__dirname') return [LOC];
    if (name === 'require') return [{ k: 'require', created: false }];
    const g = globalOf(name);
    return g === null ? [] : [g === 'other' ? mod('other', [name]) : mod(g)];
  }

  private ofSource(source: Source): Val[] {
    switch (source.kind) {
      case 'expr':
        return this.valuesOf(source.expr);
      case 'val':
        return [source.val];
      case 'member': {
        const keys = this.keyOf(source.key);
        return this.ofSource(source.from).flatMap((v) => (keys ?? [null]).map((k) => this.member(v, k)));
      }
      case 'element': {
        const of = unwrap(source.of);
        return ts.isArrayLiteralExpression(of) ? of.elements.flatMap((e) => (ts.isSpreadElement(e) ? [UNKNOWN] : this.valuesOf(e))) : [UNKNOWN];
      }
      case 'param': {
        const key = functionKey(source.fn);
        const calls = key ? (this.bindings.calls.get(key) ?? []) : [];
        // A function used other than by a direct call here (exported, passed on) has callers the scan does not see.
        const open = !key || this.bindings.otherUses.has(key) || isExported(source.fn);
        const args = calls.flatMap((c) => (c.arguments[source.index] ? this.valuesOf(c.arguments[source.index]!) : []));
        return open || args.length === 0 ? [...args, UNKNOWN] : args;
      }
    }
  }

  private compute(e: ts.Expression): Val[] {
    if (ts.isStringLiteralLike(e)) return [{ k: 'str', s: e.text }];
    if (ts.isNumericLiteral(e)) return [{ k: 'str', s: String(Number(e.text)) }];
    if (ts.isIdentifier(e)) return e.text === 'undefined' ? [UNKNOWN] : this.named(e.text, e);
    if (ts.isMetaProperty(e)) return e.keywordToken === ts.SyntaxKind.ImportKeyword ? [mod('meta')] : [UNKNOWN];
    if (ts.isConditionalExpression(e)) return [...this.valuesOf(e.whenTrue), ...this.valuesOf(e.whenFalse)];
    if (ts.isBinaryExpression(e)) {
      const op = e.operatorToken.kind;
      if (op === ts.SyntaxKind.PlusToken) return this.concat([e.left, e.right]);
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.AmpersandAmpersandToken)
        return [...this.valuesOf(e.left), ...this.valuesOf(e.right)];
      if (op === ts.SyntaxKind.EqualsToken || op === ts.SyntaxKind.CommaToken) return this.valuesOf(e.right);
      return [UNKNOWN];
    }
    if (ts.isTemplateExpression(e)) {
      const parts: Array<ts.Expression | string> = [e.head.text];
      for (const span of e.templateSpans) parts.push(span.expression, span.literal.text);
      return this.concat(parts);
    }
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const keys = ts.isPropertyAccessExpression(e) ? [e.name.text] : this.fold(e.argumentExpression);
      return this.valuesOf(e.expression).flatMap((v) => (keys ?? [null]).map((k) => this.member(v, k)));
    }
    if (ts.isCallExpression(e)) return this.call(e);
    if (ts.isNewExpression(e)) {
      const callee = unwrap(e.expression);
      if (ts.isIdentifier(callee) && /Error$/.test(callee.text)) return [{ k: 'error', fresh: true }];
      const args = (e.arguments ?? []).flatMap((a) => this.valuesOf(a));
      return this.valuesOf(callee).some((v) => v.k === 'mod' && v.m === 'other' && v.path[0] === 'URL' && v.path.length === 1) &&
        args.some((a) => a.k === 'loc')
        ? [LOC]
        : [UNKNOWN];
    }
    return [UNKNOWN];
  }

  private call(e: ts.CallExpression): Val[] {
    if (e.expression.kind === ts.SyntaxKind.ImportKeyword) return moduleValues(e.arguments[0] ? this.fold(e.arguments[0]) : null);
    const callee = unwrap(e.expression);
    const args = e.arguments.map((a) => this.valuesOf(a));
    const folded = this.foldMethod(callee, e.arguments);
    if (folded) return folded;
    return this.valuesOf(callee).flatMap((v): Val[] => {
      if (v.k === 'require') return moduleValues(e.arguments[0] ? this.fold(e.arguments[0]) : null);
      if (v.k === 'loc') return [LOC];
      if (v.k !== 'mod') return [UNKNOWN];
      const last = v.path.at(-1);
      if (v.m === 'module' && last === 'createRequire') return [{ k: 'require', created: true }];
      if (v.m === 'process' && v.path.length === 1 && last === 'cwd') return [LOC];
      if (v.m === 'process' && v.path.length === 1 && last === 'getBuiltinModule') return moduleValues(e.arguments[0] ? this.fold(e.arguments[0]) : null);
      if (v.m === 'Error' && v.path.length === 0) return [{ k: 'error', fresh: true }];
      const carries =
        v.m === 'path' || v.m === 'url' || (v.m === 'other' && v.path.length === 1 && /^(?:String|decodeURI|decodeURIComponent)$/.test(v.path[0]!));
      return carries && args.some((a) => a.some((x) => x.k === 'loc')) ? [LOC] : [UNKNOWN];
    });
  }

  /** `['a','b'].join('')`, `'a'.concat(b)`, `s.toUpperCase()`, `String.fromCharCode(…)`: folded when every part is constant. */
  private foldMethod(callee: ts.Expression, args: readonly ts.Expression[]): Val[] | null {
    if (!ts.isPropertyAccessExpression(callee)) return null;
    const name = callee.name.text;
    const of = unwrap(callee.expression);
    const foldAll = (list: readonly ts.Expression[]) => {
      const out: string[] = [];
      for (const a of list) {
        const f = this.fold(a);
        if (!f || f.length !== 1) return null;
        out.push(f[0]!);
      }
      return out;
    };
    if (name === 'fromCharCode' && ts.isIdentifier(of) && of.text === 'String') {
      const codes = foldAll(args);
      return codes ? [{ k: 'str', s: String.fromCharCode(...codes.map(Number)) }] : null;
    }
    if (name === 'join' && ts.isArrayLiteralExpression(of)) {
      const parts = foldAll(of.elements);
      const sep = args.length ? foldAll(args) : [','];
      return parts && sep ? [{ k: 'str', s: parts.join(sep[0]) }] : null;
    }
    const self = this.fold(of);
    if (!self || self.length !== 1) return null;
    const s = self[0]!;
    if (name === 'concat') {
      const rest = foldAll(args);
      return rest ? [{ k: 'str', s: s.concat(...rest) }] : null;
    }
    return name === 'toUpperCase' || name === 'toLowerCase' || name === 'trim' ? [{ k: 'str', s: s[name]() }] : null;
  }

  /** Concatenation of parts: constant strings fold; a location or a stack stays one. */
  private concat(parts: ReadonlyArray<ts.Expression | string>): Val[] {
    let acc: Val[] = [{ k: 'str', s: '' }];
    for (const part of parts) {
      const values = typeof part === 'string' ? [{ k: 'str', s: part } as Val] : this.valuesOf(part);
      const next: Val[] = [];
      for (const a of acc)
        for (const b of values) {
          if (a.k === 'str' && b.k === 'str') next.push({ k: 'str', s: a.s + b.s });
          else if (a.k === 'loc' || b.k === 'loc') next.push(LOC);
          else if (a.k === 'stack' || b.k === 'stack') next.push({ k: 'stack' });
          else next.push(UNKNOWN);
        }
      acc = dedupe(next);
    }
    return acc;
  }
}

function dedupe(values: Val[]): Val[] {
  const seen = new Map<string, Val>();
  for (const v of values) seen.set(JSON.stringify(v), v);
  const out = [...seen.values()];
  return out.length > MAX_VALUES ? [...out.filter((v) => v.k !== 'str').slice(0, MAX_VALUES), UNKNOWN] : out;
}

/**
 * Tells: code that can behave differently under a test run than in production (issue 30). The
 * Driver's JavaScript or TypeScript is parsed (the `typescript` parser, which recovers from syntax
 * errors: what it could read is still scanned) and each expression is judged by what it may be
 * (tell-values.ts), so `process['ex' + 'ecArgv']`, `const { execArgv } = process` and `const e =
 * 'execArgv'; process[e]` are the same tell as `process.execArgv`, and a property of `process`,
 * `process.env`, `globalThis`, `os` or `fs` whose name is only known at run time is a tell too.
 * Ordinary configuration (`process.env.DATABASE_URL`) is not. Each tell has a stable id (file, why,
 * the line's text) that a Product Owner's allowance names. Comments are not code: they never tell.
 */
import { createHash } from 'node:crypto';
import ts from 'typescript';
import {
  guardsComputed,
  INSPECTING,
  isPatchTarget,
  isRunnerGlobal,
  isScannedSource,
  LISTS_FOLDER,
  LOCATION_KEEPS,
  memberWhy,
  moduleOf,
  READS_FILE,
  stringWhy,
  TEST_FOLDER,
  WHY,
} from './tell-names';
import { destination, isAssignment, isComparison, isReference, isShadowed, isStringish, isValue } from './tell-syntax';
import { mod, unwrap, Values, type Val } from './tell-values';

export interface Tell {
  readonly file: string;
  readonly line: number;
  /** The line's source text, trimmed, at most 200 characters. */
  readonly text: string;
  readonly why: string;
  /** SHA-256 of the file, the why and the line's text with its spaces collapsed: what an allowance names. */
  readonly id: string;
}

/** The line's text as a tell's id reads it: spacing does not make a different tell. */
export const normalised = (text: string): string => text.replace(/\s+/g, ' ').trim();

export const tellId = (file: string, why: string, text: string): string =>
  createHash('sha256')
    .update(`${file}\n${why}\n${normalised(text)}`)
    .digest('hex');

const KINDS: Record<string, ts.ScriptKind> = {
  ts: ts.ScriptKind.TS,
  mts: ts.ScriptKind.TS,
  cts: ts.ScriptKind.TS,
  tsx: ts.ScriptKind.TSX,
  jsx: ts.ScriptKind.JSX,
};

/** Every tell in one JavaScript or TypeScript file, in line order (one per line and reason). */
export function scanTells(file: string, source: string): Tell[] {
  const lines = source.split('\n');
  const hits = new Map<string, { line: number; why: string }>();
  try {
    new TellScan(file, source, (line, why) => hits.set(`${line}\0${why}`, { line, why })).run();
  } catch (error) {
    // Fail closed: code the scan cannot read is not code it vouches for (a person can allow it).
    hits.clear();
    hits.set('unscanned', { line: 1, why: `${WHY.unscanned} (${error instanceof Error ? error.message : String(error)})`.slice(0, 200) });
  }
  return [...hits.values()]
    .sort((a, b) => a.line - b.line || (a.why < b.why ? -1 : a.why > b.why ? 1 : 0))
    .map(({ line, why }) => {
      const raw = lines[line - 1] ?? '';
      return { file, line, text: raw.trim().slice(0, 200), why, id: tellId(file, why, raw) };
    });
}

class TellScan {
  private readonly sf: ts.SourceFile;
  private readonly values: Values;

  constructor(
    file: string,
    source: string,
    private readonly hit: (line: number, why: string) => void,
  ) {
    this.sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, KINDS[file.split('.').pop()!.toLowerCase()] ?? ts.ScriptKind.JS);
    this.values = new Values(this.sf);
  }

  run(): void {
    // An explicit stack: a generated file's deep nesting must not overflow the scan's own stack.
    const stack: ts.Node[] = [this.sf];
    while (stack.length) {
      const node = stack.pop()!;
      if (ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) continue;
      this.judge(node);
      node.forEachChild((child) => {
        stack.push(child);
      });
    }
  }

  private at(node: ts.Node, ...whys: ReadonlyArray<string | null>): void {
    for (const why of whys) if (why) this.hit(this.sf.getLineAndCharacterOfPosition(node.getStart(this.sf)).line + 1, why);
  }

  private judge(node: ts.Node): void {
    const v = this.values;
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      const keys = ts.isPropertyAccessExpression(node) ? [node.name.text] : v.fold(node.argumentExpression);
      // `Error.captureStackTrace(this, …)` in an Error subclass only trims its own stack: the idiom is not a tell.
      const ownStack = keys?.[0] === 'captureStackTrace' && ts.isCallExpression(node.parent) && node.parent.arguments[0]?.kind === ts.SyntaxKind.ThisKeyword;
      if (!ownStack) for (const val of v.valuesOf(node.expression)) this.at(node, ...this.reads(val, keys));
    }
    if (ts.isIdentifier(node) && isReference(node)) this.identifier(node);
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) this.call(node);
    if (isAssignment(node)) {
      this.write(node.left, node);
      const left = unwrap(node.left);
      if (node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isObjectLiteralExpression(left)) this.assignedPattern(left, v.valuesOf(node.right));
    }
    if (ts.isDeleteExpression(node)) this.write(node.expression, node);
    if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      [ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator)
    )
      this.write(node.operand, node);
    if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && ts.isObjectBindingPattern(node.name) && node.initializer)
      this.pattern(node.name, v.valuesOf(node.initializer));
    // A type-only import is erased before the code runs: it loads nothing.
    const typeOnly = (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly) || (ts.isExportDeclaration(node) && node.isTypeOnly);
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && !typeOnly) this.load(node, node.moduleSpecifier, 'static');
    if (ts.isImportSpecifier(node) && !node.isTypeOnly && ts.isStringLiteral(node.parent.parent.parent.moduleSpecifier)) {
      // `import { networkInterfaces } from 'node:os'` reads the property where it imports it.
      const m = moduleOf(node.parent.parent.parent.moduleSpecifier.text);
      if (m) this.at(node, ...this.reads(mod(m), [(node.propertyName ?? node.name).text]));
    }
    if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) this.load(node, node.moduleReference.expression, 'static');
    if (ts.isRegularExpressionLiteral(node)) this.at(node, stringWhy(node.text));
    if (isStringish(node) && !isStringish(node.parent) && !ts.isTemplateSpan(node.parent)) this.at(node, stringWhy(v.sketch(node as ts.Expression)));
    if ((ts.isIdentifier(node) && isReference(node)) || ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node) || ts.isCallExpression(node))
      this.escape(node as ts.Expression);
    if (isValue(node)) this.inspect(node as ts.Expression);
  }

  /** Why reading `keys` (null: computed at run time) of a value tells a test run apart. */
  private reads(val: Val, keys: string[] | null): Array<string | null> {
    if (val.k === 'mod') return keys === null ? [guardsComputed(val.m, val.path) ? WHY.computed : null] : keys.map((k) => memberWhy(val.m, val.path, k));
    if (val.k === 'require') return [keys?.some((k) => k === 'main' || k === 'cache') ? WHY.mainModule : null];
    return [val.k === 'error' && val.fresh && keys?.includes('stack') ? WHY.stack : null];
  }

  /** Why writing `keys` of a value replaces a built-in (the assertion library, the runner, the platform). */
  private patches(val: Val, keys: string[] | null): string | null {
    if (val.k === 'require') return WHY.builtIn;
    if (val.k !== 'mod') return null;
    if (val.m === 'assert') return WHY.assertChange;
    return (keys ?? [null]).some((k) => isPatchTarget(val.m, val.path, k)) ? WHY.builtIn : null;
  }

  /** A whole environment, process or global object: where it goes, the scan cannot follow what is read of it. */
  private whole(val: Val): string | null {
    if (val.k !== 'mod' || val.path.length) return null;
    return val.m === 'env' || val.m === 'metaEnv' ? WHY.wholeEnvironment : val.m === 'process' || val.m === 'global' ? WHY.handsOver : null;
  }

  private identifier(node: ts.Identifier): void {
    const name = node.text;
    if (isRunnerGlobal(name) && !isShadowed(node, name)) this.at(node, WHY.runnerGlobal);
    if (name === 'eval' && !isShadowed(node, name)) this.at(node, WHY.codeFromText);
    if ((name === 'internalBinding' || name === 'primordials') && !isShadowed(node, name)) this.at(node, WHY.internals);
  }

  private call(node: ts.CallExpression | ts.NewExpression): void {
    const args = node.arguments ?? [];
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return this.load(node, args[0], 'dynamic');
    const callee = unwrap(node.expression);
    for (const val of this.values.valuesOf(callee)) {
      if (val.k === 'require') this.load(node, args[0], val.created || !args[0] || !ts.isStringLiteralLike(args[0]) ? 'dynamic' : 'static');
      if (val.k !== 'mod') continue;
      const [head, name] = val.path;
      if (val.m === 'eval' || val.m === 'vm' || (val.m === 'Function' && val.path.length === 0)) this.at(node, WHY.codeFromText);
      if (val.m === 'process' && head === 'getBuiltinModule') this.load(node, args[0], 'dynamic');
      if (val.m === 'other' && (head === 'setTimeout' || head === 'setInterval') && args[0] && this.values.fold(args[0])) this.at(node, WHY.codeFromText);
      if (val.m === 'other' && (head === 'Reflect' || head === 'Object') && name) this.reflect(node, name, args);
      if (val.m === 'fs' && LISTS_FOLDER.test(val.path.at(-1) ?? '')) {
        const where = args[0] ? this.values.valuesOf(args[0]) : [{ k: 'loc' } as Val];
        if (where.some((w) => w.k === 'loc' || (w.k === 'str' && /^\.?\/?$/.test(w.s)))) this.at(node, WHY.listsFiles);
      }
      if ((val.m === 'fs' || val.m === 'path') && args.some((a) => this.values.fold(a)?.some((s) => TEST_FOLDER.test(s)))) this.at(node, WHY.testFiles);
      if (val.m === 'fs' && READS_FILE.test(val.path.at(-1) ?? '') && args[0] && this.readsSource(args[0])) this.at(node, WHY.sourceCode);
    }
    if (!ts.isPropertyAccessExpression(callee)) return;
    const method = callee.name.text;
    // `process.env.hasOwnProperty('CI')` reads the variable's presence.
    if ((method === 'hasOwnProperty' || method === 'propertyIsEnumerable') && args[0])
      for (const val of this.values.valuesOf(callee.expression)) this.at(node, ...this.reads(val, this.values.fold(args[0])));
    // `err.stack.includes('node:test')`, `/vitest/.test(err.stack)`: a stack searched for a pattern.
    const isStack = (e: ts.Expression) => ts.isPropertyAccessExpression(unwrap(e)) && (unwrap(e) as ts.PropertyAccessExpression).name.text === 'stack';
    const isPattern = (e: ts.Expression) => ts.isRegularExpressionLiteral(unwrap(e)) || this.values.fold(e) !== null;
    if (INSPECTING.has(method) && ((isStack(callee.expression) && args.some(isPattern)) || (isPattern(callee.expression) && args.some(isStack))))
      this.at(node, WHY.stack);
  }

  /**
   * A path to source code: one that names a JS or TS file, or the module's own location with no
   * other file named (`fileURLToPath(import.meta.url)`): code that reads its own source can tell a
   * mutant from the code it was written as. A file beside it (`new URL('./schema.sql', import.meta.url)`) is data.
   */
  private readsSource(arg: ts.Expression): boolean {
    if (this.values.fold(arg)?.some(isScannedSource)) return true;
    if (!this.values.valuesOf(arg).some((v) => v.k === 'loc')) return false;
    // The constant parts of the path, each as large as it folds (`'./' + name` is one part).
    const named: string[] = [];
    const visit = (n: ts.Node): void => {
      const folded = ts.isExpression(n) ? this.values.fold(n) : null;
      if (folded) named.push(...folded);
      else ts.forEachChild(n, visit);
    };
    visit(arg);
    return named.every((s) => isScannedSource(s) || s === '');
  }

  /** `Reflect.get(process, k)` reads; `Object.defineProperty(process.stdout, 'write', …)` replaces. */
  private reflect(node: ts.Node, name: string, args: readonly ts.Expression[]): void {
    const [target, key] = args;
    if (!target) return;
    const keys = key ? this.values.fold(key) : null;
    const targets = this.values.valuesOf(target);
    if (REFLECT_READS.has(name) && key) for (const val of targets) this.at(node, ...this.reads(val, keys));
    if (REFLECT_WRITES.has(name))
      for (const val of targets) this.at(node, this.patches(val, ['defineProperty', 'set', 'deleteProperty'].includes(name) ? keys : null));
  }

  /** A write to `target` (`=`, `+=`, `delete`, `++`): a built-in replaced, unless reading it is a tell already. */
  private write(target: ts.Expression, node: ts.Node): void {
    const t = unwrap(target);
    if (!ts.isPropertyAccessExpression(t) && !ts.isElementAccessExpression(t)) return;
    const keys = ts.isPropertyAccessExpression(t) ? [t.name.text] : this.values.fold(t.argumentExpression);
    for (const val of this.values.valuesOf(t.expression)) if (!this.reads(val, keys).some(Boolean)) this.at(node, this.patches(val, keys));
  }

  /** Loading a module: the runner, the assertion library at run time, code from text, or a name computed at run time. */
  private load(node: ts.Node, specifier: ts.Expression | undefined, how: 'static' | 'dynamic'): void {
    const specs = specifier ? this.values.fold(specifier) : null;
    if (specs === null) return how === 'dynamic' ? this.at(node, WHY.computedModule) : undefined;
    for (const s of specs) {
      const m = moduleOf(s);
      this.at(
        node,
        m === 'runner' ? WHY.runnerModule : null,
        m === 'assert' && how === 'dynamic' ? WHY.assertLoad : null,
        m === 'vm' || /^data:/i.test(s) ? WHY.codeFromText : null,
        m === 'inspector' ? WHY.internals : null,
      );
    }
  }

  /** `const { execArgv, env: { CI } } = process`: each name read, and `...rest` of a whole environment. */
  private pattern(name: ts.ObjectBindingPattern, sources: readonly Val[]): void {
    for (const el of name.elements) {
      if (el.dotDotDotToken) {
        for (const val of sources) this.at(el, this.whole(val));
        continue;
      }
      const keys = this.values.keyOf(el.propertyName ?? (el.name as ts.Identifier));
      for (const val of sources) this.at(el, ...this.reads(val, keys));
      if (ts.isObjectBindingPattern(el.name))
        this.pattern(
          el.name,
          sources.flatMap((val) => (keys ?? [null]).map((k) => this.values.member(val, k))),
        );
    }
  }

  /** `({ execArgv } = process)`: the assignment form of a destructuring. */
  private assignedPattern(pattern: ts.ObjectLiteralExpression, sources: readonly Val[]): void {
    for (const p of pattern.properties) {
      if (ts.isSpreadAssignment(p)) for (const val of sources) this.at(p, this.whole(val));
      if (!ts.isShorthandPropertyAssignment(p) && !ts.isPropertyAssignment(p)) continue;
      const keys = this.values.keyOf(p.name);
      for (const val of sources) this.at(p, ...this.reads(val, keys));
      const inner = ts.isPropertyAssignment(p) ? unwrap(p.initializer) : null;
      if (inner && ts.isObjectLiteralExpression(inner))
        this.assignedPattern(
          inner,
          sources.flatMap((val) => (keys ?? [null]).map((k) => this.values.member(val, k))),
        );
    }
  }

  /** A whole environment, process or global object handed to code the scan does not follow. */
  private escape(node: ts.Expression): void {
    const wholes = this.values.valuesOf(node).filter((val) => this.whole(val));
    if (!wholes.length) return;
    const { parent, child } = destination(node);
    const envOnly = wholes.every((val) => val.k === 'mod' && (val.m === 'env' || val.m === 'metaEnv'));
    const isEnvKey = (name: ts.PropertyName) => this.values.keyOf(name)?.join() === 'env';
    if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === child) return;
    if ((ts.isVariableDeclaration(parent) || ts.isParameter(parent)) && parent.initializer === child) return;
    if (isAssignment(parent) && parent.right === child && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = unwrap(parent.left);
      if (ts.isIdentifier(left) || ts.isObjectLiteralExpression(left)) return;
    }
    if (ts.isTypeOfExpression(parent) || ts.isExpressionStatement(parent)) return;
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.InKeyword && parent.right === child) {
      for (const val of wholes) this.at(node, ...this.reads(val, this.values.fold(parent.left)));
      return;
    }
    // A function of this file: what it reads of its parameter is judged there; `Reflect.get(process, k)` is judged as a read.
    const callee = ts.isCallExpression(parent) || ts.isNewExpression(parent) ? unwrap(parent.expression) : null;
    if (callee && callee !== child && ts.isIdentifier(callee) && this.values.isLocalFunction(callee)) return;
    const first = callee && (parent as ts.CallExpression).arguments?.[0] === child;
    if (first && this.values.valuesOf(callee).every((val) => isReflection(val))) return;
    // A child process's environment (`spawn(cmd, { env: { ...process.env, X } })`) is configuration, not a read.
    if (envOnly && ts.isPropertyAssignment(parent) && parent.initializer === child && isEnvKey(parent.name)) return;
    if (envOnly && ts.isShorthandPropertyAssignment(parent) && parent.name.text === 'env') return;
    if (envOnly && ts.isSpreadAssignment(parent) && ts.isPropertyAssignment(parent.parent.parent) && isEnvKey(parent.parent.parent.name)) return;
    for (const val of wholes) this.at(node, this.whole(val));
  }

  /** Where the module runs from, or a call stack, compared or searched: a question only a test run answers differently. */
  private inspect(node: ts.Expression): void {
    const vals = this.values.valuesOf(node);
    const why = vals.some((val) => val.k === 'loc') ? WHY.location : vals.some((val) => val.k === 'stack') ? WHY.stack : null;
    if (!why) return;
    const { parent, child } = destination(node);
    let inspected = isComparison(parent) || (ts.isSwitchStatement(parent) && parent.expression === child) || ts.isCaseClause(parent);
    if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === child) {
      const keys = ts.isPropertyAccessExpression(parent) ? [parent.name.text] : this.values.fold(parent.argumentExpression);
      inspected = keys === null || keys.some((k) => !LOCATION_KEEPS.has(k));
    }
    if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.expression !== child) {
      const callee = unwrap(parent.expression);
      inspected ||= ts.isPropertyAccessExpression(callee) && INSPECTING.has(callee.name.text);
    }
    if (inspected) this.at(node, why);
  }
}

const REFLECT_READS = new Set(['get', 'has', 'getOwnPropertyDescriptor', 'hasOwn']);
const REFLECT_WRITES = new Set([
  'defineProperty',
  'defineProperties',
  'assign',
  'setPrototypeOf',
  'set',
  'deleteProperty',
  'freeze',
  'seal',
  'preventExtensions',
]);
/** `Reflect.get`, `Object.defineProperty`…: a call the scan judges by its target and key. */
const isReflection = (val: Val): boolean =>
  val.k === 'mod' &&
  val.m === 'other' &&
  val.path.length === 2 &&
  (val.path[0] === 'Reflect' || val.path[0] === 'Object') &&
  (REFLECT_READS.has(val.path[1]!) || REFLECT_WRITES.has(val.path[1]!));

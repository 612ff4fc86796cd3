/**
 * What each name in a file is bound to, for the tell scan (tell-values.ts evaluates it): every
 * declaration, import, assignment and destructuring of the name, the call sites of the file's own
 * functions (their parameters take the arguments), and the vocabulary of values the scan knows:
 * a constant string, a built-in and the property path below it, where the module runs from, a
 * call stack, an Error, a `require`, or unknown. Pure.
 */
import ts from 'typescript';
import { moduleOf, type Builtin } from './tell-names';
import { bindingKey, isReference } from './tell-syntax';

export type Val =
  | { readonly k: 'str'; readonly s: string }
  | { readonly k: 'mod'; readonly m: Builtin; readonly path: readonly string[] }
  | { readonly k: 'loc' }
  | { readonly k: 'stack' }
  /** An Error: `fresh` when made here (`new Error()`), so its stack is this very call's. */
  | { readonly k: 'error'; readonly fresh: boolean }
  | { readonly k: 'require'; readonly created: boolean }
  | { readonly k: 'unknown' };

export type Source =
  | { readonly kind: 'expr'; readonly expr: ts.Expression }
  | { readonly kind: 'val'; readonly val: Val }
  | { readonly kind: 'member'; readonly from: Source; readonly key: ts.PropertyName }
  | { readonly kind: 'param'; readonly fn: ts.SignatureDeclaration; readonly index: number }
  | { readonly kind: 'element'; readonly of: ts.Expression };

export const UNKNOWN: Val = { k: 'unknown' };
export const LOC: Val = { k: 'loc' };
export const mod = (m: Builtin, path: readonly string[] = []): Val => ({ k: 'mod', m, path });

/** The built-in a specifier's possible values load (unknown for any other module or a name not known before run time). */
export function moduleValues(specifiers: readonly string[] | null): Val[] {
  if (specifiers === null) return [UNKNOWN];
  return specifiers.map((s) => {
    const m = moduleOf(s);
    return m ? mod(m) : UNKNOWN;
  });
}

/** `(x)`, `x as T`, `x!`, `<T>x`, `await x`, `x satisfies T`: the value of `x`. */
export function unwrap(node: ts.Expression): ts.Expression {
  let e = node;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isTypeAssertionExpression(e) ||
    ts.isAwaitExpression(e) ||
    ts.isSatisfiesExpression(e)
  )
    e = e.expression;
  return e;
}

/** Each binding of one file (tell-syntax.ts `bindingKey`) and what it may be bound to. */
export class Bindings {
  readonly names = new Map<string, Source[]>();
  /** Each function's binding → the calls of it; `otherUses`: bindings used other than as a direct callee (exported, passed on). */
  readonly calls = new Map<string, ts.CallExpression[]>();
  readonly otherUses = new Set<string>();
  readonly functions = new Set<string>();

  constructor(file: ts.SourceFile) {
    const stack: ts.Node[] = [file];
    while (stack.length) {
      const node = stack.pop()!;
      this.collect(node);
      node.forEachChild((child) => {
        if (!ts.isTypeNode(child)) stack.push(child);
      });
    }
  }

  private bind(id: ts.Identifier, source: Source): void {
    const { key } = bindingKey(id, id.text);
    const list = this.names.get(key) ?? [];
    list.push(source);
    this.names.set(key, list);
  }

  private bindName(name: ts.BindingName, source: Source): void {
    if (ts.isIdentifier(name)) return this.bind(name, source);
    for (const element of name.elements) {
      if (ts.isOmittedExpression(element)) continue;
      const from: Source = ts.isObjectBindingPattern(name)
        ? element.dotDotDotToken
          ? { kind: 'val', val: UNKNOWN }
          : { kind: 'member', from: source, key: element.propertyName ?? (element.name as ts.Identifier) }
        : { kind: 'val', val: UNKNOWN };
      this.bindName(element.name, from);
      if (element.initializer) this.bindName(element.name, { kind: 'expr', expr: element.initializer });
    }
  }

  private collect(node: ts.Node): void {
    if (ts.isFunctionDeclaration(node) && node.name) {
      this.functions.add(bindingKey(node.name, node.name.text).key);
    } else if (ts.isVariableDeclaration(node)) {
      if (ts.isIdentifier(node.name) && node.initializer && isFunction(unwrap(node.initializer))) this.functions.add(bindingKey(node.name, node.name.text).key);
      const list = node.parent;
      const loop = ts.isVariableDeclarationList(list) ? list.parent : undefined;
      if (loop && ts.isForOfStatement(loop)) this.bindName(node.name, { kind: 'element', of: loop.expression });
      else if (loop && ts.isForInStatement(loop)) this.bindName(node.name, { kind: 'val', val: UNKNOWN });
      else this.bindName(node.name, node.initializer ? { kind: 'expr', expr: node.initializer } : { kind: 'val', val: UNKNOWN });
    } else if (ts.isParameter(node) && ts.isFunctionLike(node.parent)) {
      this.bindName(node.name, { kind: 'param', fn: node.parent, index: node.parent.parameters.indexOf(node) });
      if (node.initializer) this.bindName(node.name, { kind: 'expr', expr: node.initializer });
    } else if (ts.isCatchClause(node) && node.variableDeclaration) {
      // What is caught is most often an Error: its stack is followed, not flagged by itself.
      this.bindName(node.variableDeclaration.name, { kind: 'val', val: { k: 'error', fresh: false } });
    } else if (ts.isImportDeclaration(node) && node.importClause && ts.isStringLiteral(node.moduleSpecifier)) {
      this.collectImport(node.importClause, node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const spec = node.moduleReference.expression;
      this.bind(node.name, { kind: 'val', val: moduleValues(ts.isStringLiteral(spec) ? [spec.text] : null)[0]! });
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const left = unwrap(node.left);
      if (ts.isIdentifier(left)) this.bind(left, { kind: 'expr', expr: node.right });
      else if (ts.isObjectLiteralExpression(left)) this.collectAssignmentPattern(left, { kind: 'expr', expr: node.right });
    } else if (ts.isBinaryExpression(node) && isCompoundAssignment(node.operatorToken.kind) && ts.isIdentifier(unwrap(node.left))) {
      this.bind(unwrap(node.left) as ts.Identifier, { kind: 'val', val: UNKNOWN });
    } else if (ts.isIdentifier(node) && isReference(node)) {
      const parent = node.parent;
      const { key } = bindingKey(node, node.text);
      if (ts.isCallExpression(parent) && parent.expression === node) {
        const list = this.calls.get(key) ?? [];
        list.push(parent);
        this.calls.set(key, list);
      } else this.otherUses.add(key);
    }
  }

  private collectImport(clause: ts.ImportClause, specifier: string): void {
    const m = moduleOf(specifier);
    const val = (path: string[]): Val => (m ? mod(m, path) : UNKNOWN);
    if (clause.name) this.bind(clause.name, { kind: 'val', val: val([]) });
    const named = clause.namedBindings;
    if (named && ts.isNamespaceImport(named)) this.bind(named.name, { kind: 'val', val: val([]) });
    if (named && ts.isNamedImports(named))
      for (const s of named.elements) {
        const imported = (s.propertyName ?? s.name).text;
        this.bind(s.name, { kind: 'val', val: val(imported === 'default' ? [] : [imported]) });
      }
  }

  /** `({ execArgv } = process)`: each name gets the property it is assigned from. */
  private collectAssignmentPattern(pattern: ts.ObjectLiteralExpression, source: Source): void {
    for (const p of pattern.properties) {
      if (ts.isShorthandPropertyAssignment(p)) this.bind(p.name, { kind: 'member', from: source, key: p.name });
      else if (ts.isPropertyAssignment(p)) {
        const target = unwrap(p.initializer);
        const from: Source = { kind: 'member', from: source, key: p.name };
        if (ts.isIdentifier(target)) this.bind(target, from);
        else if (ts.isObjectLiteralExpression(target)) this.collectAssignmentPattern(target, from);
      }
    }
  }
}

const isCompoundAssignment = (kind: ts.SyntaxKind) => kind >= ts.SyntaxKind.FirstCompoundAssignment && kind <= ts.SyntaxKind.LastCompoundAssignment;

const isFunction = (e: ts.Expression) => ts.isArrowFunction(e) || ts.isFunctionExpression(e);

/** The binding a function is called by (the variable it initialises, or its declaration's name), or null. */
export function functionKey(fn: ts.SignatureDeclaration): string | null {
  const parent = fn.parent;
  const id = parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name : ts.isFunctionDeclaration(fn) ? fn.name : undefined;
  return id ? bindingKey(id, id.text).key : null;
}

export function isExported(fn: ts.SignatureDeclaration): boolean {
  const holder = ts.isVariableDeclaration(fn.parent) ? fn.parent.parent.parent : fn;
  return ts.canHaveModifiers(holder) && (ts.getModifiers(holder) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
}

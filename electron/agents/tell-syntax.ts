/**
 * Syntax questions the tell scan asks of the TypeScript tree: is this identifier a use of a value,
 * is a name declared in an enclosing scope, where does a value go once its wrappers are peeled.
 * Pure.
 */
import ts from 'typescript';

/** The name a declaration introduces (not a use of it). */
export function isDeclarationName(node: ts.Identifier): boolean {
  const p = node.parent;
  return (
    ((ts.isVariableDeclaration(p) ||
      ts.isParameter(p) ||
      ts.isFunctionDeclaration(p) ||
      ts.isFunctionExpression(p) ||
      ts.isClassDeclaration(p) ||
      ts.isClassExpression(p) ||
      ts.isBindingElement(p) ||
      ts.isImportSpecifier(p) ||
      ts.isImportClause(p) ||
      ts.isNamespaceImport(p) ||
      ts.isImportEqualsDeclaration(p) ||
      ts.isEnumDeclaration(p) ||
      ts.isModuleDeclaration(p)) &&
      p.name === node) ||
    (ts.isBindingElement(p) && p.propertyName === node)
  );
}

/** An identifier that names a value here: not a property name, a label, a key or a type. */
export function isReference(node: ts.Identifier): boolean {
  const p = node.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isPropertyAssignment(p) || ts.isMethodDeclaration(p)) && p.name === node) return false;
  if (ts.isQualifiedName(p)) return false;
  if ((ts.isPropertyDeclaration(p) || ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isEnumMember(p) || ts.isPropertySignature(p)) && p.name === node)
    return false;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p) || ts.isMetaProperty(p) || ts.isJsxAttribute(p)) return false;
  if (ts.isImportSpecifier(p) && p.propertyName === node) return false;
  // `export { local as exported }`, and nothing of a re-export (`export { x } from 'm'`), names a local value.
  if (ts.isExportSpecifier(p)) return !p.parent.parent.moduleSpecifier && node === (p.propertyName ?? p.name);
  return !ts.isTypeNode(p) && !isDeclarationName(node);
}

/** The names a binding (`a`, `{ a, b: [c] }`) introduces. */
function bindingNames(name: ts.BindingName, out: string[] = []): string[] {
  if (ts.isIdentifier(name)) out.push(name.text);
  else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindingNames(e.name, out);
  return out;
}

/** The names a statement list declares (var, let, const, function, class, import, enum). */
function declaredBy(statements: readonly ts.Statement[]): string[] {
  const out: string[] = [];
  for (const s of statements) {
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bindingNames(d.name, out);
    else if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) out.push(s.name.text);
    else if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) out.push(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) out.push(c.namedBindings.name.text);
      if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) out.push(e.name.text);
    } else if (ts.isImportEqualsDeclaration(s)) out.push(s.name.text);
  }
  return out;
}

/** The `var`s a function body (or a file) declares anywhere in it, nested functions aside: they are hoisted to it. */
function hoisted(body: ts.Node): string[] {
  const out: string[] = [];
  const stack: ts.Node[] = [body];
  while (stack.length) {
    const node = stack.pop()!;
    if (ts.isVariableDeclarationList(node) && !(node.flags & ts.NodeFlags.BlockScoped)) for (const d of node.declarations) bindingNames(d.name, out);
    node.forEachChild((child) => {
      if (!ts.isFunctionLike(child) && !ts.isClassLike(child)) stack.push(child);
    });
  }
  return out;
}

/** Whether a scope around `node` declares `name` (a global of that name is then not the one read). */
export const isShadowed = (node: ts.Node, name: string): boolean => !bindingKey(node, name).global;

const scopeIds = new WeakMap<ts.Node, number>();

/**
 * Which binding a name at `node` is: the nearest scope around it that declares the name (one key
 * for a declaration and every use of it), or the platform's global when none does.
 */
export function bindingKey(node: ts.Node, name: string): { readonly key: string; readonly global: boolean } {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent)
    if (scopeNames(at).has(name)) {
      if (!scopeIds.has(at)) scopeIds.set(at, nextScope++);
      return { key: `${scopeIds.get(at)}:${name}`, global: false };
    }
  return { key: `global:${name}`, global: true };
}
let nextScope = 1;

/** Each node's own declarations, worked out once (a scan asks for every identifier). */
const declared = new WeakMap<ts.Node, ReadonlySet<string>>();

function scopeNames(at: ts.Node): ReadonlySet<string> {
  const known = declared.get(at);
  if (known) return known;
  const names = new Set(namesOf(at));
  declared.set(at, names);
  return names;
}

function namesOf(at: ts.Node): string[] {
  if (ts.isSourceFile(at)) return [...declaredBy(at.statements), ...hoisted(at)];
  if (ts.isBlock(at) || ts.isModuleBlock(at)) return [...declaredBy(at.statements), ...(at.parent && ts.isFunctionLike(at.parent) ? hoisted(at) : [])];
  if (ts.isCaseBlock(at)) return at.clauses.flatMap((c) => declaredBy(c.statements));
  if (ts.isFunctionLike(at)) {
    const names = at.parameters.flatMap((p) => bindingNames(p.name));
    if ((ts.isFunctionExpression(at) || ts.isClassExpression(at)) && at.name) names.push(at.name.text);
    return names;
  }
  if ((ts.isForStatement(at) || ts.isForOfStatement(at) || ts.isForInStatement(at)) && at.initializer && ts.isVariableDeclarationList(at.initializer))
    return at.initializer.declarations.flatMap((d) => bindingNames(d.name));
  return ts.isCatchClause(at) && at.variableDeclaration ? bindingNames(at.variableDeclaration.name) : [];
}

/** Wrappers a value passes through unchanged: `(x)`, `x as T`, `x!`, `await x`, `a ? x : y`, `x ?? y`, `a, x`. */
function passesThrough(parent: ts.Node, child: ts.Node): boolean {
  if (
    ts.isParenthesizedExpression(parent) ||
    ts.isAsExpression(parent) ||
    ts.isNonNullExpression(parent) ||
    ts.isTypeAssertionExpression(parent) ||
    ts.isAwaitExpression(parent) ||
    ts.isSatisfiesExpression(parent)
  )
    return true;
  if (ts.isConditionalExpression(parent)) return parent.condition !== child;
  if (!ts.isBinaryExpression(parent)) return false;
  const op = parent.operatorToken.kind;
  if (op === ts.SyntaxKind.CommaToken) return parent.right === child;
  return op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.AmpersandAmpersandToken;
}

/** Where a value ends up: the first parent that does something with it, and the child of that parent it arrives as. */
export function destination(node: ts.Node): { parent: ts.Node; child: ts.Node } {
  let child = node;
  while (child.parent && passesThrough(child.parent, child)) child = child.parent;
  return { parent: child.parent, child };
}

/** Whether `node` only passes its value through to its parent (the parent is judged instead). */
export const isPassedThrough = (node: ts.Node): boolean => !!node.parent && passesThrough(node.parent, node);

const COMPARISONS = new Set([
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
]);
export const isComparison = (node: ts.Node): boolean => ts.isBinaryExpression(node) && COMPARISONS.has(node.operatorToken.kind);

/** `=`, `+=`, … */
export const isAssignment = (node: ts.Node): node is ts.BinaryExpression =>
  ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment;

/** A string expression: a literal, a template, or a `+` (whose parts may be strings). */
export const isStringish = (node: ts.Node): boolean =>
  ts.isStringLiteralLike(node) || ts.isTemplateExpression(node) || (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);

/** The expressions whose value may be a location or a stack (the rest only pass one through). */
export const isValue = (node: ts.Node): boolean =>
  (ts.isIdentifier(node) && isReference(node)) ||
  ts.isPropertyAccessExpression(node) ||
  ts.isElementAccessExpression(node) ||
  ts.isCallExpression(node) ||
  ts.isNewExpression(node) ||
  ts.isTemplateExpression(node) ||
  (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken);

/**
 * The mutants of a source file for mutation testing (mutate-item.ts): the small edits StrykerJS
 * makes (an operator swapped, a condition forced, a function body emptied, a string blanked), each
 * one span of the source replaced. Found on the TypeScript syntax tree so that types, imports and
 * declarations are never touched and every mutant still parses. Pure and deterministic: the same
 * source gives the same mutants, in source order, with the same ids.
 */
import ts from 'typescript';
import type { SurvivedMutant } from '../../shared/ledger';

/** A mutant: where (file as passed in, 1-based line and column of the replaced span), which mutation, the code before and after. */
export interface Mutant extends SurvivedMutant {
  /** Stable id: `${file}:${line}:${column}:${operator}` plus `#n` when the same triple repeats. */
  readonly id: string;
  /** Character offsets into the source of the replaced span. */
  readonly start: number;
  readonly end: number;
}

/** One edit found on the tree, before it is placed in the source. */
interface Edit {
  readonly operator: string;
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

type Rule = (node: ts.Node, sf: ts.SourceFile) => Edit[];

const K = ts.SyntaxKind;

/** Files whose code can be mutated: .js .mjs .cjs .jsx .ts .mts .cts .tsx (not .d.ts). */
export function mutable(path: string): boolean {
  return /\.(?:[cm]?[jt]s|[jt]sx)$/i.test(path) && !/\.d\.[cm]?ts$/i.test(path);
}

function scriptKindFor(file: string): ts.ScriptKind {
  const ext = /\.[^./\\]+$/.exec(file.toLowerCase())?.[0];
  if (ext === '.tsx') return ts.ScriptKind.TSX;
  if (ext === '.jsx') return ts.ScriptKind.JSX;
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs') return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Every mutant of `source` whose node starts on one of `lines` (1-based; null = every line), in source order. Never throws: unparsable input gives []. */
export function mutantsOf(file: string, source: string, lines: ReadonlySet<number> | null): Mutant[] {
  try {
    const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, scriptKindFor(file));
    // A file that does not parse has no trustworthy tree, and its mutants could not be told from its own errors.
    if (sf.isDeclarationFile || parseErrors(sf) > 0) return [];
    const edits = collect(sf).sort((a, b) => a.start - b.start);
    const placed = edits.map((e) => place(file, sf, e)).filter((m) => lines === null || lines.has(m.line));
    return withIds(placed);
  } catch {
    return [];
  }
}

/** The source with the mutant's span replaced. */
export function applyMutant(source: string, mutant: Mutant): string {
  return source.slice(0, mutant.start) + mutant.replacement + source.slice(mutant.end);
}

/** At most `max` mutants, chosen deterministically and spread evenly across the list (keeps order); all when there are no more than max. */
export function pickMutants(mutants: readonly Mutant[], max: number): Mutant[] {
  const n = Math.max(0, Math.floor(max) || 0);
  if (mutants.length <= n) return [...mutants];
  return Array.from({ length: n }, (_, i) => mutants[Math.floor((i * mutants.length) / n)]!);
}

/** The parser's own errors. `parseDiagnostics` is internal to the compiler API, so it is read defensively. */
function parseErrors(sf: ts.SourceFile): number {
  return (sf as unknown as { parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics?.length ?? 0;
}

function collect(sf: ts.SourceFile): Edit[] {
  const edits: Edit[] = [];
  const visit = (node: ts.Node): void => {
    if (untouchable(node)) return;
    for (const rule of RULES) edits.push(...rule(node, sf));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edits;
}

/** Types, imports and exports, decorators and ambient declarations: no code runs there to mutate. */
function untouchable(node: ts.Node): boolean {
  return (
    ts.isTypeNode(node) ||
    ts.isTypeParameterDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isImportDeclaration(node) ||
    ts.isImportEqualsDeclaration(node) ||
    ts.isExportDeclaration(node) ||
    ts.isDecorator(node) ||
    (ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((m) => m.kind === K.DeclareKeyword) ?? false))
  );
}

const edit = (operator: string, start: number, end: number, replacement: string): Edit => ({ operator, start, end, replacement });

/** Binary operators and what each becomes; a relational one gives a boundary and a negated mutant. */
const BINARY = new Map<ts.SyntaxKind, ReadonlyArray<readonly [string, string]>>([
  [K.PlusToken, [['arithmetic', '-']]],
  [K.MinusToken, [['arithmetic', '+']]],
  [K.AsteriskToken, [['arithmetic', '/']]],
  [K.SlashToken, [['arithmetic', '*']]],
  [K.PercentToken, [['arithmetic', '*']]],
  [K.EqualsEqualsEqualsToken, [['equality', '!==']]],
  [K.ExclamationEqualsEqualsToken, [['equality', '===']]],
  [K.EqualsEqualsToken, [['equality', '!=']]],
  [K.ExclamationEqualsToken, [['equality', '==']]],
  [
    K.LessThanToken,
    [
      ['boundary', '<='],
      ['relational', '>='],
    ],
  ],
  [
    K.LessThanEqualsToken,
    [
      ['boundary', '<'],
      ['relational', '>'],
    ],
  ],
  [
    K.GreaterThanToken,
    [
      ['boundary', '>='],
      ['relational', '<='],
    ],
  ],
  [
    K.GreaterThanEqualsToken,
    [
      ['boundary', '>'],
      ['relational', '<'],
    ],
  ],
  [K.AmpersandAmpersandToken, [['logical', '||']]],
  [K.BarBarToken, [['logical', '&&']]],
  [K.QuestionQuestionToken, [['logical', '&&']]],
]);

const isBinary = (node: ts.Node, kind: ts.SyntaxKind): node is ts.BinaryExpression => ts.isBinaryExpression(node) && node.operatorToken.kind === kind;

/** A string (so `+` is concatenation): a string or template literal, or a sum with one in it. */
function stringy(node: ts.Expression): boolean {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) return true;
  if (ts.isParenthesizedExpression(node)) return stringy(node.expression);
  return isBinary(node, K.PlusToken) && (stringy(node.left) || stringy(node.right));
}

const binary: Rule = (node, sf) => {
  if (!ts.isBinaryExpression(node)) return [];
  const op = node.operatorToken;
  const swaps = BINARY.get(op.kind);
  if (!swaps) return [];
  if (op.kind === K.PlusToken && (stringy(node.left) || stringy(node.right))) return [];
  // `??` cannot sit beside `&&` unparenthesized: `a ?? b ?? c` has no valid `&&` mutant.
  if (op.kind === K.QuestionQuestionToken && (isBinary(node.left, op.kind) || isBinary(node.parent, op.kind))) return [];
  if (op.kind === K.BarBarToken && isBinary(node.left, K.BarBarToken)) return [wrappedOr(node, sf)];
  return swaps.map(([operator, text]) => edit(operator, op.getStart(sf), op.end, text));
};

/**
 * The last `||` of `a || b || c` as `&&`: swapped alone it would bind `b && c` first, so the left
 * operand is parenthesized with it to keep the tree the same but for the operator.
 */
function wrappedOr(node: ts.BinaryExpression, sf: ts.SourceFile): Edit {
  const text = sf.text;
  const left = node.left.getStart(sf);
  const op = node.operatorToken;
  return edit('logical', left, op.end, `(${text.slice(left, node.left.end)})${text.slice(node.left.end, op.getStart(sf))}&&`);
}

const prefix: Rule = (node, sf) => {
  if (!ts.isPrefixUnaryExpression(node)) return [];
  const start = node.getStart(sf);
  const operand = node.operand.getText(sf);
  switch (node.operator) {
    case K.ExclamationToken:
      return [edit('negation', start, node.end, operand)];
    case K.MinusToken:
      return [edit('unary', start, node.end, operand)];
    case K.PlusToken:
      return [edit('unary', start, node.end, `-${operand}`)];
    case K.PlusPlusToken:
      return [edit('update', start, start + 2, '--')];
    case K.MinusMinusToken:
      return [edit('update', start, start + 2, '++')];
    default:
      return [];
  }
};

// A postfix operator is the node's last token: `x ++` is allowed, `x\n++` is not.
const postfix: Rule = (node) =>
  ts.isPostfixUnaryExpression(node) ? [edit('update', node.end - 2, node.end, node.operator === K.PlusPlusToken ? '--' : '++')] : [];

const boolean: Rule = (node, sf) => {
  if (node.kind !== K.TrueKeyword && node.kind !== K.FalseKeyword) return [];
  return [edit('boolean', node.getStart(sf), node.end, node.kind === K.TrueKeyword ? 'false' : 'true')];
};

function conditionOf(node: ts.Node): ts.Expression | undefined {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node)) return node.expression;
  if (ts.isForStatement(node) || ts.isConditionalExpression(node)) return node.condition;
  return undefined;
}

// `do … while` is left alone: forced true it never ends, forced false it is the same loop run once.
const condition: Rule = (node, sf) => {
  const cond = conditionOf(node);
  if (!cond || cond.kind === K.TrueKeyword || cond.kind === K.FalseKeyword) return [];
  const start = cond.getStart(sf);
  return [edit('condition', start, cond.end, 'true'), edit('condition', start, cond.end, 'false')];
};

/** No declared result, or one that an empty body still satisfies: void or Promise<void>. */
function voidResult(type: ts.TypeNode | undefined): boolean {
  if (!type || type.kind === K.VoidKeyword) return true;
  return (
    ts.isTypeReferenceNode(type) &&
    ts.isIdentifier(type.typeName) &&
    type.typeName.text === 'Promise' &&
    type.typeArguments?.length === 1 &&
    type.typeArguments[0]!.kind === K.VoidKeyword
  );
}

/** A `return <value>` of this function's own (nested functions have their own returns). */
function returnsValue(node: ts.Node): boolean {
  if (ts.isReturnStatement(node)) return node.expression !== undefined;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, returnsValue) ?? false;
}

// An emptied body that returned a value would change the function's type: other mutants cover it.
const block: Rule = (node, sf) => {
  if (!(ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node))) return [];
  const body = node.body;
  if (!body || !ts.isBlock(body) || body.statements.length === 0 || !voidResult(node.type) || returnsValue(body)) return [];
  return [edit('block', body.getStart(sf), body.end, '{}')];
};

/** A string whose value is code's data: not a name, a directive, a module to load, or a template's tag argument. */
function blankable(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral): boolean {
  const p = node.parent;
  if (ts.isExpressionStatement(p) || ts.isTaggedTemplateExpression(p) || ts.isComputedPropertyName(p)) return false;
  if ((p as { name?: ts.Node }).name === node) return false;
  const loads = ts.isCallExpression(p) && (p.expression.kind === K.ImportKeyword || (ts.isIdentifier(p.expression) && p.expression.text === 'require'));
  return !loads;
}

const string: Rule = (node, sf) => {
  if (!(ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) || node.text === '' || !blankable(node)) return [];
  return [edit('string', node.getStart(sf), node.end, '""')];
};

const MATH_SWAP: Readonly<Record<string, string>> = { min: 'max', max: 'min' };

const math: Rule = (node, sf) => {
  if (!ts.isPropertyAccessExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'Math') return [];
  const swap = MATH_SWAP[node.name.text];
  if (!swap || !ts.isCallExpression(node.parent) || node.parent.expression !== node) return [];
  return [edit('math', node.name.getStart(sf), node.name.end, swap)];
};

const RULES: readonly Rule[] = [binary, prefix, postfix, boolean, condition, block, string, math];

const WORD = /[\p{ID_Continue}$\u200c\u200d]/u;

/** Two characters that would fuse into another token side by side: `a-+b` → `a--b`, `typeof!x` → `typeofx`, a `/` before `/` or `*` (a comment). */
function fuses(left: string, right: string): boolean {
  if (WORD.test(left) && WORD.test(right)) return true;
  if ((left === '+' || left === '-') && left === right) return true;
  return left === '/' && (right === '/' || right === '*');
}

/** The edit as a mutant without its id: its position, and its text spaced off its neighbours where they would fuse. */
function place(file: string, sf: ts.SourceFile, e: Edit): Omit<Mutant, 'id'> {
  const source = sf.text;
  let replacement = e.replacement;
  if (fuses(source[e.start - 1] ?? ' ', replacement[0] ?? ' ')) replacement = ` ${replacement}`;
  if (fuses(replacement.at(-1) ?? ' ', source[e.end] ?? ' ')) replacement = `${replacement} `;
  const { line, character } = sf.getLineAndCharacterOfPosition(e.start);
  return { file, line: line + 1, column: character + 1, operator: e.operator, original: source.slice(e.start, e.end), replacement, start: e.start, end: e.end };
}

function withIds(mutants: readonly Omit<Mutant, 'id'>[]): Mutant[] {
  const seen = new Map<string, number>();
  return mutants.map((m) => {
    const key = `${m.file}:${m.line}:${m.column}:${m.operator}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return { id: n === 1 ? key : `${key}#${n}`, ...m };
  });
}

/**
 * What a parsed JSON value may hold before Baton hashes, stores or shows it. JSON.parse accepts
 * text that RFC 8785 (the canonical form every Baton hash is taken over) cannot carry, and text that
 * recursive code cannot walk:
 *
 * - numbers beyond the double range (`1e999` parses to Infinity, which has no JSON form);
 * - lone UTF-16 surrogates (`"\ud800"`): RFC 8785 requires strings to be valid Unicode, so a string
 *   holding half a surrogate pair is refused rather than hashed in some tool-specific way;
 * - nesting deeper than MAX_JSON_DEPTH arrays and objects: V8's JSON.parse builds a 100,000-deep
 *   value without complaint, and the first recursive walk over it (the canonicaliser, a schema,
 *   JSON.stringify) overflows the stack.
 *
 * The check walks the value iteratively, so it cannot overflow itself. `-0` and `1e-400` (which
 * parses to 0) are ordinary numbers: their canonical form is `0`.
 */

/** The deepest nesting of arrays and objects accepted in a JSON artifact, ledger record or report. */
export const MAX_JSON_DEPTH = 512;

export type JsonHazardKind = 'depth' | 'number' | 'surrogate' | 'type';

export interface JsonHazard {
  readonly kind: JsonHazardKind;
  /** What is wrong, for a sentence such as "it holds <reason>". */
  readonly reason: string;
  /** Where, as a field path (`items[0].name`), or '' for the value itself. */
  readonly path: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
/** Any surrogate at all: a cheap first test, since almost every string has none. */
const SURROGATE = /[\ud800-\udfff]/;

/** The first lone surrogate of `text` as a `\uXXXX` escape, or null when the text is valid Unicode. */
export const loneSurrogate = (text: string): string | null => {
  const found = LONE_SURROGATE.exec(text);
  return found === null ? null : `\\u${found[0].charCodeAt(0).toString(16).padStart(4, '0')}`;
};

/** `text` with every lone surrogate replaced by U+FFFD, so it can be hashed and stored. */
export const wellFormed = (text: string): string => (LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, '\ufffd') : text);

const PATH_LIMIT = 80;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

interface Node {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Node | null;
  readonly key: string | number | null;
}

const pathOf = (node: Node): string => {
  const parts: string[] = [];
  for (let at: Node | null = node; at !== null && at.key !== null; at = at.parent) {
    const key = at.key;
    parts.push(typeof key === 'number' ? `[${key}]` : IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(wellFormed(key))}]`);
  }
  const full = parts.reverse().join('').replace(/^\./, '');
  return full.length > PATH_LIMIT ? `${full.slice(0, PATH_LIMIT)}…` : full;
};

/** The literal of the first number in JSON `text` that does not fit a double (`1e999`), if any. */
export const oversizedNumberLiteral = (text: string): string | null => {
  // Strings are matched whole so digits inside them are skipped; the text parsed, so tokens align.
  const tokens = /"(?:[^"\\]|\\[\s\S])*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (let m = tokens.exec(text); m !== null; m = tokens.exec(text)) {
    if (m[0].startsWith('"')) continue;
    if (!Number.isFinite(Number(m[0]))) return m[0].length > 40 ? `${m[0].slice(0, 40)}…` : m[0];
  }
  return null;
};

const hazard = (kind: JsonHazardKind, reason: string, node: Node): JsonHazard => ({ kind, reason, path: pathOf(node) });

const scalarHazard = (node: Node, text: string | undefined): JsonHazard | null => {
  const { value } = node;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return null;
    if (Number.isNaN(value)) return hazard('number', 'NaN, which is not a number', node);
    const literal = text === undefined ? null : oversizedNumberLiteral(text);
    return hazard('number', `a number too large for JSON (${literal ?? String(value)})`, node);
  }
  if (typeof value === 'string') {
    const lone = loneSurrogate(value);
    return lone === null ? null : hazard('surrogate', `a lone surrogate (${lone}) in a string`, node);
  }
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    return hazard('type', `a value JSON cannot carry (a ${typeof value})`, node);
  }
  return null;
};

/** Reverses `stack` from `from` to its end, in place. */
const reverseFrom = (stack: unknown[], from: number): void => {
  for (let i = from, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j], stack[i]];
};

/**
 * Why `value` cannot be hashed as canonical JSON (and should not be walked recursively), or null.
 * `text`, the JSON it was parsed from, lets the reason quote an oversized number as written.
 */
export const jsonHazard = (value: unknown, text?: string, maxDepth: number = MAX_JSON_DEPTH): JsonHazard | null => {
  const root: Node = { value, depth: 0, parent: null, key: null };
  if (value === null || typeof value !== 'object') return scalarHazard(root, text);
  const stack: Node[] = [root];
  const seen = new Set<object>();
  // Scalars are checked where they are met and only containers are pushed: a 300,000-number array
  // costs no allocation per number. Each container's children are then reversed on the stack, so
  // the walk follows the order of the text.
  const child = (parent: Node, key: string | number, item: unknown): JsonHazard | null => {
    if (item !== null && typeof item === 'object') {
      stack.push({ value: item, depth: parent.depth + 1, parent, key });
      return null;
    }
    if (typeof item === 'boolean' || item === null || item === undefined || (typeof item === 'number' && Number.isFinite(item))) return null;
    if (typeof item === 'string' && !SURROGATE.test(item)) return null;
    return scalarHazard({ value: item, depth: parent.depth + 1, parent, key }, text);
  };
  while (stack.length > 0) {
    const node = stack.pop()!;
    const current = node.value as object;
    // A value built in code may share or loop; JSON.parse never makes either. Each object is walked once.
    if (seen.has(current)) continue;
    seen.add(current);
    if (node.depth >= maxDepth) return hazard('depth', `nesting deeper than ${maxDepth} levels`, node);
    const mark = stack.length;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const found = child(node, i, current[i]);
        if (found !== null) return found;
      }
      reverseFrom(stack, mark);
      continue;
    }
    const keys = Object.keys(current);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const lone = SURROGATE.test(key) ? loneSurrogate(key) : null;
      if (lone !== null) {
        return hazard('surrogate', `a lone surrogate (${lone}) in a key`, { value: key, depth: node.depth + 1, parent: node, key });
      }
      const found = child(node, key, (current as Record<string, unknown>)[key]);
      if (found !== null) return found;
    }
    reverseFrom(stack, mark);
  }
  return null;
};

/** One sentence naming the hazard and where it is: "a lone surrogate (\ud800) … at `name`". */
export const describeJsonHazard = (found: JsonHazard): string => (found.path === '' ? found.reason : `${found.reason} at \`${found.path}\``);

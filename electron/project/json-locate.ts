/**
 * Finds where a JSON text first goes wrong, as a line and column.
 *
 * Node 20's JSON.parse often reports no position at all ("Unexpected token '}', "<the whole
 * file>" is not valid JSON"), which is useless for a multi-megabyte artifact. This scanner runs
 * only after JSON.parse has failed, and is iterative so deeply nested input cannot overflow the
 * stack.
 */

import { describeJsonHazard, jsonHazard, type JsonHazard } from '../../shared/json-safety';

export interface JsonErrorLocation {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

interface Failure {
  readonly offset: number;
  readonly reason: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** A printable ASCII character as itself; anything else (a control, a BOM, U+FFFD from bad UTF-8) by its code point. */
const describe = (ch: string | undefined): string =>
  ch === undefined ? 'end of file' : ch >= ' ' && ch <= '~' ? `'${ch}'` : `character U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Returns the offset just past the string starting at `start` (a `"`), or a failure. */
const scanString = (text: string, start: number): number | Failure => {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return i + 1;
    if (ch < ' ') return { offset: i, reason: `${describe(ch)} inside a string (escape it)` };
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          return { offset: i, reason: 'a \\u escape needs four hex digits' };
        }
        i += 6;
        continue;
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) {
        return { offset: i, reason: `invalid escape \\${next ?? ''}` };
      }
      i += 2;
      continue;
    }
    i += 1;
  }
  return { offset: text.length, reason: 'unterminated string' };
};

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const scanScalar = (text: string, i: number): number | Failure => {
  const ch = text[i]!;
  if (ch === '"') return scanString(text, i);
  if (ch === '-' || (ch >= '0' && ch <= '9')) {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (match === null) return { offset: i, reason: 'invalid number' };
    return i + match[0].length;
  }
  for (const word of ['true', 'false', 'null']) {
    if (text.startsWith(word, i)) return i + word.length;
  }
  return { offset: i, reason: `unexpected ${describe(ch)}` };
};

const find = (text: string): Failure | null => {
  const stack: string[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length === 0 ? 'end' : 'comma-or-close');
  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i]!)) i += 1;
    const ch = text[i];
    if (ch === undefined) return expect === 'end' ? null : { offset: i, reason: 'unexpected end of file' };
    const top = stack[stack.length - 1];
    switch (expect) {
      case 'end':
        return { offset: i, reason: `unexpected ${describe(ch)} after the end of the JSON value` };
      case 'colon':
        if (ch !== ':') return { offset: i, reason: `expected ':' but found ${describe(ch)}` };
        i += 1;
        expect = 'value';
        break;
      case 'comma-or-close':
        if (ch === ',') {
          i += 1;
          expect = top === '{' ? 'key' : 'value';
        } else if (ch === (top === '{' ? '}' : ']')) {
          stack.pop();
          i += 1;
          expect = afterValue();
        } else {
          return { offset: i, reason: `expected ',' or '${top === '{' ? '}' : ']'}' but found ${describe(ch)}` };
        }
        break;
      case 'key':
      case 'key-or-close': {
        if (ch === '}' && expect === 'key-or-close') {
          stack.pop();
          i += 1;
          expect = afterValue();
          break;
        }
        if (ch !== '"') return { offset: i, reason: `expected a property name in double quotes but found ${describe(ch)}` };
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        expect = 'colon';
        break;
      }
      case 'value':
      case 'value-or-close': {
        if (ch === ']' && expect === 'value-or-close') {
          stack.pop();
          i += 1;
          expect = afterValue();
        } else if (ch === '{' || ch === '[') {
          stack.push(ch);
          i += 1;
          expect = ch === '{' ? 'key-or-close' : 'value-or-close';
        } else {
          const end = scanScalar(text, i);
          if (typeof end !== 'number') return end;
          i = end;
          expect = afterValue();
        }
        break;
      }
    }
  }
};

/** The 1-based line and column of the first error in `text`, or null when it is valid JSON. */
export const locateJsonError = (text: string): JsonErrorLocation | null => {
  const failure = find(text);
  if (failure === null) return null;
  const before = text.slice(0, failure.offset);
  const line = before.split('\n').length;
  const column = failure.offset - before.lastIndexOf('\n');
  return { line, column, reason: failure.reason };
};

export type JsonText = { readonly ok: true; readonly value: unknown; readonly hazard: JsonHazard | null } | { readonly ok: false; readonly detail: string };

/**
 * Parses an artifact's text: a leading byte-order mark is dropped (Windows editors write one), a
 * syntax error comes back located ("expected ',' … at line 3, column 7"), and a value that parses
 * but that Baton cannot hash or safely walk (1e999, a lone surrogate, nesting deeper than
 * MAX_JSON_DEPTH) comes back with its hazard. Never throws.
 */
export const parseJsonText = (raw: string): JsonText => {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const where = locateJsonError(text);
    const detail = where
      ? `${where.reason} at line ${where.line}, column ${where.column}`
      : (error instanceof Error ? error.message : String(error)).slice(0, 200);
    return { ok: false, detail };
  }
  return { ok: true, value, hazard: jsonHazard(value, text) };
};

/** The sentence a reader reports for a hazard: what the file holds, where, and why it matters. */
export const hazardMessage = (hazard: JsonHazard): string =>
  `holds ${describeJsonHazard(hazard)}, which canonical JSON (RFC 8785) cannot carry, so it cannot be hashed or approved; fix the file`;

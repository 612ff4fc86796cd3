/**
 * Tolerant field access for artifacts written by other tools (and by hand): the same field may
 * be spelled snake_case or camelCase, and prose fields may be a string or a list of lines.
 * Unknown fields are simply never looked at.
 */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first of `keys` that holds a value other than undefined or null. */
export const pick = (obj: JsonObject, ...keys: string[]): unknown => {
  for (const key of keys) {
    const value = obj[key];
    if (value !== undefined && value !== null) return value;
  }
  return undefined;
};

/** A scalar field as a string (ids are sometimes written as numbers). */
export const pickString = (obj: JsonObject, ...keys: string[]): string | undefined => {
  const value = pick(obj, ...keys);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
};

/** Prose: a string, or an array of strings joined line by line. */
export const pickText = (obj: JsonObject, ...keys: string[]): string | undefined => {
  const value = pick(obj, ...keys);
  if (Array.isArray(value)) {
    const lines = value.filter((line): line is string => typeof line === 'string');
    return lines.join('\n');
  }
  return pickString(obj, ...keys);
};

/** Describes a JSON value's shape for an error message ("a number", "an array"). */
export const shapeOf = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
};

/** Normalises an enum-like value: case-insensitive, `_` and spaces read as `-`. */
export const normaliseToken = (value: string): string =>
  value
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, '-');

/** Checks a value against an allowed list, after normalising it. */
export const matchToken = <T extends string>(value: string, allowed: readonly T[]): T | undefined => {
  const token = normaliseToken(value);
  return allowed.find((candidate) => normaliseToken(candidate) === token);
};

const CHUNK = /(\d+)|(\D+)/g;

/**
 * Natural order for ids: `S-2` before `S-10`. Compares digit runs as numbers and everything
 * else by code point, so the order does not depend on the machine's locale.
 */
export const naturalCompare = (a: string, b: string): number => {
  const left = a.match(CHUNK) ?? [];
  const right = b.match(CHUNK) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const xNum = /^\d/.test(x);
    const yNum = /^\d/.test(y);
    if (xNum && yNum) {
      const diff = Number(x) - Number(y);
      if (diff !== 0) return diff;
      // `07` and `7`: fall back to the text so the order is still total.
    }
    return x < y ? -1 : 1;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
};

export const byId = <T extends { readonly id: string }>(a: T, b: T): number => naturalCompare(a.id, b.id);

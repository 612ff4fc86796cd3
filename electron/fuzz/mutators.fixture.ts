/**
 * Mutators for the fuzz suite: each turns a valid seed (a project file, a ledger line, a report, a
 * frame) into a malformed one. Byte mutators work on anything; JSON mutators parse the seed, pick a
 * node or an object, and put raw JSON text there that JSON.stringify could never write (1e999, a
 * lone surrogate, 100,000-deep nesting, a `__proto__` or duplicate key).
 */
import type { Rng } from './prng.fixture';

export interface Mutated {
  /** What was done, for the failure message: `json:number(1e999) at items[0].status`. */
  readonly mutation: string;
  readonly bytes: Buffer;
}

export type Mutator = { readonly name: string; readonly apply: (seed: Buffer, rng: Rng) => Mutated };

const DEEP = 100_000;

/** Raw JSON values no serializer writes, and a few it does write but in the wrong place. */
export const HAZARDS: Readonly<Record<string, () => string>> = {
  'number:1e999': () => '1e999',
  'number:-1e999': () => '-1e999',
  'number:-0': () => '-0',
  'number:1e-400': () => '1e-400',
  'number:huge-integer': () => '123456789012345678901234567890123456789',
  'string:lone-high-surrogate': () => '"\\ud800"',
  'string:lone-low-surrogate': () => '"x\\udfffy"',
  'string:nul-and-escapes': () => '"a\\u0000b\\u001b[31m\\u202e"',
  'deep:arrays': () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`,
  'deep:objects': () => `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`,
  'huge:string': () => `"${'x'.repeat(2 * 1024 * 1024)}"`,
  'huge:spaces-string': () => `"${' '.repeat(1024 * 1024)}"`,
  'huge:array': () => `[${'0,'.repeat(100_000)}0]`,
};

/** Values of the wrong type for whatever field they land in. */
export const WRONG_TYPES = ['null', 'true', '0', '-1', '1.5', '""', '" "', '"x"', '[]', '{}', '[null]', '{"x":{}}', '"../../outside"', '"F-1"'];

const SENTINEL = '\u0000fuzz\u0000';
const SENTINEL_JSON = JSON.stringify(SENTINEL);

type Path = readonly (string | number)[];

/** Every node of a JSON value with its path, the root included (iterative: seeds are small, but still). */
const nodes = (root: unknown): { path: Path; value: unknown }[] => {
  const out: { path: Path; value: unknown }[] = [];
  const stack: { path: Path; value: unknown }[] = [{ path: [], value: root }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    if (Array.isArray(node.value)) node.value.forEach((v: unknown, i) => stack.push({ path: [...node.path, i], value: v }));
    else if (node.value !== null && typeof node.value === 'object') {
      for (const [k, v] of Object.entries(node.value)) stack.push({ path: [...node.path, k], value: v });
    }
  }
  return out;
};

const setAt = (root: unknown, path: Path, value: unknown): unknown => {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
};

const pathText = (path: Path): string => path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(root)';

const serialise = (value: unknown, rng: Rng): string => (rng.chance(0.5) ? JSON.stringify(value, null, 2) : JSON.stringify(value));

const parseSeed = (seed: Buffer): unknown => JSON.parse(seed.toString('utf8').replace(/^\ufeff/, ''));

/** Puts raw `text` where a random node of the seed was. */
const atNode = (name: string, text: (rng: Rng) => string): Mutator => ({
  name,
  apply(seed, rng) {
    const root = parseSeed(seed);
    const all = nodes(root);
    // Leaves and containers alike, but the root only now and then (the whole file replaced).
    const candidates = all.length > 1 && rng.chance(0.9) ? all.slice(1) : all;
    const target = rng.pick(candidates);
    const raw = text(rng);
    const json = serialise(setAt(root, target.path, SENTINEL), rng).replace(SENTINEL_JSON, () => raw);
    return { mutation: `${name} at ${pathText(target.path)}`, bytes: Buffer.from(json, 'utf8') };
  },
});

/** Adds a raw key (`"__proto__"`, or a sibling's name again) to a random object of the seed. */
const atKey = (name: string, key: (rng: Rng, siblings: string[]) => string): Mutator => ({
  name,
  apply(seed, rng) {
    const root = parseSeed(seed);
    const objects = nodes(root).filter((n) => n.value !== null && typeof n.value === 'object' && !Array.isArray(n.value));
    if (objects.length === 0) return { mutation: `${name} (no object: seed unchanged)`, bytes: seed };
    const target = rng.pick(objects);
    const siblings = Object.keys(target.value as object);
    const rawKey = key(rng, siblings);
    const value = rng.pick(WRONG_TYPES);
    const withKey = setAt(root, target.path, { ...(target.value as object), [SENTINEL]: SENTINEL });
    const json = serialise(withKey, rng)
      .replace(SENTINEL_JSON, () => rawKey)
      .replace(SENTINEL_JSON, () => value);
    return { mutation: `${name} ${rawKey}: ${value} in ${pathText(target.path)}`, bytes: Buffer.from(json, 'utf8') };
  },
});

/** Structure-aware mutators for a JSON seed: each hazard and wrong type, at a random node. */
export const JSON_MUTATORS: readonly Mutator[] = [
  ...Object.entries(HAZARDS).map(([name, text]) => atNode(`json:${name}`, () => text())),
  atNode('json:wrong-type', (rng) => rng.pick(WRONG_TYPES)),
  atKey('json:proto-key', (rng) => rng.pick(['"__proto__"', '"constructor"', '"prototype"'])),
  atKey('json:duplicate-key', (rng, siblings) => JSON.stringify(siblings.length ? rng.pick(siblings) : 'id')),
  {
    name: 'json:missing-field',
    apply(seed, rng) {
      const root = parseSeed(seed);
      const fields = nodes(root).filter((n) => typeof n.path[n.path.length - 1] === 'string');
      if (fields.length === 0) return { mutation: 'json:missing-field (none)', bytes: seed };
      const target = rng.pick(fields);
      const parent = nodes(root).find(
        (n) => n.path.length === target.path.length - 1 && target.path.every((k, i) => i === target.path.length - 1 || n.path[i] === k),
      );
      const copy = { ...(parent!.value as Record<string, unknown>) };
      delete copy[target.path[target.path.length - 1] as string];
      return { mutation: `json:missing-field ${pathText(target.path)}`, bytes: Buffer.from(serialise(setAt(root, parent!.path, copy), rng), 'utf8') };
    },
  },
];

const insertAt = (seed: Buffer, at: number, extra: Buffer): Buffer => Buffer.concat([seed.subarray(0, at), extra, seed.subarray(at)]);

/** Byte mutators: they work on any seed, JSON or not. */
export const BYTE_MUTATORS: readonly Mutator[] = [
  {
    name: 'bytes:truncate',
    apply: (seed, rng) => {
      const at = rng.int(seed.length);
      return { mutation: `bytes:truncate at ${at}/${seed.length}`, bytes: seed.subarray(0, at) };
    },
  },
  {
    name: 'bytes:flip',
    apply: (seed, rng) => {
      const copy = Buffer.from(seed);
      const count = 1 + rng.int(8);
      for (let i = 0; i < count && copy.length > 0; i++) {
        const at = rng.int(copy.length);
        copy[at] = copy[at]! ^ (1 + rng.int(255));
      }
      return { mutation: `bytes:flip ${count}`, bytes: copy };
    },
  },
  {
    name: 'bytes:invalid-utf8',
    apply: (seed, rng) => {
      const bad = rng.pick([[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]]);
      return { mutation: `bytes:invalid-utf8 ${bad.map((b) => b.toString(16)).join(' ')}`, bytes: insertAt(seed, rng.int(seed.length + 1), Buffer.from(bad)) };
    },
  },
  {
    name: 'bytes:nul',
    apply: (seed, rng) => ({ mutation: 'bytes:nul', bytes: insertAt(seed, rng.int(seed.length + 1), Buffer.from([0, 0, 0])) }),
  },
  {
    name: 'bytes:bom',
    apply: (seed, rng) => {
      const bom = rng.pick([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), Buffer.from([0xff, 0xfe])]);
      return { mutation: `bytes:bom ${bom.toString('hex')}`, bytes: Buffer.concat([bom, seed]) };
    },
  },
  {
    name: 'bytes:crlf',
    apply: (seed, rng) => {
      const text = seed.toString('latin1');
      const lone = rng.chance(0.3);
      return { mutation: lone ? 'bytes:lone-cr' : 'bytes:crlf', bytes: Buffer.from(text.replace(/\n/g, lone ? '\r' : '\r\n'), 'latin1') };
    },
  },
  {
    name: 'bytes:whitespace-run',
    apply: (seed, rng) => ({
      mutation: 'bytes:whitespace-run 1 MB',
      bytes: insertAt(seed, rng.int(seed.length + 1), Buffer.alloc(1024 * 1024, rng.pick([' ', '\t']))),
    }),
  },
  { name: 'bytes:empty', apply: () => ({ mutation: 'bytes:empty', bytes: Buffer.alloc(0) }) },
  { name: 'bytes:doubled', apply: (seed) => ({ mutation: 'bytes:doubled', bytes: Buffer.concat([seed, seed]) }) },
];

/** Every mutator that applies to `seed`: the JSON ones only when it parses. */
export const mutatorsFor = (seed: Buffer, extra: readonly Mutator[] = []): Mutator[] => {
  let json = true;
  try {
    parseSeed(seed);
  } catch {
    json = false;
  }
  return [...(json ? JSON_MUTATORS : []), ...BYTE_MUTATORS, ...extra];
};

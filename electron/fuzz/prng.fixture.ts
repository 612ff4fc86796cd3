/**
 * The fuzz suite's randomness: mulberry32, a small seeded PRNG, so every run with the same seed
 * makes the same inputs. The seed is fixed (CI sees the same cases every time) unless
 * BATON_FUZZ_SEED names another; each suite prints the seed it used, so a failure found with a
 * random seed can be replayed exactly: `BATON_FUZZ_SEED=<seed> npx vitest run electron/fuzz`.
 */

export const DEFAULT_FUZZ_SEED = 0x0ba70;

/** BATON_FUZZ_SEED (decimal or 0x hex), else the fixed default. */
export const fuzzSeed = (env: NodeJS.ProcessEnv = process.env): number => {
  const raw = env['BATON_FUZZ_SEED']?.trim();
  if (!raw) return DEFAULT_FUZZ_SEED;
  const value = raw.startsWith('0x') ? Number.parseInt(raw.slice(2), 16) : Number.parseInt(raw, 10);
  if (!Number.isSafeInteger(value)) throw new Error(`BATON_FUZZ_SEED must be a whole number (decimal or 0x hex), not "${raw}"`);
  return value >>> 0;
};

/** A 32-bit hash of a name (FNV-1a), so each suite draws its own stream from one seed. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

export class Rng {
  private state: number;

  constructor(seed: number, stream = '') {
    this.state = (seed ^ fnv1a(stream)) >>> 0;
  }

  /** mulberry32: a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)]!;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

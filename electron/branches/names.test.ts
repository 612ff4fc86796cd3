import { describe, expect, it } from 'vitest';
import { allocateDatabaseName, MAX_NAME_LENGTH, MAX_PREFIX_LENGTH, plainDatabaseName, PREFIX_PATTERN, projectPrefix, sanitizeBranchName } from './names';

/** A small seeded generator, so a failure replays exactly. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789', '/////', '-_.', ' @#~^:?*[]', 'éüßİıΣσ日本語🙂\u0301'];

function randomGitName(random: () => number): string {
  const length = 1 + Math.floor(random() * (random() < 0.1 ? 160 : 24));
  let name = '';
  for (let i = 0; i < length; i++) {
    const alphabet = ALPHABETS[Math.floor(random() * ALPHABETS.length)]!;
    const chars = [...alphabet];
    name += chars[Math.floor(random() * chars.length)];
  }
  return name;
}

describe('sanitizeBranchName', () => {
  it.each([
    ['main', 'main'],
    ['feature/Login', 'feature-login'],
    ['feature//login--page', 'feature-login-page'],
    ['/-release 1.2-/', 'release-1-2'],
    ['story_7/ac.2', 'story_7-ac-2'],
  ])('%s → %s', (git, db) => {
    expect(sanitizeBranchName(git)).toBe(db);
  });

  it('truncates a long name to 63 characters ending in a 7-hex hash of the original', () => {
    const long = `feature/${'x'.repeat(100)}`;
    const name = sanitizeBranchName(long);
    expect(name).toHaveLength(MAX_NAME_LENGTH);
    expect(name).toMatch(/^feature-x+-[0-9a-f]{7}$/);
    expect(sanitizeBranchName(long)).toBe(name);
    expect(sanitizeBranchName(`${long}y`)).not.toBe(name);
  });

  it('gives a name made only of foreign characters a non-empty hashed name', () => {
    expect(sanitizeBranchName('日本')).toMatch(/^b-[0-9a-f]{7}$/);
    expect(sanitizeBranchName('日本')).not.toBe(sanitizeBranchName('中国'));
  });

  it('holds for 10,000 random names: length ≤ 63, allowed characters, non-empty, no edge dashes', () => {
    const random = rng(4);
    for (let i = 0; i < 10_000; i++) {
      const git = randomGitName(random);
      const name = sanitizeBranchName(git);
      expect(name.length, git).toBeGreaterThan(0);
      expect(name.length, git).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(name, git).toMatch(/^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/);
      expect(name, git).not.toContain('--');
    }
  });
});

describe('allocateDatabaseName', () => {
  it('keeps the plain name for its own git branch and suffixes a different git branch that sanitizes alike', () => {
    const taken = new Map([['feature-login', 'feature/login']]);
    expect(allocateDatabaseName('feature/login', taken)).toBe('feature-login');
    const other = allocateDatabaseName('feature-login', taken);
    expect(other).toMatch(/^feature-login-[0-9a-f]{7}$/);
    expect(allocateDatabaseName('Foo', new Map([['foo', 'foo']]))).not.toBe('foo');
  });

  it('resolves a second collision (a git branch literally named like the suffixed form)', () => {
    const suffixed = allocateDatabaseName('b', new Map([['b', 'B']]));
    const taken = new Map([
      ['b', 'B'],
      [suffixed, suffixed],
    ]);
    const third = allocateDatabaseName('b', taken);
    expect(third).not.toBe('b');
    expect(third).not.toBe(suffixed);
  });

  it('never puts two of 10,000 random git branches (with deliberate look-alikes) on one name', () => {
    const random = rng(7);
    const taken = new Map<string, string>();
    const byGit = new Map<string, string>();
    let suffixed = 0;
    let base = '';
    for (let i = 0; i < 10_000; i++) {
      // Names come in threes: a random one, then look-alikes (another case; `-` for `/` plus a trailing `/`).
      if (i % 3 === 0) base = randomGitName(random);
      const git = i % 3 === 0 ? base : i % 3 === 1 ? base.toUpperCase() : `${base.replaceAll('/', '-')}/`;
      const name = allocateDatabaseName(git, taken);
      expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      expect(name).toMatch(/^[a-z0-9_-]+$/);
      const holder = taken.get(name);
      expect(holder === undefined || holder === git, `${git} and ${holder} on ${name}`).toBe(true);
      if (byGit.has(git)) expect(name).toBe(byGit.get(git));
      if (name !== sanitizeBranchName(git)) suffixed++;
      taken.set(name, git);
      byGit.set(git, name);
    }
    expect(new Set(taken.values()).size).toBe(taken.size);
    // The property is only tested if look-alikes really collided.
    expect(suffixed).toBeGreaterThan(100);
  });
});

describe('projectPrefix and prefixed names', () => {
  it('names the project and hashes its folder: alike names in two folders get two prefixes', () => {
    const shop = projectPrefix('Shop App!', '/home/a/shop');
    expect(shop).toMatch(/^shopapp-[0-9a-f]{6}-$/);
    expect(projectPrefix('Shop App!', '/home/a/shop')).toBe(shop);
    expect(projectPrefix('Shop App!', '/home/b/shop')).not.toBe(shop);
    expect(projectPrefix('日本', '/x')).toMatch(/^p-[0-9a-f]{6}-$/);
    expect(projectPrefix('a'.repeat(80), '/x').length).toBeLessThanOrEqual(MAX_PREFIX_LENGTH);
    expect(projectPrefix('baton', '/x')).not.toMatch(/^baton_/);
    expect(PREFIX_PATTERN.test(shop)).toBe(true);
  });

  it('keeps 10,000 random prefixed names within 63 characters, prefixed, and never two branches on one name', () => {
    const random = rng(11);
    const prefix = projectPrefix('inventory', '/srv/inventory');
    const taken = new Map<string, string>();
    for (let i = 0; i < 10_000; i++) {
      const git = i % 2 ? randomGitName(random) : randomGitName(random).toUpperCase();
      const name = allocateDatabaseName(git, taken, prefix);
      expect(name.startsWith(prefix), name).toBe(true);
      expect(name.length, git).toBeLessThanOrEqual(MAX_NAME_LENGTH);
      const holder = taken.get(name);
      expect(holder === undefined || holder === git, `${git} and ${holder} on ${name}`).toBe(true);
      taken.set(name, git);
    }
    expect(plainDatabaseName(`feature/${'x'.repeat(100)}`, prefix)).toHaveLength(MAX_NAME_LENGTH);
    expect(plainDatabaseName('main', prefix)).toBe(`${prefix}main`);
    expect(plainDatabaseName('feature/Login')).toBe('feature-login');
  });
});

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BranchError } from './provider';
import { putEntry, readRegistry, removeEntry, REGISTRY_FILE, type RegistryEntry } from './registry';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-registry-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (name: string): RegistryEntry => ({
  name,
  gitBranch: `git/${name}`,
  parent: 'main',
  worktree: `/w/${name}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  ttlHours: null,
  masked: false,
});

describe('branch registry', () => {
  it('is empty before the first write', async () => {
    expect(await readRegistry(dir)).toEqual([]);
  });

  it('keeps every one of 40 concurrent writes, and leaves no temp or lock file behind', async () => {
    await Promise.all(Array.from({ length: 40 }, (_, i) => putEntry(dir, entry(`b${i}`))));
    const names = (await readRegistry(dir)).map((e) => e.name).sort();
    expect(names).toHaveLength(40);
    expect(new Set(names).size).toBe(40);
    expect(await readdir(dir)).toEqual([REGISTRY_FILE]);
  });

  it('replaces an entry by name and removes it', async () => {
    await putEntry(dir, entry('a'));
    await putEntry(dir, { ...entry('a'), masked: true });
    expect(await readRegistry(dir)).toEqual([{ ...entry('a'), masked: true }]);
    expect(await removeEntry(dir, 'a')).toBe(true);
    expect(await removeEntry(dir, 'a')).toBe(false);
    expect(JSON.parse(await readFile(join(dir, REGISTRY_FILE), 'utf8'))).toEqual({ version: 1, pairs: [] });
  });

  it('refuses a damaged file with an error naming it, and does not overwrite it', async () => {
    await writeFile(join(dir, REGISTRY_FILE), '{"version":1,"pairs":[{');
    const failure = await putEntry(dir, entry('a')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BranchError);
    expect((failure as BranchError).code).toBe('invalid');
    expect((failure as Error).message).toContain(join(dir, REGISTRY_FILE));
    expect(await readFile(join(dir, REGISTRY_FILE), 'utf8')).toBe('{"version":1,"pairs":[{');
  });
});

import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeJsonAtomic } from './atomic-write';
import { acquireFileLock, releaseFileLock } from './file-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-platform-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic', () => {
  it('replaces a file whole, makes its folder, and leaves no temporary file beside it', async () => {
    const file = join(dir, 'a', 'b.json');
    await writeJsonAtomic(file, { v: 1 });
    await writeFileAtomic(file, 'two', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('two');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dir, 'a'))).toEqual(['b.json']);
  });

  it('a write that cannot land keeps the old content and cleans up', async () => {
    const file = join(dir, 'target');
    await writeFile(file, 'old');
    // A folder where the file should go: the rename fails.
    await expect(writeFileAtomic(join(dir, 'target', 'x'), 'new')).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['target']);
  });
});

describe('file locks', () => {
  it('one try (timeout 0) refuses a live holder with the caller’s words, and a released lock can be taken again', async () => {
    const lock = join(dir, 'x.lock');
    const mine = await acquireFileLock(lock, 0);
    await expect(acquireFileLock(lock, 0, (path, holder) => `busy: ${path} ${holder.who}`)).rejects.toThrow(`busy: ${lock} pid ${process.pid}`);
    await releaseFileLock(lock, mine);
    await releaseFileLock(lock, await acquireFileLock(lock, 0));
    expect(await readdir(dir)).toEqual([]);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMissing } from './fs-facts';
import { formatSize, openRegularFile, readRegularFile, readRegularFileSync, SafeReadError, type SafeReadOptions } from './safe-read';

/** Real files on the real file system: links, pipes, devices and sizes are what this module is about. */
let dir: string;
let outside: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baton-safe-read-'));
  outside = await mkdtemp(join(tmpdir(), 'baton-safe-read-outside-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const hasMkfifo = (() => {
  try {
    execFileSync('mkfifo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    try {
      execFileSync('sh', ['-c', 'command -v mkfifo'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }
})();
if (!hasMkfifo) console.log('skipped the FIFO cases: mkfifo is not on PATH on this machine');
const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

/** The refusal both readers give (the async one and its sync twin), checked to be the same. */
async function refusal(file: string, options: SafeReadOptions = { maxBytes: 1024 }): Promise<SafeReadError> {
  const asyncError = await readRegularFile(file, options).then(
    () => null,
    (error: unknown) => error,
  );
  let syncError: unknown = null;
  try {
    readRegularFileSync(file, options);
  } catch (error) {
    syncError = error;
  }
  expect(asyncError).toBeInstanceOf(SafeReadError);
  expect(syncError).toBeInstanceOf(SafeReadError);
  const [a, s] = [asyncError as SafeReadError, syncError as SafeReadError];
  expect({ reason: s.reason, message: s.message }).toEqual({ reason: a.reason, message: a.message });
  return a;
}

describe('readRegularFile and readRegularFileSync', () => {
  it('read a regular file whole, up to and including exactly maxBytes', async () => {
    const file = join(dir, 'ok.json');
    await writeFile(file, '{"a":1}');
    expect((await readRegularFile(file, { maxBytes: 7 })).toString()).toBe('{"a":1}');
    expect(readRegularFileSync(file, { maxBytes: 7 }).toString()).toBe('{"a":1}');
    await writeFile(join(dir, 'empty'), '');
    expect((await readRegularFile(join(dir, 'empty'), { maxBytes: 0 })).length).toBe(0);
    const big = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    await writeFile(join(dir, 'big'), big);
    expect((await readRegularFile(join(dir, 'big'), { maxBytes: big.length })).equals(big)).toBe(true);
    expect(readRegularFileSync(join(dir, 'big'), { maxBytes: big.length }).equals(big)).toBe(true);
  });

  it('refuse a file over maxBytes, stating its size and the limit, without reading it', async () => {
    const file = join(dir, 'huge.json');
    await writeFile(file, '');
    await truncate(file, 300 * 1024 * 1024); // sparse: the size is real, the disk use is not
    const error = await refusal(file, { maxBytes: 16 * 1024 * 1024 });
    expect(error.reason).toBe('too-large');
    expect(error.facts).toEqual({ size: 300 * 1024 * 1024, limit: 16 * 1024 * 1024 });
    expect(error.message).toBe(`${file} is 300 MB (314572800 bytes), over the 16 MB limit for this file; not read — remove it or make it smaller`);
  });

  it('refuse a symlink, even to a regular file inside the same folder, and a symlink to a device', async () => {
    await writeFile(join(dir, 'real.json'), '{}');
    await symlink(join(dir, 'real.json'), join(dir, 'link.json'));
    await symlink('/etc/passwd', join(dir, 'passwd'));
    await symlink('/dev/null', join(dir, 'null'));
    for (const name of ['link.json', 'passwd', 'null']) {
      const error = await refusal(join(dir, name));
      expect(error.reason).toBe('symlink');
      expect(error.message).toBe(`${join(dir, name)} is a symbolic link, not a regular file; not followed — replace the link with the file itself`);
    }
  });

  it('refuse a character device named directly, and a folder', async () => {
    const device = await refusal('/dev/null');
    expect(device).toMatchObject({ reason: 'not-regular', facts: { kind: 'a character device' } });
    expect(device.message).toBe('/dev/null is a character device, not a regular file; not read — replace it with a regular file');
    await mkdir(join(dir, 'folder.json'));
    const folder = await refusal(join(dir, 'folder.json'));
    expect(folder).toMatchObject({ reason: 'not-regular', code: 'EISDIR', facts: { kind: 'a folder' } });
  });

  it.skipIf(!hasMkfifo)('refuse a FIFO at once instead of waiting for a writer, and four of them do not starve other reads', async () => {
    const fifos = [1, 2, 3, 4, 5].map((n) => join(dir, `pipe-${n}`));
    for (const fifo of fifos) mkfifo(fifo);
    await writeFile(join(dir, 'ok.txt'), 'still readable');
    const started = Date.now();
    const error = await refusal(fifos[0]!);
    expect(error).toMatchObject({ reason: 'not-regular', facts: { kind: 'a named pipe (FIFO)' } });
    expect(error.message).toContain('is a named pipe (FIFO), not a regular file');
    // libuv has four threads by default: four blocked opens would stop every later file read.
    const settled = await Promise.allSettled(fifos.slice(1).map((fifo) => readRegularFile(fifo, { maxBytes: 1024 })));
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    expect((await readRegularFile(join(dir, 'ok.txt'), { maxBytes: 100 })).toString()).toBe('still readable');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a missing file is "missing", and isMissing still says so', async () => {
    const error = await refusal(join(dir, 'nothing.json'));
    expect(error.reason).toBe('missing');
    expect(isMissing(error)).toBe(true);
    // A file where a folder should be: nothing can be there either.
    await writeFile(join(dir, 'plain'), '');
    expect(await refusal(join(dir, 'plain', 'below.json'))).toMatchObject({ reason: 'missing', code: 'ENOTDIR' });
  });

  it('with root: refuse a path leading outside it (a symlinked folder on the way), follow links inside only when asked', async () => {
    await writeFile(join(outside, 'secret.json'), '{"secret":true}');
    await symlink(outside, join(dir, 'elsewhere'));
    const escaped = await refusal(join(dir, 'elsewhere', 'secret.json'), { maxBytes: 1024, root: dir });
    expect(escaped.reason).toBe('outside');
    expect(escaped.message).toContain(`leads outside ${dir}`);

    await symlink(join(outside, 'secret.json'), join(dir, 'secret.json'));
    expect((await refusal(join(dir, 'secret.json'), { maxBytes: 1024, root: dir, followInside: true })).reason).toBe('outside');

    await mkdir(join(dir, 'shared'));
    await writeFile(join(dir, 'shared', 'list.json'), '[1]');
    await symlink(join('shared', 'list.json'), join(dir, 'list.json'));
    expect((await readRegularFile(join(dir, 'list.json'), { maxBytes: 10, root: dir, followInside: true })).toString()).toBe('[1]');
    expect(readRegularFileSync(join(dir, 'list.json'), { maxBytes: 10, root: dir, followInside: true }).toString()).toBe('[1]');
    expect((await refusal(join(dir, 'list.json'), { maxBytes: 10, root: dir })).reason).toBe('symlink');
    expect((await readRegularFile(join(dir, 'shared', 'list.json'), { maxBytes: 10, root: dir })).toString()).toBe('[1]');
  });
});

describe('openRegularFile', () => {
  it('hands a checked, open regular file to a caller that streams it', async () => {
    await writeFile(join(dir, 'a.txt'), 'abcdef');
    const { handle, size } = await openRegularFile(join(dir, 'a.txt'), { maxBytes: 10 });
    try {
      const buffer = Buffer.alloc(3);
      await handle.read(buffer, 0, 3, 2);
      expect([size, buffer.toString()]).toEqual([6, 'cde']);
    } finally {
      await handle.close();
    }
    await expect(openRegularFile('/dev/zero', { maxBytes: 10 })).rejects.toMatchObject({ reason: 'not-regular' });
  });
});

describe('formatSize', () => {
  it('shows sizes the way limits are written', () => {
    expect([formatSize(12), formatSize(1536), formatSize(10 * 1024 * 1024), formatSize(1024 ** 3)]).toEqual(['12 bytes', '1.5 KB', '10 MB', '1 GB']);
  });
});

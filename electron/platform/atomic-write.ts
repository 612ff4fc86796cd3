/**
 * The one way Baton replaces a file: write a temporary file beside it (created exclusively), fsync
 * it, rename it over the target, fsync the folder. A crash leaves the old content or the new, never
 * half of either, and never a torn temporary file under the target's name.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { mkdirInside } from './contained-write';
import { errorCode } from './fs-facts';

export interface AtomicWriteOptions {
  /** The new file's mode (default 0o666 less the umask). */
  readonly mode?: number;
  /**
   * fsync the folder after the rename (default true). A caller that writes many files into one
   * folder (the ledger's blobs) passes false and calls `fsyncDir` once.
   */
  readonly syncFolder?: boolean;
  /**
   * The folder the file must stay inside: a symbolic link at any component below it is refused
   * (contained-write.ts). Every write into a project, `.baton/` or a worktree passes it.
   */
  readonly root?: string;
}

/**
 * fsync a directory so a rename or a new entry in it survives a power loss. Some platforms
 * (Windows) cannot open a directory; there the rename is as durable as the OS makes it.
 */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

export async function writeFileAtomic(file: string, content: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = dirname(file);
  if (options.root !== undefined) await mkdirInside(options.root, dir);
  else await fs.mkdir(dir, { recursive: true });
  // The temporary file is created exclusively (never through a link) and the rename replaces a link
  // at `file` instead of writing through it: the last component is safe without a check.
  const temp = join(dir, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    const handle = await fs.open(temp, 'wx', options.mode);
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  if (options.syncFolder !== false) await fsyncDir(dir);
}

/** `value` as indented JSON with a final newline, written atomically. */
export const writeJsonAtomic = (file: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> =>
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, options);

/**
 * The one way Baton reads a file that someone with write access to a project could have planted.
 * A plain readFile follows a symlink out of the project (`blobs/<sha> -> /etc/passwd`), blocks
 * forever on a FIFO (and, four at a time, takes every thread of libuv's pool with it), reads a
 * device without end, and pulls any size into memory. Here a read:
 * - refuses a symlink: the open is `O_NOFOLLOW`, so it is refused atomically, with no window
 *   between a check and the open (with `root`, or where there is no O_NOFOLLOW, an lstat names it
 *   a link first); with `root` and `followInside`, a symlink whose target stays inside `root` is
 *   followed (its realpath is opened, still O_NOFOLLOW);
 * - with `root`, refuses a path whose realpath is outside `root`;
 * - opens `O_NONBLOCK`, so opening a FIFO never waits for a writer, then fstat's the open
 *   descriptor (what is read is what was checked) and refuses anything but a regular file;
 * - refuses a file over `maxBytes` (stating its size and the limit), and never reads more.
 * Every refusal is a SafeReadError whose `reason` says which rule, whose message names the file
 * and says what to do; `code` is the errno behind it when there is one (ENOENT for 'missing', so
 * `isMissing` still recognises it).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, promises as fs, readSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { errorCode } from './fs-facts';

export type SafeReadReason = 'missing' | 'symlink' | 'outside' | 'not-regular' | 'too-large' | 'unreadable';

export interface SafeReadOptions {
  /** Refuse a file larger than this; never read more. */
  readonly maxBytes: number;
  /** The folder the file must stay inside (by realpath). */
  readonly root?: string;
  /** With `root`: follow a symlink whose target stays inside `root` (the project reader's rule). Default: refuse every symlink. */
  readonly followInside?: boolean;
}

export class SafeReadError extends Error {
  override readonly name = 'SafeReadError';
  constructor(
    /** The file as the caller named it. */
    readonly file: string,
    readonly reason: SafeReadReason,
    /** What is wrong and what to do, without the file's name: `is a named pipe (FIFO), not a regular file; …`. */
    readonly detail: string,
    /** The errno behind it (ENOENT, EACCES, …), when there is one. */
    readonly code?: string,
    /** For 'too-large': the size found and the limit. For 'not-regular': what the file is. */
    readonly facts: { readonly size?: number; readonly limit?: number; readonly kind?: string } = {},
  ) {
    super(`${file} ${detail}`);
  }
}

export const isSafeReadError = (error: unknown, reason?: SafeReadReason): error is SafeReadError =>
  error instanceof SafeReadError && (reason === undefined || error.reason === reason);

/** 1536 → "1.5 KB"; 10485760 → "10 MB": the way a limit or a size is shown to a person. */
export const formatSize = (bytes: number): string => {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
};

/** What a file that is not a regular file is, in words. */
export const kindOf = (stat: Stats): string =>
  stat.isDirectory()
    ? 'a folder'
    : stat.isFIFO()
      ? 'a named pipe (FIFO)'
      : stat.isCharacterDevice()
        ? 'a character device'
        : stat.isBlockDevice()
          ? 'a block device'
          : stat.isSocket()
            ? 'a socket'
            : stat.isSymbolicLink()
              ? 'a symbolic link'
              : 'not a regular file';

// O_NONBLOCK: opening a FIFO with no writer returns at once instead of blocking a thread forever.
// (Reads of a regular file ignore it.) Neither flag exists on Windows, where neither hazard does.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const OPEN_FLAGS = constants.O_RDONLY | NOFOLLOW | (constants.O_NONBLOCK ?? 0);

const missing = (file: string, code: string | undefined) => new SafeReadError(file, 'missing', 'does not exist', code ?? 'ENOENT');
const symlink = (file: string) =>
  new SafeReadError(file, 'symlink', 'is a symbolic link, not a regular file; not followed — replace the link with the file itself', 'ELOOP');
const outside = (file: string, root: string, real: string) =>
  new SafeReadError(file, 'outside', `leads outside ${root} (to ${real}); not read — keep the file inside that folder`);
const notRegular = (file: string, stat: Stats) => {
  const kind = kindOf(stat);
  if (stat.isDirectory())
    return new SafeReadError(file, 'not-regular', 'is a folder where a file was expected (EISDIR); rename or remove it', 'EISDIR', { kind });
  return new SafeReadError(file, 'not-regular', `is ${kind}, not a regular file; not read — replace it with a regular file`, undefined, { kind });
};
const tooLarge = (file: string, size: number, limit: number) =>
  new SafeReadError(
    file,
    'too-large',
    `is ${formatSize(size)} (${size} bytes), over the ${formatSize(limit)} limit for this file; not read — remove it or make it smaller`,
    'EFBIG',
    { size, limit },
  );
/** It grew past the limit while it was read: `size` is what was seen, at least one byte over. */
const grewTooLarge = (file: string, limit: number) =>
  new SafeReadError(
    file,
    'too-large',
    `grew past the ${formatSize(limit)} limit for this file while it was read; not read — remove it or make it smaller`,
    'EFBIG',
    {
      size: limit + 1,
      limit,
    },
  );
const unreadable = (file: string, error: unknown) => {
  const code = errorCode(error);
  const why = code === 'EACCES' || code === 'EPERM' ? `${code}: permission denied` : (code ?? (error instanceof Error ? error.message : String(error)));
  return new SafeReadError(file, 'unreadable', `cannot be read (${why}); check its permissions`, code);
};

const isInside = (root: string, real: string): boolean => {
  const rel = path.relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

/** The refusal an open's error stands for; `isLink` tells an O_NOFOLLOW refusal from a loop higher up. */
const openRefusal = (file: string, error: unknown, isLink: () => boolean): SafeReadError => {
  if (error instanceof SafeReadError) return error;
  const code = errorCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return missing(file, code);
  // Linux and macOS answer an O_NOFOLLOW open of a symlink with ELOOP, FreeBSD with EMLINK.
  if ((code === 'ELOOP' || code === 'EMLINK') && isLink()) return symlink(file);
  // Opening a UNIX socket fails with ENXIO.
  if (code === 'ENXIO')
    return new SafeReadError(file, 'not-regular', 'is a socket, not a regular file; not read — replace it with a regular file', code, { kind: 'a socket' });
  return unreadable(file, error);
};

const checkStat = (file: string, stat: Stats, maxBytes: number): void => {
  if (!stat.isFile()) throw notRegular(file, stat);
  if (stat.size > maxBytes) throw tooLarge(file, stat.size, maxBytes);
};

/** Which path to open: the file itself, or (following inside `root`) its realpath, after the `root` check. */
const pathToOpen = async (file: string, options: SafeReadOptions): Promise<string> => {
  // A link is called a link before anything else is said about where it leads. (Without `root`, the
  // O_NOFOLLOW open refuses it alone, atomically; an lstat first would only cost a system call.)
  if (refusesLinks(options) && (options.root !== undefined || NOFOLLOW === 0) && (await fs.lstat(file).catch(() => null))?.isSymbolicLink())
    throw symlink(file);
  if (options.root !== undefined) {
    const [real, realRoot] = await Promise.all([fs.realpath(file), fs.realpath(options.root)]).catch((error: unknown) => {
      throw openRefusal(file, error, () => false);
    });
    if (!isInside(realRoot, real)) throw outside(file, options.root, real);
    if (options.followInside) return real;
  }
  return file;
};

const refusesLinks = (options: SafeReadOptions): boolean => options.root === undefined || options.followInside !== true;

const pathToOpenSync = (file: string, options: SafeReadOptions): string => {
  if (refusesLinks(options) && (options.root !== undefined || NOFOLLOW === 0) && isLinkSync(file)) throw symlink(file);
  if (options.root !== undefined) {
    let real: string;
    let realRoot: string;
    try {
      real = realpathSync(file);
      realRoot = realpathSync(options.root);
    } catch (error) {
      throw openRefusal(file, error, () => false);
    }
    if (!isInside(realRoot, real)) throw outside(file, options.root, real);
    if (options.followInside) return real;
  }
  return file;
};

const isLinkSync = (file: string): boolean => {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};

export interface OpenedFile {
  readonly handle: fs.FileHandle;
  /** The size fstat gave the open descriptor. */
  readonly size: number;
}

/**
 * Opens `file` for reading under every rule above (the size rule included), for a caller that
 * streams it; the caller closes `handle`.
 */
export async function openRegularFile(file: string, options: SafeReadOptions): Promise<OpenedFile> {
  const target = await pathToOpen(file, options);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(target, OPEN_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    const link = (code === 'ELOOP' || code === 'EMLINK') && (await fs.lstat(target).catch(() => null))?.isSymbolicLink() === true;
    throw openRefusal(file, error, () => link);
  }
  try {
    const stat = await handle.stat();
    checkStat(file, stat, options.maxBytes);
    return { handle, size: stat.size };
  } catch (error) {
    await handle.close();
    throw error instanceof SafeReadError ? error : unreadable(file, error);
  }
}

/** The whole of a regular file of at most `maxBytes`; a SafeReadError otherwise (see the top of this file). */
export async function readRegularFile(file: string, options: SafeReadOptions): Promise<Buffer> {
  const { handle, size } = await openRegularFile(file, options);
  try {
    let buffer = Buffer.allocUnsafe(Math.min(size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        // The file grew while it was read: one byte past the limit is enough to refuse it.
        if (length > options.maxBytes) throw grewTooLarge(file, options.maxBytes);
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, options.maxBytes + 1 - buffer.length))]);
      }
      const wanted = buffer.length - length;
      const { bytesRead } = await handle.read(buffer, length, wanted, length);
      length += bytesRead;
      // A short read of a regular file is its end: reading again only to be told so would cost a call.
      if (bytesRead < wanted) return buffer.subarray(0, length);
    }
  } catch (error) {
    throw error instanceof SafeReadError ? error : unreadable(file, error);
  } finally {
    await handle.close();
  }
}

/** readRegularFile, synchronously (the ledger's verify reads thousands of small blobs this way). */
export function readRegularFileSync(file: string, options: SafeReadOptions): Buffer {
  const target = pathToOpenSync(file, options);
  let fd: number;
  try {
    fd = openSync(target, OPEN_FLAGS);
  } catch (error) {
    throw openRefusal(file, error, () => isLinkSync(target));
  }
  try {
    const stat = fstatSync(fd);
    checkStat(file, stat, options.maxBytes);
    let buffer = Buffer.allocUnsafe(Math.min(stat.size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > options.maxBytes) throw grewTooLarge(file, options.maxBytes);
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(Math.min(buffer.length, options.maxBytes + 1 - buffer.length))]);
      }
      const wanted = buffer.length - length;
      const read = readSync(fd, buffer, length, wanted, length);
      length += read;
      if (read < wanted) return buffer.subarray(0, length);
    }
  } catch (error) {
    throw error instanceof SafeReadError ? error : unreadable(file, error);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file a person names on the command line (`--request`, `--attach`, `amend propose --from`), or `-`
 * for standard input, read with a bound: only a regular file is read (a FIFO, a device such as
 * /dev/zero or a folder is refused before a byte is read, so nothing blocks or fills memory), and
 * at most `maxBytes` are read, from a file or from standard input.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { visible } from '../../shared/text-input';
import { UsageError } from './exit-codes';

const kindOf = (stat: Stats): string =>
  stat.isDirectory()
    ? 'a folder'
    : stat.isFIFO()
      ? 'a named pipe'
      : stat.isCharacterDevice() || stat.isBlockDevice()
        ? 'a device'
        : stat.isSocket()
          ? 'a socket'
          : 'not a regular file';

const tooBig = (what: string, path: string, maxBytes: number) =>
  new UsageError(`${what} ${path} is larger than ${maxBytes.toLocaleString('en')} bytes, more than Baton reads: give a shorter file.`);

export async function readInputFile(path: string, what: string, maxBytes: number, stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<string> {
  const shown = path === '-' ? '(standard input)' : `"${visible(path)}"`;
  if (path === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const bytes = Buffer.from(chunk);
      size += bytes.length;
      if (size > maxBytes) throw tooBig(`Cannot read ${what}:`, shown, maxBytes);
      chunks.push(bytes);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  // Non-blocking, so opening a FIFO never waits for a writer; what it is is asked of the open file itself.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `Cannot read ${what} ${shown}: ${error.code === 'ENOENT' ? 'no such file' : error.code === 'EACCES' ? 'permission denied' : error.message}.`,
    );
  });
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new UsageError(`Cannot read ${what} ${shown}: it is ${kindOf(stat)}. Give a regular file, or - for standard input.`);
    if (stat.size > maxBytes) throw tooBig(`Cannot read ${what}:`, shown, maxBytes);
    // A file that grows while it is read is still read only up to the bound.
    const buffer = Buffer.alloc(maxBytes + 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read > maxBytes) throw tooBig(`Cannot read ${what}:`, shown, maxBytes);
    }
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    await handle.close();
  }
}

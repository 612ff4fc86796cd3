/** Test helper: a gzip bomb, a small gzip stream that inflates to `bytes` zeros, made without ever holding them. */
import { createGzip } from 'node:zlib';

const MB = 1024 * 1024;

export async function gzipBomb(bytes: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve, reject) => gzip.on('end', resolve).on('error', reject));
  const zeros = Buffer.alloc(MB);
  for (let written = 0; written < bytes; written += MB) {
    if (!gzip.write(zeros.subarray(0, Math.min(MB, bytes - written)))) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(parts);
}

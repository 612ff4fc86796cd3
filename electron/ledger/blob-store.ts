/**
 * Content-addressed blobs: `blobs/<sha256>`, where the name is always the SHA-256 of the
 * uncompressed content. A blob is stored gzip'd when that is smaller; readers recognise gzip by its
 * magic bytes. Content that itself begins with the gzip magic (a .gz file kept as evidence) is
 * always stored gzip'd, so exactly one gunzip on read gives back the original bytes.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from '../platform/atomic-write';
import { isMissing } from '../platform/fs-facts';
import { isSafeReadError, openRegularFile, readRegularFile, readRegularFileSync } from '../platform/safe-read';
import { sha256Hex } from './hashing';
import { isSha256 } from './ledger-file';

/** Reading a blob never inflates more than this: a gzip bomb in a bundle must not exhaust memory. */
export const MAX_BLOB_BYTES = 512 * 1024 * 1024;
/** A stored blob is at most its content plus gzip's framing; a bigger file in blobs/ is not a blob Baton wrote. */
export const MAX_STORED_BLOB_BYTES = MAX_BLOB_BYTES + 8 * 1024 * 1024;
/** Below this, gzip's own 18-byte frame makes the stored form larger, so it is not tried. */
const MIN_GZIP_ATTEMPT = 64;

export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The bytes to keep on disk for `content`. */
export const encodeBlob = (content: Uint8Array): Uint8Array => {
  if (isGzip(content)) return gzipSync(content);
  if (content.length < MIN_GZIP_ATTEMPT) return content;
  const packed = gzipSync(content);
  return packed.length < content.length ? packed : content;
};

/** The content of stored bytes; throws when gzip'd bytes do not inflate (or exceed `maxBytes`). */
export const decodeBlob = (stored: Buffer, maxBytes = MAX_BLOB_BYTES): Buffer =>
  isGzip(stored) ? gunzipSync(stored, { maxOutputLength: Math.max(1, maxBytes) }) : stored;

/**
 * Stores `content` under its SHA-256 unless a blob of that name exists. `written` says whether a
 * new directory entry was made (the caller fsyncs the folder once for all of an append's blobs).
 */
export const writeBlob = async (blobsDir: string, content: Uint8Array): Promise<{ sha256: string; written: boolean }> => {
  const sha256 = sha256Hex(content);
  const target = path.join(blobsDir, sha256);
  // lstat: a link planted under a blob's name is not the blob; the rename below replaces it.
  const exists = await fs.lstat(target).then(
    (stat) => !stat.isSymbolicLink(),
    (error: unknown) => (isMissing(error) ? false : Promise.reject(error)),
  );
  if (exists) return { sha256, written: false };
  await writeFileAtomic(target, encodeBlob(content), { syncFolder: false });
  return { sha256, written: true };
};

/**
 * The stored bytes of a blob, or null when there is none (or the name is not a SHA-256). A blob
 * that is not a regular file (a symlink, a FIFO, a device) or is too large throws a SafeReadError.
 */
export const readStoredBlob = async (blobsDir: string, sha256: string): Promise<Buffer | null> => {
  if (!isSha256(sha256)) return null;
  try {
    return await readRegularFile(path.join(blobsDir, sha256), { maxBytes: MAX_STORED_BLOB_BYTES });
  } catch (error) {
    if (isSafeReadError(error, 'missing')) return null;
    throw error;
  }
};

/**
 * Reads a whole blob file synchronously (verify-chain.ts reads thousands this way, batched), under
 * the same rules as every untrusted read: a symlink, FIFO, device or oversized file throws.
 */
export const readFileQuickSync = (file: string): Buffer => readRegularFileSync(file, { maxBytes: MAX_STORED_BLOB_BYTES });

export interface BlobPage {
  /** The content from `offset`: at most `limit` bytes. */
  readonly bytes: Buffer;
  /** Content follows this page. */
  readonly more: boolean;
  /** The content's whole size, when the read reached its end; null when it stopped early. */
  readonly total: number | null;
}

/**
 * `limit` bytes of a blob's content from `offset`, or null when there is no such blob. A gzip'd
 * blob is inflated as a stream: what comes before `offset` is dropped as it goes, and the read stops
 * once the page is full, so memory stays bounded however far the content inflates (a gzip bomb).
 */
export const readBlobPage = async (blobsDir: string, sha256: string, offset: number, limit: number): Promise<BlobPage | null> => {
  if (!isSha256(sha256)) return null;
  let opened;
  try {
    opened = await openRegularFile(path.join(blobsDir, sha256), { maxBytes: MAX_STORED_BLOB_BYTES });
  } catch (error) {
    if (isSafeReadError(error, 'missing')) return null;
    throw error;
  }
  const { handle, size } = opened;
  try {
    const magic = Buffer.alloc(2);
    const { bytesRead } = await handle.read(magic, 0, 2, 0);
    if (isGzip(magic.subarray(0, bytesRead))) return await inflateFrom(handle, offset, limit);
    const bytes = Buffer.alloc(Math.max(0, Math.min(limit, size - offset)));
    let read = 0;
    while (read < bytes.length) {
      const got = (await handle.read(bytes, read, bytes.length - read, offset + read)).bytesRead;
      if (got === 0) break;
      read += got;
    }
    return { bytes: bytes.subarray(0, read), more: offset + read < size, total: size };
  } finally {
    await handle.close();
  }
};

/**
 * Inflates the gzip stream in `handle` (from its start) and keeps `limit` bytes of the output from
 * `offset`: what comes before is dropped as it goes, and inflating stops as soon as the page is full
 * and one more byte shows there is more. Throws when the stream does not inflate.
 */
export const inflateFrom = async (handle: fs.FileHandle, offset: number, limit: number): Promise<BlobPage> => {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  // The handle is closed by the caller; a page that stops early ends this pipeline on purpose.
  const feeding = pipeline(handle.createReadStream({ start: 0, autoClose: false, highWaterMark: 64 * 1024 }), gunzip).catch(() => undefined);
  const parts: Buffer[] = [];
  let position = 0;
  let kept = 0;
  let more = false;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      const from = Math.max(0, offset - position);
      position += chunk.length;
      if (from >= chunk.length) continue;
      const piece = chunk.subarray(from, from + (limit - kept));
      if (piece.length > 0) parts.push(Buffer.from(piece));
      kept += piece.length;
      if (kept === limit && from + piece.length < chunk.length) {
        more = true;
        break;
      }
    }
  } finally {
    gunzip.destroy();
    await feeding;
  }
  return { bytes: Buffer.concat(parts), more, total: more ? null : position };
};

/** Above this recorded size, verify hashes a gzip'd blob as it inflates rather than whole in memory. */
export const STREAM_HASH_ABOVE = 8 * 1024 * 1024;

/**
 * The SHA-256 and size of what `stored` (gzip) inflates to, hashed as it inflates: memory stays at a
 * chunk, whatever a bomb claims. Stops past `maxBytes` (then `bytes` is maxBytes + 1 and the hash is
 * of that prefix: the size alone shows the blob is not what its record says). Throws when it does
 * not inflate.
 */
export const hashGzipped = async (stored: Buffer, maxBytes: number): Promise<{ bytes: number; sha256: string }> => {
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  const hash = createHash('sha256');
  let bytes = 0;
  gunzip.end(stored);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      const take = Math.min(chunk.length, maxBytes + 1 - bytes);
      hash.update(chunk.subarray(0, take));
      bytes += take;
      if (bytes > maxBytes) break;
    }
  } finally {
    gunzip.destroy();
  }
  return { bytes, sha256: hash.digest('hex') };
};

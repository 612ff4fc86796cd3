/**
 * Reading and hashing gated artifacts. Every read is confined to the project (a symlink or a
 * `../` key in a foreign gates.json may not lead the verifier elsewhere) and size-capped like
 * the reader's reads.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { HashAlgorithm } from '../../shared/ledger';
import type { Layout } from '../../shared/model';
import { hashArtifact, sha256Hex, textSha256 } from '../ledger';
import { SafeReadError, readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project';

export type ArtifactFile =
  | { readonly state: 'ok'; readonly bytes: Buffer; readonly mtime: Date }
  | { readonly state: 'missing' }
  | { readonly state: 'unreadable'; readonly reason: string };

const inside = (base: string, target: string): boolean => {
  const rel = path.relative(base, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

/** Reads `<featureDir>/<name>`; `root` is the project folder the file must stay inside. */
export const readArtifact = async (root: string, featureDir: string, name: string): Promise<ArtifactFile> => {
  const abs = path.resolve(featureDir, name);
  let real: string;
  try {
    real = await fs.realpath(abs);
  } catch {
    return { state: 'missing' };
  }
  const realRoot = await fs.realpath(root).catch(() => root);
  if (!inside(realRoot, real)) return { state: 'unreadable', reason: 'leads outside the project (a symlink or a ../ path); not read' };
  try {
    const stat = await fs.stat(real);
    if (!stat.isFile()) return { state: 'unreadable', reason: 'is not a file' };
    if (stat.size > MAX_ARTIFACT_BYTES) return { state: 'unreadable', reason: `is ${stat.size} bytes, over the 10 MB limit for an artifact` };
    // Read only as a regular file, never past the limit: one swapped for a FIFO since the stat is refused, not waited on.
    return { state: 'ok', bytes: await readRegularFile(real, { maxBytes: MAX_ARTIFACT_BYTES }), mtime: stat.mtime };
  } catch (error) {
    if (error instanceof SafeReadError) return { state: 'unreadable', reason: error.detail };
    return { state: 'unreadable', reason: `cannot be read (${error instanceof Error ? error.message : String(error)})` };
  }
};

/**
 * A hash for a file under a gate that cannot be read as an artifact, so that it still counts as
 * drift: a regular file inside the project (one over the size limit) is hashed as a stream, however
 * large; anything else (a symlink out of the project, a FIFO, a folder) gets the hash of why it
 * cannot be read, never its content.
 */
export const unreadableHash = async (root: string, featureDir: string, name: string, reason: string): Promise<string> => {
  const real = await fs.realpath(path.resolve(featureDir, name)).catch(() => null);
  const realRoot = await fs.realpath(root).catch(() => root);
  const stat = real !== null && inside(realRoot, real) ? await fs.lstat(real).catch(() => null) : null;
  if (real !== null && stat?.isFile()) {
    // O_NONBLOCK and O_NOFOLLOW: a file swapped for a FIFO or a link since the lstat is not followed or waited on.
    const handle = await fs.open(real, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | fsConstants.O_NOFOLLOW).catch(() => null);
    if (handle) {
      try {
        if ((await handle.stat()).isFile()) {
          const hash = createHash('sha256');
          for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
          return hash.digest('hex');
        }
      } catch {
        // Unreadable after all: the reason stands in for it below.
      } finally {
        await handle.close();
      }
    }
  }
  return sha256Hex(new TextEncoder().encode(`unreadable: ${reason}`));
};

export interface CurrentHash {
  readonly algorithm: HashAlgorithm;
  readonly sha256: string;
  /** Why the preferred algorithm could not be used (a Baton JSON artifact that does not parse). */
  readonly error: string | null;
}

/**
 * The hash an approval would record now. A Baton JSON file that does not parse cannot be hashed
 * canonically; its text hash still identifies the content, and the error blocks the approval.
 */
export const currentHash = (name: string, bytes: Uint8Array, layout: Layout): CurrentHash => {
  const hashed = hashArtifact(name, bytes, layout);
  if (hashed.ok) return { algorithm: hashed.algorithm, sha256: hashed.sha256, error: null };
  return { algorithm: 'text-sha256', sha256: textSha256(bytes), error: hashed.error };
};

/**
 * Re-hashes with the algorithm recorded at approval time, so a verdict never depends on which
 * algorithm would be chosen today. Unparseable JSON gets a hash of its raw bytes: it differs.
 */
export const rehash = (algorithm: HashAlgorithm, bytes: Uint8Array): string => {
  if (algorithm === 'text-sha256') return textSha256(bytes);
  // hashArtifact is the one canonical-JSON path (UTF-8 and BOM rules included); the name only selects it.
  const hashed = hashArtifact('artifact.json', bytes, 'baton');
  return hashed.ok ? hashed.sha256 : sha256Hex(bytes);
};

/** UTF-8 text, or null for bytes that are not valid UTF-8 (shown as binary). */
export const textOf = (bytes: Uint8Array): string | null => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
};

/** The newest modification time among the files that exist, as ISO; null when none do. */
export const newestMtime = async (root: string, featureDir: string, names: readonly string[]): Promise<string | null> => {
  const times = (await Promise.all(names.map((name) => mtimeOf(root, featureDir, name)))).filter((t): t is Date => t !== null);
  if (times.length === 0) return null;
  return times.reduce((newest, t) => (t.getTime() > newest.getTime() ? t : newest)).toISOString();
};

const mtimeOf = async (root: string, featureDir: string, name: string): Promise<Date | null> => {
  const real = await fs.realpath(path.resolve(featureDir, name)).catch(() => null);
  const realRoot = await fs.realpath(root).catch(() => root);
  if (real === null || !inside(realRoot, real)) return null;
  const stat = await fs.stat(real).catch(() => null);
  return stat?.isFile() ? stat.mtime : null;
};

/** A path relative to the project root, `/`-separated, for a Problem's `file`. */
export const projectPath = (root: string, featureDir: string, name: string): string =>
  path.relative(root, path.resolve(featureDir, name)).split(path.sep).join('/');

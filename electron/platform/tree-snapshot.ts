/**
 * What a worktree holds, file by file: content hash, mode and symlink target. Taken before and
 * after every agent turn, so the orchestrator sees exactly what the turn changed — including
 * deletions, renames, mode changes and symlinks — without trusting the agent or git's index.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface FileState {
  /** SHA-256 of the content; for a symlink, of its target text. */
  readonly sha256: string;
  /** Permission bits (0o755 / 0o644 …); symlinks report 0o777. */
  readonly mode: number;
  /** The link's target when the entry is a symlink (never followed). */
  readonly symlink: string | null;
  readonly bytes: number;
  /** The content (a symlink's target), kept when the snapshot is taken to revert from. */
  readonly content?: Buffer;
}

export type TreeSnapshot = ReadonlyMap<string, FileState>;

/**
 * Top-level folders not walked: git's own data and installed dependencies. A worktree's `.git`
 * is a file (a pointer to the repository) and is kept, so a turn that rewrites it is seen.
 */
const SKIPPED = new Set(['.git', 'node_modules']);

export interface SnapshotOptions {
  /** Keep each file's content, to revert from. */
  readonly content?: boolean;
  readonly skip?: ReadonlySet<string>;
}

export async function snapshotTree(root: string, options: SnapshotOptions = {}): Promise<TreeSnapshot> {
  const skip = options.skip ?? SKIPPED;
  const out = new Map<string, FileState>();
  async function walk(dir: string, prefix: string): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(prefix === '' && skip.has(entry.name))) await walk(abs, rel);
        continue;
      }
      const info = await lstat(abs);
      if (info.isSymbolicLink()) {
        const target = await readlink(abs);
        out.set(rel, {
          sha256: sha256(Buffer.from(target)),
          mode: 0o777,
          symlink: target,
          bytes: target.length,
          ...(options.content ? { content: Buffer.from(target) } : {}),
        });
      } else if (info.isFile()) {
        const content = await readFile(abs);
        out.set(rel, { sha256: sha256(content), mode: info.mode & 0o777, symlink: null, bytes: content.length, ...(options.content ? { content } : {}) });
      }
    }
  }
  await walk(root, '');
  return out;
}

export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

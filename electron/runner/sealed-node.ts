/**
 * The node binary Baton's test driver runs under, sealed (issue 31): a copy of the runtime that its
 * user may execute but not read (mode 0111). Linux marks a process started from a file it cannot read
 * as not dumpable, and a process that is not dumpable keeps its memory from every process of the
 * same user that lacks CAP_SYS_PTRACE: `/proc/<pid>/mem`, `environ`, `fd` answer EACCES. Inside the
 * sandbox no process has a capability, so code under test cannot read the report key out of the
 * driver that holds it (nor out of the other test processes, which node:test starts from the same
 * binary). One copy per runtime, kept in Baton's cache folder and reused.
 */
import { randomBytes, createHash } from 'node:crypto';
import { copyFile, chmod, mkdir, rename, rm, stat, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findExecutable } from '../process/sandbox';

export interface SealedNode {
  /** The runtime it copies (its real path). */
  readonly from: string;
  /** The execute-only copy. */
  readonly path: string;
}

/** Where sealed runtimes are kept: BATON_CACHE_DIR, else the user's cache folder. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.BATON_CACHE_DIR) return env.BATON_CACHE_DIR;
  return join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'baton');
}

/** Where a sandboxed run finds the sealed runtime. */
export const SEALED_NODE_INSIDE = '/run/baton/node';

const made = new Map<string, Promise<SealedNode | null>>();

/**
 * The sealed copy of `node` (a name looked up on PATH, or a path), made once per runtime and process;
 * null when there is no such runtime or the copy cannot be made (the run then says its key holder is
 * readable). Not on Windows and macOS, where `/proc` does not exist.
 */
export function sealedNode(node = 'node', env: NodeJS.ProcessEnv = process.env): Promise<SealedNode | null> {
  if (process.platform !== 'linux') return Promise.resolve(null);
  const key = `${node}\0${env.PATH ?? ''}\0${cacheDir(env)}`;
  let found = made.get(key);
  if (!found) {
    found = seal(node, env).catch(() => null);
    made.set(key, found);
  }
  return found;
}

async function seal(node: string, env: NodeJS.ProcessEnv): Promise<SealedNode | null> {
  const found = await findExecutable(node, env.PATH ?? '');
  if (!found) return null;
  const from = await realpath(found);
  const info = await stat(from);
  const id = createHash('sha256').update(`${from}\0${info.size}\0${info.mtimeMs}\0${info.ino}`).digest('hex').slice(0, 16);
  const dir = join(cacheDir(env), 'sealed-node');
  const path = join(dir, `node-${id}`);
  const existing = await stat(path).catch(() => null);
  if (existing?.isFile() && existing.size === info.size && (existing.mode & 0o777) === 0o111) return { from, path };
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
  try {
    await copyFile(from, partial);
    await chmod(partial, 0o111);
    await rename(partial, path);
  } finally {
    await rm(partial, { force: true });
  }
  return { from, path };
}

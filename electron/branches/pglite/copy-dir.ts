/**
 * Copying a data directory (about 40 MB in ~1,000 files for an empty database). `cp` in a child
 * process is 2–3× faster than Node's fs.cp here, keeps the copy off the event loop, uses
 * copy-on-write clones where the file system has them (`--reflink=auto` on Linux, `-c` on
 * macOS APFS) and can be killed on cancel. Elsewhere (Windows) fs.cp does the work.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { BranchError } from '../provider';
import { removeDir } from './layout';

/** Copy `src` to `dst` (which must not exist). On failure or cancel, `dst` is removed. */
export async function copyDir(src: string, dst: string, signal?: AbortSignal): Promise<void> {
  try {
    const native = process.platform === 'linux' ? ['-a', '--reflink=auto'] : process.platform === 'darwin' ? ['-c', '-R'] : null;
    if (native && (await runCp([...native, src, dst], signal))) return;
    await removeDir(dst);
    if (signal?.aborted) throw cancelled();
    await fs.cp(src, dst, { recursive: true });
    if (signal?.aborted) throw cancelled();
  } catch (error) {
    await removeDir(dst);
    throw error;
  }
}

const cancelled = () => new BranchError('cancelled', 'Copying the data directory was cancelled; the partial copy was removed.');

/** True when cp succeeded; false when it is unavailable or failed (the caller falls back). */
function runCp(args: string[], signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const child = spawn('cp', args, { stdio: 'ignore' });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(cancelled());
      else resolve(code === 0);
    });
  });
}

/** Total bytes of the regular files under `dir`; null if it is gone. */
export async function dirSize(dir: string): Promise<number | null> {
  try {
    let total = 0;
    const entries = await fs.readdir(dir, { withFileTypes: true });
    const sizes = await Promise.all(
      entries.map(async (entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return (await dirSize(path)) ?? 0;
        if (entry.isFile()) return (await fs.stat(path)).size;
        return 0;
      }),
    );
    for (const size of sizes) total += size;
    return total;
  } catch {
    return null;
  }
}

/**
 * What the frozen guard's verdict (run-feature.ts) depends on, taken cheaply, so the guard before
 * every cycle step re-judges the gates only when something they rest on may have changed (issue
 * 17: a cycle no longer reads and hashes the whole project six times). Cheap, and on the safe side:
 * every entry of the artifact folders with its size, inode and nanosecond mtime and ctime (a write
 * always moves ctime, which no tool can set back), and every ledger record but the cycle's own
 * bookkeeping (its steps, item statuses, branch changes), so an approval, withdrawal or discard
 * anywhere shows. A file changed less than a second ago could share a timestamp with a later
 * change (git's "racily clean" case): then there is no fingerprint and the gates are judged afresh.
 */
import { createHash, type Hash } from 'node:crypto';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ledger } from '../ledger';

/** Where a project's artifacts can be (Baton's own, or Consort's and sftdd's), and what of `.baton` the gates never read. */
const ARTIFACT_ROOTS = ['.baton', '.consort', '.sftdd'];
const NOT_ARTIFACTS = new Set(['ledger', 'state']);
/** Records the cycle writes by the dozen that no spec, design or test-list gate is judged by. */
const BOOKKEEPING = /^(cycle|item|branch)\./;
const RACY_NS = 1_000_000_000n;

/** The fingerprint, or null when a file changed too recently to tell a later change by it (`nowMs`: the clock, for tests). */
export async function guardFingerprint(root: string, ledger: Ledger, nowMs = Date.now()): Promise<string | null> {
  const hash = createHash('sha256');
  const now = BigInt(nowMs) * 1_000_000n;
  let racy = false;
  const walk = async (dir: string, rel: string, top: boolean): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : Promise.reject(error),
    );
    if (entries === null) return void hash.update(`${rel}\0none\n`);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (top && rel === '.baton' && NOT_ARTIFACTS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      const info = await lstat(path, { bigint: true });
      if (now - info.mtimeNs < RACY_NS || now - info.ctimeNs < RACY_NS) racy = true;
      entryLine(hash, `${rel}/${entry.name}`, info);
      if (info.isDirectory()) await walk(path, `${rel}/${entry.name}`, false);
    }
  };
  for (const name of ARTIFACT_ROOTS) await walk(join(root, name), name, true);
  for (const record of (await ledger.read()).records) if (!BOOKKEEPING.test(record.type)) hash.update(`${record.hash}\n`);
  return racy ? null : hash.digest('hex');
}

function entryLine(hash: Hash, rel: string, info: { mode: bigint; size: bigint; ino: bigint; mtimeNs: bigint; ctimeNs: bigint }): void {
  hash.update(`${rel}\0${info.mode}\0${info.size}\0${info.ino}\0${info.mtimeNs}\0${info.ctimeNs}\n`);
}

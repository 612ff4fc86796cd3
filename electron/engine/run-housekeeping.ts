/** A run's housekeeping: the one-run-per-project lock, and the worktrees a killed run left. */
import { existsSync } from 'node:fs';
import { mkdir, readdir, realpath, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hostname } from 'node:os';
import type { RunElsewhere } from '../../shared/model';
import { acquireFileLock, liveHolder, releaseFileLock } from '../platform/file-lock';
import { git } from './git';

/**
 * One run per project at a time: a second would fight over the same worktrees and snapshots. The
 * lock file is created exclusively, so of two runs started together exactly one takes it; a lock
 * whose process is gone is taken over. The lock names this machine and the project's realpath, so
 * a lock copied along with the project (to another folder or machine) is no run here: it is
 * replaced, and `note` says so.
 */
const runLockFile = (root: string): string => join(root, '.baton', 'state', 'run.lock');

/** A run of this project that another process is making now (it holds the run lock), or null. */
export async function runElsewhere(root: string): Promise<RunElsewhere | null> {
  const holder = await liveHolder(runLockFile(root), await realpath(root).catch(() => root));
  if (holder === null || (holder.pid === process.pid && holder.host === hostname())) return null;
  return { pid: holder.pid, host: holder.host, since: holder.at };
}

export async function takeRunLock(root: string, note: (message: string) => void): Promise<() => Promise<void>> {
  const file = runLockFile(root);
  await mkdir(dirname(file), { recursive: true });
  const content = await acquireFileLock(
    file,
    0,
    (_path, holder) => `Another Baton run (${holder.who}${holder.since}) is working on this project. Wait for it, or stop it, then run again.`,
    {
      folder: await realpath(root),
      onCopied: (path, holder, from) =>
        note(
          `Ignored the run lock ${path}: it was copied with the project from ${from} (${holder.who}${holder.since}); no run holds it here, so this run replaced it.`,
        ),
    },
  );
  return () => releaseFileLock(file, content);
}

/** Worktrees a killed run left: the steps that need them re-create them. */
export async function cleanTurns(root: string, turnsDir: string): Promise<void> {
  if (!existsSync(turnsDir)) return;
  for (const name of await readdir(turnsDir)) await rm(join(turnsDir, name), { recursive: true, force: true });
  await git(root, ['worktree', 'prune']).catch(() => undefined);
}

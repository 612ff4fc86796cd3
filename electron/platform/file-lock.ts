/**
 * The one lock primitive: inside a process, work on the same key queues in order (`serialize`);
 * across processes, a lock file created exclusively (O_EXCL, 'wx') holds `{pid, host, at}`. A
 * second process polls until the lock is free or `timeoutMs` passes (0: one try), then fails
 * naming what is busy, the file and its holder. A lock left by a process that no longer runs on
 * this host is stale and is taken over. Used by the ledger, the branch registry and the run lock.
 * A lock that names its folder (the run lock: `folder`, the project's realpath) and was copied with
 * it — it names another folder or another machine — holds nothing here and is taken over too.
 *
 * Known limit: taking over a stale lock and releasing compare the file's content before removing
 * it, which leaves a window of microseconds in which two processes could both believe they hold
 * the lock. The ledger's chain check (prev must be the last hash) still refuses a fork.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import { isMissing, pidAlive } from './fs-facts';

/** An unreadable lock file older than this was left by a crash between create and write. */
const UNREADABLE_STALE_MS = 2000;
const MAX_POLL_MS = 100;

interface Holder {
  readonly raw: string;
  readonly pid: number | null;
  readonly host: string | null;
  readonly at: string | null;
  /** The folder the lock guards (realpath), when its taker named one. */
  readonly folder: string | null;
  readonly ageMs: number;
}

const queues = new Map<string, Promise<unknown>>();
/** The ledgers whose transaction the current async context is running inside (while it runs). */
const held = new AsyncLocalStorage<ReadonlyMap<string, { active: boolean }>>();

/**
 * Runs `fn` after every earlier call for `key` in this process has settled. Calling it again for
 * the same key from inside `fn` would wait for itself forever, so that throws instead.
 */
export const serialize = async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
  const outer = held.getStore();
  if (outer?.get(key)?.active) {
    throw new Error(
      `A ledger transaction on ${key} was started inside another transaction on the same ledger; it would wait for itself. ` +
        'Use the `tx.append` of the transaction you are in.',
    );
  }
  // Work a transaction leaves running after it ends (a detached promise) may start its own.
  const mark = { active: true };
  const context = new Map(outer ?? []).set(key, mark);
  const task = () => held.run(context, fn).finally(() => (mark.active = false));
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
};

const readHolder = async (lockPath: string): Promise<Holder | null> => {
  try {
    const [raw, stat] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    const ageMs = Date.now() - stat.mtimeMs;
    try {
      const parsed = JSON.parse(raw) as { pid?: unknown; host?: unknown; at?: unknown; folder?: unknown };
      return {
        raw,
        pid: Number.isInteger(parsed.pid) ? (parsed.pid as number) : null,
        host: typeof parsed.host === 'string' ? parsed.host : null,
        at: typeof parsed.at === 'string' ? parsed.at : null,
        folder: typeof parsed.folder === 'string' ? parsed.folder : null,
        ageMs,
      };
    } catch {
      return { raw, pid: null, host: null, at: null, folder: null, ageMs };
    }
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
};

const isStale = (holder: Holder): boolean => {
  if (holder.pid === null || holder.host === null) return holder.ageMs > UNREADABLE_STALE_MS;
  return holder.host === os.hostname() && !pidAlive(holder.pid);
};

/**
 * Why a lock that guards `folder` was copied here rather than taken here: it names another machine
 * (its pid means nothing on this one) or another folder (a copy of the project). Null when neither,
 * or when the lock names no folder (taken by a Baton that did not write one: judged as before).
 */
const copiedFrom = (holder: Holder, folder: string | undefined): string | null => {
  if (folder === undefined || holder.pid === null || holder.host === null) return null;
  if (holder.host !== os.hostname()) return 'another machine';
  if (holder.folder !== null && holder.folder !== folder) return 'another folder';
  return null;
};

/** Moves the stale lock aside, and removes it only if it is still the stale one we judged; true when it was. */
const takeOver = async (lockPath: string, stale: Holder): Promise<boolean> => {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => null);
  // Someone took the lock between our read and the rename: put theirs back.
  if (moved !== stale.raw) await fs.link(aside, lockPath).catch(() => undefined);
  await fs.rm(aside, { force: true });
  return moved === stale.raw;
};

/** Who holds a lock, in words: `pid 42 on host[ in /its/folder], since <time>`. */
export interface LockHolder {
  readonly who: string;
  readonly since: string;
}

/** What a caller says when the lock stays busy: the ledger's default, or the caller's own words. */
export type BusyMessage = (lockPath: string, holder: LockHolder, waitedMs: number) => string;

export interface LockPlace {
  /** The folder the lock guards, as a realpath: written into the lock, so a copy of the folder can tell the lock is not its own. */
  readonly folder: string;
  /** Told when a lock copied from `from` (another machine or folder) was taken over. */
  readonly onCopied: (lockPath: string, holder: LockHolder, from: string) => void;
}

const ledgerBusy: BusyMessage = (lockPath, holder, waitedMs) =>
  `The ledger is busy: ${holder.who}${holder.since} holds its lock file ${lockPath}. ` +
  `Waited ${(waitedMs / 1000).toFixed(1)} s. Try again when that process has finished; ` +
  `if it is no longer running, delete ${lockPath} and try again.`;

const describeHolder = (holder: Holder | null): LockHolder => ({
  who: holder?.pid != null ? `pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ''}${holder.folder ? ` in ${holder.folder}` : ''}` : 'an unknown process',
  since: holder?.at ? `, since ${holder.at}` : '',
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Creates the lock file, waiting for another holder up to `timeoutMs`; returns what it wrote. */
export const acquireFileLock = async (lockPath: string, timeoutMs: number, busy: BusyMessage = ledgerBusy, place?: LockPlace): Promise<string> => {
  const started = Date.now();
  let delay = 5;
  for (;;) {
    const content = JSON.stringify({ pid: process.pid, host: os.hostname(), at: new Date().toISOString(), ...(place ? { folder: place.folder } : {}) });
    try {
      const handle = await fs.open(lockPath, 'wx');
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
      return content;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    const holder = await readHolder(lockPath);
    if (holder === null) continue;
    if (isStale(holder)) {
      await takeOver(lockPath, holder);
      continue;
    }
    const copied = copiedFrom(holder, place?.folder);
    if (copied !== null) {
      if (await takeOver(lockPath, holder)) place!.onCopied(lockPath, describeHolder(holder), copied);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new Error(busy(lockPath, describeHolder(holder), waited));
    await sleep(Math.min(delay, timeoutMs - waited));
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
};

/**
 * Who holds the lock now, judged as acquireFileLock would (null: free, stale, or copied with the
 * folder from elsewhere, so nobody holds it here). Never takes or changes it.
 */
export const liveHolder = async (lockPath: string, folder?: string): Promise<{ pid: number | null; host: string | null; at: string | null } | null> => {
  const holder = await readHolder(lockPath).catch(() => null);
  if (holder === null || isStale(holder) || copiedFrom(holder, folder) !== null) return null;
  return { pid: holder.pid, host: holder.host, at: holder.at };
};

/** Removes the lock file if it is still ours (a takeover may have replaced it). */
export const releaseFileLock = async (lockPath: string, content: string): Promise<void> => {
  const current = await fs.readFile(lockPath, 'utf8').catch(() => null);
  if (current === content) await fs.rm(lockPath, { force: true });
};

export const withFileLock = async <T>(lockPath: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> => {
  const content = await acquireFileLock(lockPath, timeoutMs);
  try {
    return await fn();
  } finally {
    await releaseFileLock(lockPath, content);
  }
};

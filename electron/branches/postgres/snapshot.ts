/**
 * Frozen snapshots of parent databases. Postgres copies a database (`CREATE DATABASE … TEMPLATE`)
 * only while nobody else is connected to it, so branches are never forked from a parent directly:
 * Baton copies the parent once into `baton_snap_…` (connections disallowed, so it can never be
 * busy) and forks every branch, and every warm-pool entry, from that copy while the parent keeps
 * serving its clients. When a snapshot is refreshed is decided in fingerprint.ts.
 *
 * A refresh takes an advisory lock per parent (so concurrent processes take one snapshot, not
 * many) and records the fingerprints read just before the copy (a change racing the copy costs at
 * most one needless refresh later, never a stale branch). Older snapshots and their pool entries
 * are retired afterwards, off the caller's path, by the pool's sweep. DROP DATABASE waits for
 * copies still reading an old snapshot; a copy that starts after it is gone gets "does not exist"
 * and its caller resolves the snapshot again.
 */
import type pg from 'pg';
import type { BranchProgress } from '../../../shared/branches';
import { BranchError, throwIfCancelled } from '../provider';
import type { Admin, CatalogEntry } from './admin';
import { PG, busyError, codeOf, describeSessions } from './errors';
import { FINGERPRINT_APPLICATION, contentFingerprint, isCurrent, type Snapshot } from './fingerprint';
import { ident, metaLiteral, newSnapshotName, snapshotPrefix, type SnapshotMeta } from './layout';

export interface RetryPolicy {
  /** Copies attempted before giving up with `busy`. */
  readonly attempts: number;
  /** First wait between attempts; doubled each time up to `maxBackoffMs`. */
  readonly backoffMs: number;
  readonly maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, backoffMs: 100, maxBackoffMs: 2_000 };
/** How long to wait for another Baton process that is snapshotting the same parent. */
const LOCK_WAIT_MS = 120_000;

export interface RefreshOptions {
  /** The branch being made, for messages. */
  readonly branch: string;
  readonly force: boolean;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((event: BranchProgress) => void) | undefined;
}

/** The newest snapshot of `parent` that Baton marked (an unmarked one is half-made and ignored). */
export function currentSnapshot(entries: readonly CatalogEntry[], parent: string): Snapshot | null {
  let best: Snapshot | null = null;
  for (const entry of entries) {
    const meta = entry.meta;
    if (meta?.role !== 'snapshot' || meta.of !== parent || !entry.name.startsWith(snapshotPrefix(parent))) continue;
    if (!best || meta.createdAt > best.meta.createdAt || (meta.createdAt === best.meta.createdAt && entry.name > best.name)) {
      best = { name: entry.name, meta };
    }
  }
  return best;
}

export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new BranchError('cancelled', `${what} was cancelled; nothing was left half-made.`));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export class Snapshots {
  /** One refresh per parent at a time in this process; other callers share its result. */
  private readonly inflight = new Map<string, Promise<Snapshot>>();

  constructor(
    private readonly admin: Admin,
    private readonly retry: RetryPolicy,
  ) {}

  /** A snapshot of `parent` that reflects its current content, taking a new one when needed. */
  async refresh(parent: string, options: RefreshOptions): Promise<Snapshot> {
    const shared = options.force ? undefined : this.inflight.get(parent);
    if (shared) {
      try {
        return await shared;
      } catch (error) {
        // Another caller's cancellation is not ours: take the snapshot ourselves.
        if (!(error instanceof BranchError && error.code === 'cancelled') || options.signal?.aborted) throw error;
      }
    }
    const run = this.refreshLocked(parent, options);
    if (!options.force) this.inflight.set(parent, run);
    try {
      return await run;
    } finally {
      if (this.inflight.get(parent) === run) this.inflight.delete(parent);
    }
  }

  private async refreshLocked(parent: string, options: RefreshOptions): Promise<Snapshot> {
    const key = `baton:snapshot:${parent}`;
    const client = await this.lock(key, parent, options);
    try {
      const entries = await this.admin.catalog(client, [parent], [snapshotPrefix(parent)]);
      const parentEntry = entries.find((entry) => entry.name === parent);
      if (!parentEntry) throw new BranchError('not-found', `Parent database "${parent}" does not exist on ${this.admin.redaction.url}; create it first.`);
      // Another process may have refreshed it while we waited for the lock.
      const current = currentSnapshot(entries, parent);
      if (current && !options.force && (await isCurrent(this.admin, current, parentEntry))) return current;

      // Under the lock nobody else is mid-copy, so an unmarked snapshot is a crashed refresh's leftover.
      const leftovers = entries.filter((entry) => entry.name.startsWith(snapshotPrefix(parent)) && entry.meta?.role !== 'snapshot').map((entry) => entry.name);
      await this.admin.dropMany(leftovers, `dropping leftovers of "${parent}"`);
      // Older generations are retired in the background by the pool's sweep (warm-pool.ts).
      return await this.copy(client, parent, options);
    } finally {
      await this.admin.unlock(client, key);
    }
  }

  /** Copies the parent into a new snapshot, retrying while other sessions hold it. */
  private async copy(client: pg.PoolClient, parent: string, options: RefreshOptions): Promise<Snapshot> {
    const what = `Taking a snapshot of "${parent}" for "${options.branch}"`;
    const name = newSnapshotName(parent);
    const started = Date.now();
    for (let attempt = 1; ; attempt += 1) {
      throwIfCancelled(options.signal, what);
      // Look before copying: with sessions on the template, CREATE DATABASE waits 5 s before it
      // fails. Autovacuum workers do not count (CREATE DATABASE stops them), nor Baton's own
      // counter reads (they end within milliseconds; CREATE DATABASE waits that long).
      let sessions = (await this.admin.sessions(client, parent)).filter((s) => s.kind !== 'autovacuum worker' && s.application !== FINGERPRINT_APPLICATION);
      if (sessions.length === 0) {
        try {
          const [entry] = await this.admin.catalog(client, [parent]);
          const content = await contentFingerprint(this.admin, parent).catch(() => null); // null: judged by the coarse counters only
          await this.admin.run(client, `CREATE DATABASE ${ident(name)} TEMPLATE ${ident(parent)} STRATEGY FILE_COPY ALLOW_CONNECTIONS false`, options.signal);
          return await this.mark(client, name, parent, entry?.fingerprint ?? null, content);
        } catch (error) {
          const code = codeOf(error);
          if (code === PG.queryCanceled && options.signal?.aborted) throw new BranchError('cancelled', `${what} was cancelled; nothing was left half-made.`);
          if (code === PG.undefinedDatabase)
            throw new BranchError('not-found', `Parent database "${parent}" disappeared from ${this.admin.redaction.url} while taking a snapshot of it.`);
          if (code !== PG.objectInUse) throw error;
          sessions = await this.admin.sessions(client, parent); // someone connected just before the copy
        }
      }
      if (attempt >= this.retry.attempts) throw busyError(parent, options.branch, sessions, attempt, Date.now() - started, this.admin.redaction.url);
      const who = sessions.length > 0 ? `${sessions.length} other session(s) on "${parent}": ${describeSessions(sessions)}` : `other sessions on "${parent}"`;
      options.onProgress?.({ kind: 'branch.retry', op: 'snapshot', name: parent, attempt, reason: `${who}; retrying` });
      await sleep(Math.min(this.retry.backoffMs * 2 ** (attempt - 1), this.retry.maxBackoffMs), options.signal, what);
    }
  }

  /** Writes the snapshot's comment, which makes it current; drops it if that fails. */
  private async mark(client: pg.PoolClient, name: string, parent: string, fingerprint: string | null, content: string | null): Promise<Snapshot> {
    // The real clock, not `now`: createdAt orders generations.
    const meta: SnapshotMeta = { baton: 1, role: 'snapshot', of: parent, fingerprint, content, createdAt: new Date().toISOString() };
    try {
      await client.query(`COMMENT ON DATABASE ${ident(name)} IS ${metaLiteral(meta)}`);
    } catch (error) {
      await this.admin.drop(client, name).catch(() => undefined);
      throw error;
    }
    return { name, meta };
  }

  private async lock(key: string, parent: string, options: RefreshOptions): Promise<pg.PoolClient> {
    const what = `taking a snapshot of "${parent}"`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
      throwIfCancelled(options.signal, `Forking "${options.branch}"`);
      const client = await this.admin.tryLock(key, what);
      if (client) return client;
      if (Date.now() > deadline) {
        throw new BranchError(
          'busy',
          `Another Baton process has been taking a snapshot of "${parent}" for over ${LOCK_WAIT_MS / 1000} s; try again later, or stop that process if it is stuck.`,
        );
      }
      await sleep(delay, options.signal, `Forking "${options.branch}"`);
    }
  }
}

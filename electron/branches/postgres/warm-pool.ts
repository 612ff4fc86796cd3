/**
 * The warm pool: databases pre-forked from a parent's current snapshot, so that making a branch is
 * a rename (a catalog update, milliseconds at any size) instead of a file copy.
 *
 * Safe across processes without any shared state but the server:
 * - Claiming renames an entry to the branch's name in one implicit transaction together with
 *   revoking PUBLIC's CONNECT, allowing connections and writing the branch's comment. The rename
 *   locks the database and looks its name up again, so of several claimers exactly one wins; the
 *   others get "does not exist" and try the next entry, or fall back to a cold copy.
 * - Before an entry gets the pool's comment, the refill gives its content, and CONNECT on it, to a
 *   placeholder role (pool-owner.ts), so the claimer only renames that role; claimers take marked
 *   entries only.
 * - Entries are created with connections disallowed, so nothing (not even autovacuum) can be
 *   connected to one when it is claimed.
 * - Refilling takes an advisory lock per parent without waiting (a busy lock means another process
 *   is already refilling it), and re-reads the catalog before each copy: older snapshots and the
 *   entries copied from them are dropped, so a refill racing a snapshot refresh leaves nothing
 *   behind. This sweep is also how a refresh's old snapshot is retired, off the caller's path.
 */
import type pg from 'pg';
import type { Admin, CatalogEntry } from './admin';
import { PG, codeOf, translateError } from './errors';
import { ident, metaLiteral, newPoolName, poolGenerationPrefix, poolPrefix, snapshotPrefix, type BranchMeta, type PoolMeta } from './layout';
import { BranchError } from '../provider';
import type { Snapshot } from './fingerprint';
import { currentSnapshot } from './snapshot';

interface RefillJob {
  again: boolean;
  /** The refill session's backend pid while it holds a connection (so close() can cancel its copy). */
  pid: number | null;
  done: Promise<void>;
}

/** What the pool asks of the branch roles (pool-owner.ts): an entry owned ahead of time, and the placeholders of entries dropped. */
export interface PoolOwners {
  prepare(entry: string): Promise<void>;
  retire(entries: readonly string[]): Promise<void>;
}

/**
 * Entries copied from `snapshot` and marked (an unmarked one is still being prepared), in random
 * order so concurrent claimers rarely collide.
 */
export function poolEntries(entries: readonly CatalogEntry[], parent: string, snapshot: Snapshot): string[] {
  const prefix = poolGenerationPrefix(parent, snapshot.name);
  const names = entries.filter((entry) => entry.name.startsWith(prefix) && entry.meta?.role === 'pool').map((entry) => entry.name);
  for (let i = names.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [names[i], names[j]] = [names[j] as string, names[i] as string];
  }
  return names;
}

export class WarmPool {
  private readonly jobs = new Map<string, RefillJob>();
  private closed = false;
  /** The last background refill failure (refills are best effort: create falls back to a copy). */
  lastError: BranchError | null = null;

  constructor(
    private readonly admin: Admin,
    readonly size: number,
    private readonly owners: PoolOwners,
  ) {}

  /**
   * Renames the first entry it wins to `target` with `meta` as its comment. Returns false when no
   * entry could be claimed. Throws `exists` when `target` is taken.
   */
  async claim(client: pg.ClientBase, entries: readonly string[], target: string, meta: BranchMeta): Promise<boolean> {
    for (const entry of entries) {
      try {
        await client.query(
          `ALTER DATABASE ${ident(entry)} RENAME TO ${ident(target)}; REVOKE ALL ON DATABASE ${ident(target)} FROM PUBLIC; ` +
            `ALTER DATABASE ${ident(target)} ALLOW_CONNECTIONS true; COMMENT ON DATABASE ${ident(target)} IS ${metaLiteral(meta)}`,
        );
        return true;
      } catch (error) {
        const code = codeOf(error);
        if (code === PG.duplicateDatabase)
          throw new BranchError('exists', `Database "${target}" already exists on ${this.admin.redaction.url}; pick another name or delete it first.`);
        // Claimed by someone else, or retired with its snapshot: try the next one.
        if (code === PG.undefinedDatabase || code === PG.objectInUse) continue;
        throw error;
      }
    }
    return false;
  }

  /**
   * Retires `parent`'s old snapshots and pool entries and tops its pool up, in the background; a
   * refill already running for it goes round once more.
   */
  refill(parent: string): void {
    if (this.closed) return;
    const running = this.jobs.get(parent);
    if (running) {
      running.again = true;
      return;
    }
    const job: RefillJob = { again: false, pid: null, done: Promise.resolve() };
    this.jobs.set(parent, job);
    job.done = (async () => {
      do {
        job.again = false;
        await this.refillOnce(parent, job);
      } while (job.again && !this.closed);
      this.lastError = null;
    })()
      .catch((error: unknown) => {
        if (!this.closed) this.lastError = translateError(error, `refilling the warm pool of "${parent}"`, this.admin.redaction);
      })
      .finally(() => this.jobs.delete(parent));
  }

  /** Resolves when no refill is running (tests and benchmarks wait on it). */
  async idle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.all([...this.jobs.values()].map((job) => job.done));
  }

  /** Stops refills: cancels a copy in progress (the server then leaves nothing) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    const jobs = [...this.jobs.values()];
    await Promise.all(jobs.map((job) => this.admin.cancel(job.pid)));
    await Promise.all(jobs.map((job) => job.done));
  }

  private async refillOnce(parent: string, job: RefillJob): Promise<void> {
    const key = `baton:pool:${parent}`;
    const client = await this.admin.tryLock(key, `refilling the warm pool of "${parent}"`);
    if (!client) return;
    job.pid = (client as unknown as { processID: number | null }).processID;
    try {
      while (!this.closed) {
        const entries = await this.admin.catalog(client, [], [snapshotPrefix(parent), poolPrefix(parent)]);
        const snapshot = currentSnapshot(entries, parent);
        const keep = snapshot ? poolGenerationPrefix(parent, snapshot.name) : null;
        // Retire older snapshots (marked ones only: an unmarked one may be another process's copy
        // in progress), pool entries copied from anything but the current snapshot, and unmarked
        // entries (under the lock nobody else is making one: a crashed refill's).
        const stale = entries.filter((entry) =>
          entry.name.startsWith(poolPrefix(parent))
            ? !(keep && entry.name.startsWith(keep)) || entry.meta?.role !== 'pool'
            : entry.meta?.role === 'snapshot' && entry.name !== snapshot?.name,
        );
        const retired = stale.map((entry) => entry.name);
        await this.admin.dropMany(retired, `retiring old copies of "${parent}"`);
        await this.owners.retire(retired);
        const ready = keep ? entries.filter((entry) => entry.name.startsWith(keep) && entry.meta?.role === 'pool').length : 0;
        if (!snapshot || ready >= this.size || this.closed) return;
        const name = newPoolName(parent, snapshot.name);
        try {
          await client.query(`CREATE DATABASE ${ident(name)} TEMPLATE ${ident(snapshot.name)} STRATEGY FILE_COPY ALLOW_CONNECTIONS false`);
        } catch (error) {
          if (codeOf(error) === PG.undefinedDatabase) continue; // the snapshot was retired meanwhile
          if (codeOf(error) === PG.queryCanceled && this.closed) return;
          throw error;
        }
        await this.owners.prepare(name);
        const meta: PoolMeta = { baton: 1, role: 'pool', of: parent, snapshot: snapshot.name, createdAt: new Date().toISOString() };
        await client.query(`COMMENT ON DATABASE ${ident(name)} IS ${metaLiteral(meta)}`).catch((error: unknown) => {
          // Claimed already (renamed) or retired: either way not ours to mark any more.
          if (codeOf(error) !== PG.undefinedDatabase) throw error;
        });
      }
    } finally {
      job.pid = null;
      await this.admin.unlock(client, key);
    }
  }
}

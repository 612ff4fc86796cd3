/**
 * Pre-copied data directories per parent, so creating a branch is a rename instead of a copy.
 *
 * An entry is named `<generation>-<id>` after the parent's generation when the copy began, and is
 * used only while that generation is still current. Every server start bumps the generation
 * (before spawning and again once listening), so an entry copied before, or while, the parent
 * was open in any process is never used. Entries are copied only while no server holds the
 * parent, and are moved into the pool by rename once complete; `take` moves one out by rename, so
 * two creates (even in two processes) can never receive the same directory.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { copyDir } from './copy-dir';
import type { KeyedLock } from '../../platform/keyed-lock';
import { isMissing, pidAlive } from '../../platform/fs-facts';
import { dataOf, readMeta, removeDir, type PgliteLayout } from './layout';
import { lockHolder, readServeInfo } from './server-process';

interface Entry {
  readonly dir: string;
  readonly generation: number;
}

export class WarmPool {
  private readonly stop = new AbortController();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** The last background refill failure, for diagnostics; refills never throw to anyone. */
  lastError: unknown = null;

  constructor(
    private readonly layout: PgliteLayout,
    private readonly size: number,
    private readonly lock: KeyedLock,
  ) {}

  /** Move a copy of `parent` at `generation` to `dst` (which must not exist). False if none is valid. */
  async take(parent: string, generation: number, dst: string): Promise<boolean> {
    for (const entry of await this.entries(parent)) {
      if (entry.generation !== generation) continue;
      try {
        await fs.rename(entry.dir, dst);
        return true;
      } catch (error) {
        if (!isMissing(error)) throw error; // taken by a concurrent create: try the next
      }
    }
    return false;
  }

  /** Top up `parent`'s entries in the background. */
  schedule(parent: string): void {
    if (this.size <= 0 || this.stop.signal.aborted) return;
    if (this.running.has(parent)) {
      this.again.add(parent);
      return;
    }
    const run = this.refill(parent)
      .then(() => {
        this.lastError = null;
      })
      .catch((error: unknown) => {
        if (!this.stop.signal.aborted) this.lastError = error;
      })
      .finally(() => {
        this.running.delete(parent);
        if (this.again.delete(parent)) this.schedule(parent);
      });
    this.running.set(parent, run);
  }

  /** Resolves when no refill is in flight. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Cancel refills (a copy in progress is killed and removed) and wait for them to end. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.idle();
  }

  /** Remove every entry of `parent` (deleted, or reset so they are stale anyway). */
  discard(parent: string): Promise<void> {
    return removeDir(this.layout.pool(parent));
  }

  private async entries(parent: string): Promise<Entry[]> {
    const dir = this.layout.pool(parent);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    return names.flatMap((name) => {
      const match = /^(\d+)-[0-9a-f]{8}$/.exec(name);
      return match ? [{ dir: join(dir, name), generation: Number(match[1]) }] : [];
    });
  }

  private async refill(parent: string): Promise<void> {
    const home = this.layout.home(parent);
    while (!this.stop.signal.aborted) {
      const meta = await readMeta(home);
      if (!meta) return;
      const entries = await this.entries(parent);
      await Promise.all(entries.filter((entry) => entry.generation !== meta.generation).map((entry) => removeDir(entry.dir)));
      if (entries.filter((entry) => entry.generation === meta.generation).length >= this.size) return;
      if (!(await this.lock.run(parent, () => this.copyOne(parent, home)))) return;
    }
  }

  /** One copy, under the parent's lock; false when the parent is served or changed meanwhile. */
  private async copyOne(parent: string, home: string): Promise<boolean> {
    const before = await readMeta(home);
    if (!before || (await isServed(home))) return false;
    const staging = await this.layout.newStaging(`pool-${parent}`);
    try {
      await copyDir(dataOf(home), join(staging, 'data'), this.stop.signal);
      const after = await readMeta(home);
      if (after?.generation !== before.generation || (await isServed(home))) return false;
      await fs.mkdir(this.layout.pool(parent), { recursive: true });
      await fs.rename(join(staging, 'data'), join(this.layout.pool(parent), `${before.generation}-${randomUUID().slice(0, 8)}`));
      return true;
    } finally {
      await removeDir(staging);
    }
  }
}

/** Open in a server, or about to be. No port probe: it would take the server's only client slot for a moment. */
async function isServed(home: string): Promise<boolean> {
  const info = await readServeInfo(home);
  return (info !== null && pidAlive(info.pid)) || (await lockHolder(home)) !== null;
}

/**
 * Persisted machine snapshots under `.baton/state/<feature>/`: one file for the lifecycle, one per
 * item's cycle. Every write is atomic (temp file, fsync, rename), one at a time per file, so a
 * crash leaves the previous snapshot or the new one, never half of either.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';

export class StateStore {
  private readonly queues = new Map<string, Promise<void>>();

  /** `root`: the folder no write may leave through a link (the project; default `dir` itself). */
  constructor(
    readonly dir: string,
    private readonly root: string = dir,
  ) {}

  static forProject(root: string, feature: string): StateStore {
    return new StateStore(join(root, '.baton', 'state', safeName(feature)), root);
  }

  async read<T>(name: string): Promise<T | null> {
    const text = await readFile(this.path(name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (text === null) return null;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(
        `${this.path(name)} is not valid JSON. Delete it to start that machine again from its beginning (the ledger keeps what already happened).`,
      );
    }
  }

  write(name: string, value: unknown): Promise<void> {
    const file = this.path(name);
    const previous = this.queues.get(file) ?? Promise.resolve();
    const next = previous.then(() => writeFileAtomic(file, JSON.stringify(value), { root: this.root }));
    this.queues.set(
      file,
      next.catch(() => undefined),
    );
    return next;
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  /** Waits for every pending write. */
  async flush(): Promise<void> {
    await Promise.all(this.queues.values());
  }

  /** The file a snapshot of this name lives in. */
  fileOf(name: string): string {
    return this.path(name);
  }

  private path(name: string): string {
    return join(this.dir, `${safeName(name)}.json`);
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

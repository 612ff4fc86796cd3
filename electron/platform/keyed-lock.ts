/**
 * One operation at a time per key within this process (a branch: serve, stop, copy, swap). Across
 * processes the generation counter and serve.json catch what this cannot (see warm-pool.ts).
 * Callers that need two branches lock the descendant before the ancestor, never the reverse.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Throwaway branches made ahead of need: forked from a parent, prepared (migrated) and served, so a
 * test run's database is ready when the run asks for it instead of costing a copy, a server start
 * and the migrations on the run's own clock.
 *
 * An entry is a new branch nobody has connected to but its own `prepare`, and it is handed out once
 * (taken out of the map before anyone sees its name). It is used only while three things still hold:
 * - its parent's generation is the one read before the copy and again after the prepare (any
 *   server start or reset of the parent bumps it, so a parent that may have changed is never
 *   served from an older copy);
 * - the caller's `key` is the one it was prepared under. The key names everything `prepare` does
 *   (the caller hashes its migration files into it): a changed migration set has another key and
 *   is never served from an entry prepared for the old one;
 * - nobody connected to it since it was prepared: it is served while it waits (an agent's turn
 *   shares the machine's loopback), and its server counts every connection it accepts, so a
 *   branch an agent reached and wrote into during its turn is deleted, never handed to a test run.
 * Anything else is deleted, not reused. Background work never stops a served parent (see
 * `create`'s `mayStopParent`); it waits for the next take instead.
 */
import { randomBytes } from 'node:crypto';
import { BranchError } from '../provider';

export interface ReadyRequest<T> {
  readonly parent: string;
  /** Names what `prepare` does: equal keys on the same parent state give the same branch. */
  readonly key: string;
  /** Entries are named `<prefix><10 hex>`: the caller's throwaway prefix, so leftovers are found as its own. */
  readonly prefix: string;
  /** Run on the new branch; its value travels with the entry. It should not throw for an outcome worth keeping. */
  readonly prepare: (url: string, name: string) => Promise<T>;
}

export interface ReadyTaken<T> {
  readonly name: string;
  readonly value: T;
}

export interface ReadyPoolPorts {
  /** Fork `name` from `parent` with `prepare`, leave it served; never stop a served parent (throw instead). */
  create(name: string, parent: string, prepare: (url: string) => Promise<void>, signal: AbortSignal): Promise<void>;
  remove(name: string): Promise<void>;
  /** The parent's generation, or null when it does not exist. */
  generation(parent: string): Promise<number | null>;
  /** How many connections `name`'s servers have accepted, ever. */
  connections(name: string): Promise<number>;
  exists(name: string): Promise<boolean>;
}

interface Entry {
  readonly name: string;
  readonly generation: number;
  /** Its servers' connection count once prepared: one more means someone else connected. */
  readonly connections: number;
  readonly value: unknown;
}

interface Slot {
  readonly parent: string;
  readonly key: string;
  readonly prefix: string;
  prepare: (url: string, name: string) => Promise<unknown>;
  readonly ready: Entry[];
  making: Promise<void> | null;
}

/** Keys kept per provider: each ready entry is an idle server (about 300 MB), so a new key retires the old ones. */
const MAX_SLOTS = 1;

export class ReadyPool {
  private readonly stop = new AbortController();
  private readonly slots = new Map<string, Slot>();
  private readonly removing = new Set<Promise<void>>();
  /** Every branch this pool made and has not handed out or finished removing: its stock, not anyone's branch. */
  private readonly stock = new Set<string>();
  /** One entry made at a time: background work shares the cores with the tests. */
  private queue: Promise<unknown> = Promise.resolve();
  lastError: unknown = null;

  constructor(
    private readonly ports: ReadyPoolPorts,
    private readonly size: number,
  ) {}

  /** A ready entry for `request`, or null (the caller creates one itself); refills in the background either way. */
  async take<T>(request: ReadyRequest<T>): Promise<ReadyTaken<T> | null> {
    if (this.size <= 0 || this.stop.signal.aborted) return null;
    const slot = this.slotFor(request);
    for (let waited = false; ; waited = true) {
      for (let entry = slot.ready.shift(); entry; entry = slot.ready.shift()) {
        if (await this.fresh(slot.parent, entry)) {
          this.stock.delete(entry.name);
          this.fill(slot);
          return { name: entry.name, value: entry.value as T };
        }
        void this.retire(entry.name);
      }
      // None ready: the one being made (or made now) costs less to wait for than a second one made beside it.
      if (waited) return null;
      this.fill(slot);
      await slot.making;
    }
  }

  /** Whether `name` is one of this pool's own branches (being made, waiting or being removed), which no one else should see as theirs. */
  holds(name: string): boolean {
    return this.stock.has(name);
  }

  /** Forget and delete every entry forked from `parent` (it is being deleted or reset). */
  async discard(parent: string): Promise<void> {
    let found = false;
    for (const [id, slot] of this.slots) {
      if (slot.parent !== parent) continue;
      found = true;
      this.slots.delete(id);
      await slot.making; // what it made is retired as it ends (see fill)
      for (const entry of slot.ready.splice(0)) void this.retire(entry.name);
    }
    // Not when nothing was found: an entry's own removal comes through here, and must not wait for itself.
    if (found) await Promise.all([...this.removing]);
  }

  /** Resolves when nothing is being made or removed. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = [...[...this.slots.values()].flatMap((s) => (s.making ? [s.making] : [])), ...this.removing];
      if (busy.length === 0) return;
      await Promise.allSettled(busy);
    }
  }

  /** Stop making entries and delete the ones nobody took. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.idle();
    for (const slot of this.slots.values()) for (const entry of slot.ready.splice(0)) void this.retire(entry.name);
    this.slots.clear();
    await this.idle();
  }

  private slotFor(request: ReadyRequest<unknown>): Slot {
    const id = `${request.parent}\0${request.key}`;
    let slot = this.slots.get(id);
    if (slot) this.slots.delete(id);
    else slot = { parent: request.parent, key: request.key, prefix: request.prefix, prepare: request.prepare, ready: [], making: null };
    slot.prepare = request.prepare;
    this.slots.set(id, slot); // most recently used last
    for (const [other, old] of this.slots) {
      if (this.slots.size <= MAX_SLOTS) break;
      if (old === slot || old.making) continue; // one being made is evicted by a later take (or close)
      this.slots.delete(other);
      for (const entry of old.ready.splice(0)) void this.retire(entry.name);
    }
    return slot;
  }

  private async fresh(parent: string, entry: Entry): Promise<boolean> {
    return (
      (await this.ports.generation(parent)) === entry.generation &&
      (await this.ports.exists(entry.name)) &&
      (await this.ports.connections(entry.name)) === entry.connections
    );
  }

  private fill(slot: Slot): void {
    if (slot.making || this.stop.signal.aborted || slot.ready.length >= this.size) return;
    const made = this.queue.then(() => this.makeOne(slot));
    this.queue = made.catch(() => undefined);
    slot.making = made
      .then((more) => {
        slot.making = null;
        this.lastError = null;
        // A slot evicted or discarded meanwhile keeps nothing: what it made is removed, never left behind.
        if (this.slots.get(`${slot.parent}\0${slot.key}`) !== slot) for (const entry of slot.ready.splice(0)) void this.retire(entry.name);
        else if (more) this.fill(slot);
      })
      .catch((error: unknown) => {
        slot.making = null;
        // A served parent is not an error: its owner is using it, and the caller makes its own.
        if (!this.stop.signal.aborted && !(error instanceof BranchError && error.code === 'busy')) this.lastError = error;
      });
  }

  /** Make one entry; true when it was kept (and more may be wanted). */
  private async makeOne(slot: Slot): Promise<boolean> {
    if (this.stop.signal.aborted || slot.ready.length >= this.size) return false;
    const generation = await this.ports.generation(slot.parent);
    if (generation === null) return false;
    const name = `${slot.prefix}${randomBytes(5).toString('hex')}`;
    this.stock.add(name);
    let value: unknown;
    const prepare = slot.prepare;
    try {
      await this.ports.create(name, slot.parent, async (url) => void (value = await prepare(url, name)), this.stop.signal);
    } catch (error) {
      this.stock.delete(name); // the provider removes a create that failed
      throw error;
    }
    if (this.stop.signal.aborted || (await this.ports.generation(slot.parent)) !== generation) {
      void this.retire(name);
      return false;
    }
    slot.ready.push({ name, generation, connections: await this.ports.connections(name), value });
    return true;
  }

  private retire(name: string): Promise<void> {
    const removal: Promise<void> = this.ports
      .remove(name)
      .catch(() => undefined)
      .finally(() => {
        this.removing.delete(removal);
        this.stock.delete(name);
      });
    this.removing.add(removal);
    return removal;
  }
}

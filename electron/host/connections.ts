/**
 * Who holds the browser host's WebSocket connections, and who makes room when it is full. A client
 * is a token: the owner's (the URL `baton serve` prints) or a person's (`--person NAME`, one URL
 * each). A client that can prove only a token can mint any other identity, so the token is the
 * unit of fairness:
 * - one client holds at most `perClient` connections: past that, its own longest-idle connection
 *   is closed for its new one (its own tab reconnects when used), never another client's;
 * - when the host is full, a client holding fewer connections than the biggest holder takes the
 *   biggest holder's longest-idle connection, however recently used: one token's tabs can never
 *   lock another token out;
 * - otherwise the longest-idle connection of all makes room once idle for `evictIdleMs`, else the
 *   new connection is refused (503).
 * Pure bookkeeping: the caller closes what it is told to close.
 */
export interface Admission<C> {
  /** Connections to close (with EVICTED_CLOSE) before the new one is accepted. */
  readonly evict: readonly C[];
  /** Why they give way: the client's own (at its limit), the biggest holder's (fairness), or the longest idle of all. */
  readonly because: 'own' | 'fair' | 'idle' | null;
  /** Why the new connection is refused, or null when it is accepted. */
  readonly refused: string | null;
}

interface Held {
  readonly client: string;
  at: number;
}

export class ConnectionBook<C> {
  private readonly held = new Map<C, Held>();

  constructor(
    private readonly limits: { readonly total: number; readonly perClient: number; readonly evictIdleMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** What must give way for `client`'s new connection, or why it cannot have one. */
  admit(client: string): Admission<C> {
    const mine = this.of(client);
    if (mine.length >= this.limits.perClient) return { evict: [this.idlest(mine)!], because: 'own', refused: null };
    if (this.held.size < this.limits.total) return { evict: [], because: null, refused: null };
    const counts = new Map<string, C[]>();
    for (const [conn, h] of this.held) counts.set(h.client, [...(counts.get(h.client) ?? []), conn]);
    const biggest = [...counts.values()].sort((a, b) => b.length - a.length)[0]!;
    if (biggest.length > mine.length + 1) return { evict: [this.idlest(biggest)!], because: 'fair', refused: null };
    const oldest = this.idlest([...this.held.keys()])!;
    if (this.now() - this.held.get(oldest)!.at >= this.limits.evictIdleMs) return { evict: [oldest], because: 'idle', refused: null };
    return {
      evict: [],
      because: null,
      refused: `${this.limits.total} connections are open and each was used in the last ${Math.round(this.limits.evictIdleMs / 1000)} s`,
    };
  }

  add(conn: C, client: string): void {
    this.held.set(conn, { client, at: this.now() });
  }

  /** The connection sent a frame. */
  touch(conn: C): void {
    const h = this.held.get(conn);
    if (h) h.at = this.now();
  }

  remove(conn: C): void {
    this.held.delete(conn);
  }

  /** Connections idle for `idleMs` or more, removed from the book (the caller closes them). */
  takeIdle(idleMs: number): C[] {
    const now = this.now();
    const idle = [...this.held].filter(([, h]) => now - h.at >= idleMs).map(([conn]) => conn);
    for (const conn of idle) this.held.delete(conn);
    return idle;
  }

  private of(client: string): C[] {
    return [...this.held].filter(([, h]) => h.client === client).map(([conn]) => conn);
  }

  private idlest(conns: readonly C[]): C | undefined {
    return [...conns].sort((a, b) => this.held.get(a)!.at - this.held.get(b)!.at)[0];
  }
}

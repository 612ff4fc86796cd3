/**
 * What lanes built at once may do side by side (issue 17). An agent's turn keeps the network (it
 * must reach its model), and the database servers Baton serves listen on loopback: an agent of one
 * lane could otherwise connect to the throwaway database another lane's verdict is being judged on
 * and plant rows in it. So no agent turn runs while another lane's test run is under way, and the
 * reverse. Turns run beside turns. Test runs run beside test runs only when the code under test
 * cannot reach the network (bubblewrap with the network cut, `testNetwork: "cut"`); else one at a time.
 *
 * Admission is first come, first served by kind: a waiting entrant of the other kind stops new
 * entrants of the kind inside, so neither kind starves the other.
 */
export type GateKind = 'turn' | 'run';

interface Waiting {
  readonly kind: GateKind;
  readonly admit: () => void;
}

export class LaneGate {
  private inside: GateKind | null = null;
  private count = 0;
  private readonly queue: Waiting[] = [];

  /** `runsShareable`: test runs cannot reach the network, so several may run at once. */
  constructor(private readonly runsShareable: boolean) {}

  turn<T>(work: () => Promise<T>): Promise<T> {
    return this.hold('turn', work);
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return this.hold('run', work);
  }

  private joins(kind: GateKind): boolean {
    return this.count === 0 || (this.inside === kind && (kind === 'turn' || this.runsShareable));
  }

  private async hold<T>(kind: GateKind, work: () => Promise<T>): Promise<T> {
    if (this.queue.length > 0 || !this.joins(kind)) await new Promise<void>((admit) => this.queue.push({ kind, admit }));
    else this.enter(kind);
    try {
      return await work();
    } finally {
      this.count -= 1;
      this.next();
    }
  }

  private enter(kind: GateKind): void {
    this.inside = kind;
    this.count += 1;
  }

  private next(): void {
    if (this.count === 0) this.inside = null;
    while (this.queue.length > 0 && this.joins(this.queue[0]!.kind)) {
      const waiting = this.queue.shift()!;
      this.enter(waiting.kind);
      waiting.admit();
    }
  }
}

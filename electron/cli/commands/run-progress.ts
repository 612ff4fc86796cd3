/**
 * Where a run is in its items, for the lines `baton run` and `baton demo` print: "item 3 of 8,
 * about 40 s left". The time left is a guess from the items this run finished (their average,
 * lanes included, times the items still to finish), said only once one has finished. Pure: the
 * clock is passed in.
 */
import type { TestItem } from '../../../shared/model';
import type { RunEvent } from '../../../shared/run';
import { FINAL_CYCLE_STATES } from '../../../shared/run-view';

/** Statuses an item keeps when a run starts: it was built by an earlier run. */
const BUILT = new Set(['green', 'refactored', 'escalated', 'skipped']);

export class RunProgress {
  private total: number | null = null;
  private builtBefore = 0;
  private readonly seen = new Set<string>();
  private readonly finished = new Set<string>();
  private startedAt: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** The feature's test list as the run starts (none yet, before its design: the items are numbered only). */
  items(list: readonly Pick<TestItem, 'status'>[]): void {
    if (list.length === 0) return;
    this.total = list.length;
    this.builtBefore = list.filter((i) => BUILT.has(i.status)).length;
  }

  /** What to add to an item's line: where it stands on its first state in this run, null after. */
  note(e: RunEvent): string | null {
    if (e.kind !== 'cycle.state') return null;
    if (FINAL_CYCLE_STATES.has(e.state)) {
      this.finished.add(e.item);
      return null;
    }
    if (this.seen.has(e.item)) return null;
    this.seen.add(e.item);
    this.startedAt ??= this.now();
    const at = Math.min(this.builtBefore + this.seen.size, this.total ?? Infinity);
    const where = this.total === null ? `item ${at}` : `item ${at} of ${this.total}`;
    const done = this.finished.size;
    if (this.total === null || done === 0) return where;
    const left = Math.max(0, this.total - this.builtBefore - done);
    return `${where}, about ${duration(((this.now() - this.startedAt) / done) * left)} left`;
  }
}

/** "40 s", "3 min": a guess, said as one. */
function duration(ms: number): string {
  const s = ms / 1000;
  if (s < 90) return `${Math.max(5, Math.round(s / 5) * 5)} s`;
  return `${Math.round(s / 60)} min`;
}

/** A stopwatch of named laps: where a piece of work spends its wall time (bench:testrun prints them). */
export interface Laps {
  /** Ends the current lap under `name` (a name used twice adds up). */
  lap(name: string): void;
  /** Every lap so far, in milliseconds, in the order first seen. */
  readonly totals: Readonly<Record<string, number>>;
}

export function laps(now: () => number = () => performance.now()): Laps {
  let last = now();
  const totals: Record<string, number> = {};
  return {
    lap(name) {
      const at = now();
      totals[name] = (totals[name] ?? 0) + (at - last);
      last = at;
    },
    get totals() {
      return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Math.round(v)]));
    },
  };
}

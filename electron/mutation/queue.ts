/**
 * Mutation testing beside the build (issue 30): each item's GREEN is queued as it lands and its
 * mutants run one item at a time in the background while the next items' cycles go on, so it never
 * delays a cycle; the build waits for the queue before the acceptance gate opens (`drain`), and a
 * resumed run finds every GREEN of the feature still without its record and runs it then. Then each
 * weak item gets its strengthening round (strengthen.ts), once.
 */
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import type { CycleDeps } from '../engine/cycle-deps';
import { mutateItem, mutationEnabled } from './mutate-item';
import { needsStrengthening, strengthenItem, strengtheningEnabled } from './strengthen';

type Greened = TypedRecord<typeof RECORD_TYPES.cycleGreened>;

export interface MutationQueue {
  /** Queues the mutation of a GREEN just recorded, with the deps of the lane that built it. */
  after(deps: CycleDeps, greened: Greened): void;
  /** Queues every GREEN of the feature not yet mutated (each item's newest), then waits for all; throws the first failure. */
  drain(deps: CycleDeps): Promise<void>;
  /** Waits for whatever is running, failures ignored: before the run closes the databases it uses. */
  settle(): Promise<void>;
}

export function mutationQueue(): MutationQueue {
  let chain: Promise<void> = Promise.resolve();
  const queued = new Set<string>();
  const failures: unknown[] = [];
  const enqueue = (deps: CycleDeps, greened: Greened) => {
    if (!mutationEnabled(deps) || queued.has(greened.hash)) return;
    queued.add(greened.hash);
    chain = chain
      .then(() => (deps.signal?.aborted ? undefined : mutateItem(deps, greened)))
      .then(
        () => undefined,
        (error: unknown) => void failures.push(error),
      );
  };
  return {
    after: enqueue,
    async drain(deps) {
      const records = (await deps.ledger.read()).records.filter((r) => r.subject.feature === deps.feature);
      const newest = new Map<string, Greened>();
      for (const r of recordsOf(records, RECORD_TYPES.cycleGreened)) newest.set(r.subject.item ?? '', r);
      for (const greened of newest.values()) enqueue(deps, greened);
      await chain;
      if (failures.length) throw failures[0];
      // Weak items get their strengthening round now, one at a time: every GREEN's score is known.
      if (!mutationEnabled(deps) || !strengtheningEnabled(deps)) return;
      const now = (await deps.ledger.read()).records.filter((r) => r.subject.feature === deps.feature);
      for (const greened of newest.values()) {
        deps.signal?.throwIfAborted();
        const mine = recordsOf(now, RECORD_TYPES.cycleMutated).filter((r) => r.subject.item === greened.subject.item && r.data.commit === greened.data.commit);
        const round = mine.find((r) => r.data.key === `strengthened:${greened.data.commit}`);
        if (round) await strengthenItem(deps, greened, round);
        else if (needsStrengthening(mine.at(-1))) await strengthenItem(deps, greened, mine.at(-1)!);
      }
    },
    settle: () => chain,
  };
}

/**
 * One definition of what a cycle's counts mean, folded from its ledger records. Every view that
 * shows a repair, a violation, a rejected RED or a refactor (board cards, the Live run, the Inbox's
 * evidence, escalations, `baton status`, `baton gates`) shows these, so one fact has one number:
 * - repairs: GREEN attempts after a cycle's first, each one the Driver sent back by a failing run
 *   (so a cycle that spent a budget of 3 and escalated counts 3, one that went GREEN at once 0);
 * - violations: turns that changed locked files, caught and reverted (`cycle.violation`, any step);
 * - rejectedRed: Navigator tests the orchestrator did not accept as a RED;
 * - refactors: refactor rounds run (`cycle.refactored`, kept or reverted).
 * The cycle machine keeps its own budget (a violation also uses a repair round); that budget decides
 * what runs next and is never shown as a count. Pure.
 */
import type { LedgerRecord } from './ledger';
import type { CycleRun, TestItem } from './model';
import { RECORD_TYPES, recordsOf } from './records';

export interface CycleCounts {
  readonly repairs: number;
  readonly violations: number;
  readonly rejectedRed: number;
  readonly refactors: number;
}

export const NO_COUNTS: CycleCounts = { repairs: 0, violations: 0, rejectedRed: 0, refactors: 0 };

/** The counts of the given records: one cycle's, one item's (all its rounds) or a story's. */
export function countRecords(records: readonly LedgerRecord[]): CycleCounts {
  return {
    repairs: repairsOf(records),
    violations: recordsOf(records, RECORD_TYPES.cycleViolation).length,
    rejectedRed: recordsOf(records, RECORD_TYPES.cycleRed).filter((r) => r.data.verdict !== 'red').length,
    refactors: recordsOf(records, RECORD_TYPES.cycleRefactored).length,
  };
}

/** Per cycle (an item's rounds are cycles of their own), its GREEN attempts after the first. */
function repairsOf(records: readonly LedgerRecord[]): number {
  const attempts = new Map<string, Set<number>>();
  for (const r of recordsOf(records, RECORD_TYPES.cycleGreen)) {
    const cycle = r.subject.cycle ?? '';
    const seen = attempts.get(cycle) ?? new Set<number>();
    seen.add(r.data.attempt);
    attempts.set(cycle, seen);
  }
  let repairs = 0;
  for (const seen of attempts.values()) repairs += seen.size - 1;
  return repairs;
}

export const addCounts = (a: CycleCounts, b: CycleCounts): CycleCounts => ({
  repairs: a.repairs + b.repairs,
  violations: a.violations + b.violations,
  rejectedRed: a.rejectedRed + b.rejectedRed,
  refactors: a.refactors + b.refactors,
});

/**
 * An item's counts over all its rounds, from its feature's cycles; null when none of them records
 * counts (a foreign project's cycle files keep none: never a made-up zero).
 */
export function itemCounts(cycles: readonly Pick<CycleRun, 'items' | 'counts'>[], item: Pick<TestItem, 'id'>): CycleCounts | null {
  let total: CycleCounts | null = null;
  for (const cycle of cycles) {
    if (!cycle.counts || !cycle.items.includes(item.id)) continue;
    total = addCounts(total ?? NO_COUNTS, cycle.counts);
  }
  return total;
}

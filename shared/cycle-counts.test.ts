/** The one definition of a cycle's counts: what each counts, what it leaves out, and an item's total over its rounds. */
import { describe, expect, it } from 'vitest';
import { addCounts, countRecords, itemCounts, NO_COUNTS } from './cycle-counts';
import type { LedgerRecord } from './ledger';
import { RECORD_TYPES, type RecordData, type RecordType } from './records';
import { sampleData } from './records.fixture';

let seq = 0;
const record = <T extends RecordType>(type: T, fields: Partial<RecordData<T>> = {}, cycle = 'F-1/T1'): LedgerRecord => ({
  seq: ++seq,
  at: '2026-01-01T00:00:00.000Z',
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: { feature: 'F-1', item: 'T1', cycle },
  data: sampleData(type, fields) as Readonly<Record<string, unknown>>,
  blobs: [],
  prev: '0'.repeat(64),
  hash: String(seq).padStart(64, '0'),
});

describe('a cycle’s counts', () => {
  it('counts GREEN attempts after the first as repairs, violation records, non-RED verdicts and refactor rounds', () => {
    const records = [
      record(RECORD_TYPES.cycleRed, { verdict: 'passed-at-once' }),
      record(RECORD_TYPES.cycleRed, { verdict: 'red' }),
      record(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt: 1 }),
      record(RECORD_TYPES.cycleViolation, { step: 'green' }),
      record(RECORD_TYPES.cycleViolation, { step: 'refactor' }),
      record(RECORD_TYPES.cycleGreen, { verdict: 'green', attempt: 2 }),
      record(RECORD_TYPES.cycleRefactored, { verdict: 'reverted' }),
      record(RECORD_TYPES.cycleRefactored, { verdict: 'kept' }),
      record(RECORD_TYPES.cycleFinished, { status: 'done', repairs: 2, violations: 3 }),
    ];
    // The finished record's own figures are the machine's budget (a violation used a repair round): not counted.
    expect(countRecords(records)).toEqual({ repairs: 1, violations: 2, rejectedRed: 1, refactors: 2 });
    expect(countRecords([])).toEqual(NO_COUNTS);
  });

  it('a GREEN that passed with a violation is a violation, not a repair', () => {
    const records = [record(RECORD_TYPES.cycleViolation), record(RECORD_TYPES.cycleGreen, { verdict: 'green' })];
    expect(countRecords(records)).toMatchObject({ repairs: 0, violations: 1 });
  });

  it('a cycle that spent a budget of 3 and escalated counts 3 repairs (4 attempts); each round counts its own', () => {
    const spent = [1, 2, 3, 4].map((attempt) => record(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt }));
    expect(countRecords(spent).repairs).toBe(3);
    // A record written twice for one attempt (a resumed run finds it) is one attempt.
    expect(countRecords([...spent, record(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt: 4 })]).repairs).toBe(3);
    const round2 = [1, 2].map((attempt) => record(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt }, 'F-1/T1#2'));
    expect(countRecords([...spent, ...round2]).repairs).toBe(4);
  });
});

describe('an item’s counts', () => {
  it('adds its rounds and nothing of other items; null when no cycle records counts', () => {
    const one = { repairs: 1, violations: 0, rejectedRed: 1, refactors: 1 };
    const two = { repairs: 2, violations: 1, rejectedRed: 0, refactors: 0 };
    const cycles = [
      { items: ['T1'], counts: one },
      { items: ['T2'], counts: two },
      { items: ['T1'], counts: two },
    ];
    expect(itemCounts(cycles, { id: 'T1' })).toEqual(addCounts(one, two));
    expect(itemCounts(cycles, { id: 'T2' })).toEqual(two);
    expect(itemCounts(cycles, { id: 'T3' })).toBeNull();
    expect(itemCounts([{ items: ['T1'], counts: null }], { id: 'T1' })).toBeNull();
  });
});

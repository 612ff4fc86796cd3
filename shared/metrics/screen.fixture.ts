/**
 * A small ledger for the Metrics screen's tests (shared/metrics/screen.test.ts and the renderer's
 * chart-data.test.ts): story S-1 with T1 (done first time, with agent usage, accepted) and T2 (a
 * repair and a violation, escalated), story S-2 with T3 (never ran), two gate decisions.
 */
import type { Actor, LedgerRecord } from '../ledger';
import type { FeatureOutline } from '../metrics';
import { RECORD_TYPES } from '../records';
import { recordMaker } from '../records.fixture';

const ADA: Actor = { kind: 'person', id: 'Ada Lovelace <ada@example.com>' };
const DRIVER: Actor = { kind: 'agent', id: 'driver:scripted' };

export function screenLedger(): { records: LedgerRecord[]; feature: FeatureOutline } {
  const record = recordMaker();
  const T1 = { story: 'S-1', item: 'T1', cycle: 'F-1/T1' };
  const T2 = { story: 'S-1', item: 'T2', cycle: 'F-1/T2' };
  const agent = { host: 'claude-code', model: 'sonnet', inputTokens: 1000, outputTokens: 200, costUsd: 0.02 };
  const records = [
    record(RECORD_TYPES.gateApproved, 0, { gate: 'test_list' }, { gate: 'test_list', waitedMs: 5000, viewedMs: 4000 }, ADA), // 1
    record(RECORD_TYPES.cyclePlanned, 10, T1), // 2
    record(RECORD_TYPES.cycleRed, 20, T1, { turnMs: 4000, testRunMs: 3000, agent }), // 3
    record(RECORD_TYPES.cycleGreen, 40, T1, { attempt: 1, verdict: 'green', turnMs: 9000, testRunMs: 2000, agent }), // 4
    record(RECORD_TYPES.cycleFinished, 50, T1, { status: 'done' }), // 5
    record(RECORD_TYPES.cyclePlanned, 60, T2), // 6
    record(RECORD_TYPES.cycleGreen, 70, T2, { attempt: 1, verdict: 'failing', turnMs: 1000, testRunMs: 1000 }), // 7
    record(RECORD_TYPES.cycleViolation, 75, T2, { step: 'green', against: 'the lock' }, DRIVER), // 8
    record(RECORD_TYPES.cycleGreen, 80, T2, { attempt: 2, verdict: 'failing', turnMs: 1000, testRunMs: 1000 }), // 9
    record(RECORD_TYPES.cycleFinished, 81, T2, { status: 'escalated', reason: 'the repair budget is spent' }), // 10
    record(RECORD_TYPES.gateApproved, 90, { story: 'S-1', gate: 'acceptance' }, { gate: 'acceptance' }, ADA), // 11
  ];
  const feature: FeatureOutline = {
    id: 'F-1',
    testList: [
      { id: 'T1', storyId: 'S-1' },
      { id: 'T2', storyId: 'S-1' },
      { id: 'T3', storyId: 'S-2' },
    ],
  };
  return { records, feature };
}

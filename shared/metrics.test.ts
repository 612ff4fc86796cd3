/**
 * The outcome metrics against a ledger built by hand, every figure counted here from the
 * timestamps and fields chosen below: T1 passes first time (RED, GREEN, a refactor, a review,
 * mutation), T2 needs a repair, breaks the lock once, has a RED rejected, escalates and is retried
 * in a second round, T3 never ran (every figure null, none a zero).
 */
import { describe, expect, it } from 'vitest';
import type { Actor, LedgerRecord } from './ledger';
import { featureMetrics, projectMetrics, type FeatureOutline } from './metrics';
import { RECORD_TYPES } from './records';
import { recordMaker } from './records.fixture';

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const ADA: Actor = { kind: 'person', id: 'Ada Lovelace <ada@example.com>' };
const DRIVER: Actor = { kind: 'agent', id: 'driver:scripted' };

const record = recordMaker();

const T1 = { story: 'S-1', item: 'T1', cycle: 'F-1/T1' };
const T2 = { story: 'S-1', item: 'T2', cycle: 'F-1/T2' };
const T2R2 = { story: 'S-1', item: 'T2', cycle: 'F-1/T2#2' };
const sonnet = (inputTokens: number, outputTokens: number, costUsd: number) => ({ host: 'claude-code', model: 'sonnet', inputTokens, outputTokens, costUsd });
const FINISHED_DONE = { status: 'done' } as const;

const LEDGER: LedgerRecord[] = [
  // T1, one round: RED 0→11 s, GREEN 11→33 s, item.status (no step) 33→34 s, REFACTOR 34→50 s, REVIEW 50→60 s, done at 61 s.
  record(RECORD_TYPES.cyclePlanned, 0, T1),
  record(RECORD_TYPES.cycleRed, 10, T1, { turnMs: 4000, testRunMs: 3000, agent: sonnet(1000, 200, 0.01) }),
  record(RECORD_TYPES.cycleLocked, 11, T1),
  record(RECORD_TYPES.cycleGreen, 31, T1, { attempt: 1, verdict: 'green', turnMs: 12_000, runMs: 2000, testRunMs: 5000, agent: sonnet(3000, 800, 0.05) }),
  record(RECORD_TYPES.cycleGreened, 33, T1),
  record(RECORD_TYPES.itemStatus, 34, T1, { item: 'T1', status: 'green' }),
  // No testRunMs on this record: its runMs counts.
  record(RECORD_TYPES.cycleRefactored, 50, T1, { verdict: 'kept', turnMs: 9000, runMs: 4000 }),
  record(RECORD_TYPES.cycleReviewed, 60, T1, { turnMs: 7000, agent: { host: 'codex', model: null, inputTokens: 500, outputTokens: null, costUsd: null } }),
  record(RECORD_TYPES.cycleFinished, 61, T1, FINISHED_DONE),
  record(RECORD_TYPES.cycleMutated, 62, T1, { score: 0.75, killed: 3, tested: 4 }),
  // T2, round 1: a rejected RED, a failing GREEN, a violation, a second failing GREEN, escalated; Ada retries 69 s later.
  record(RECORD_TYPES.cyclePlanned, 100, T2),
  record(RECORD_TYPES.cycleRed, 105, T2, { verdict: 'passed-at-once', turnMs: 2000, testRunMs: 1000 }),
  record(RECORD_TYPES.cycleRed, 110, T2, { turnMs: 2000, testRunMs: 1000 }),
  record(RECORD_TYPES.cycleLocked, 111, T2),
  record(RECORD_TYPES.cycleGreen, 120, T2, { attempt: 1, verdict: 'failing', turnMs: 5000, testRunMs: 2000 }),
  record(RECORD_TYPES.cycleViolation, 125, T2, { step: 'green', against: 'the lock' }, DRIVER),
  record(RECORD_TYPES.cycleGreen, 130, T2, { attempt: 2, verdict: 'failing', turnMs: 4000, testRunMs: 2000 }),
  record(RECORD_TYPES.cycleFinished, 131, T2, { status: 'escalated', reason: 'the repair budget is spent' }),
  record(RECORD_TYPES.escalationDecided, 200, T2, { decision: 'retry', round: 1 }, ADA),
  // T2, round 2: RED 210→221 s, GREEN 221→241 s, done at 245 s.
  record(RECORD_TYPES.cyclePlanned, 210, T2R2),
  record(RECORD_TYPES.cycleRed, 220, T2R2, { turnMs: 3000, testRunMs: 1000 }),
  record(RECORD_TYPES.cycleLocked, 221, T2R2),
  record(RECORD_TYPES.cycleGreen, 240, T2R2, { attempt: 1, verdict: 'green', turnMs: 6000, testRunMs: 3000 }),
  record(RECORD_TYPES.cycleGreened, 241, T2R2),
  record(RECORD_TYPES.cycleFinished, 245, T2R2, FINISHED_DONE),
  // Gates: the spec from the Inbox (timed), S-1's acceptance rejected then approved, the test list from the CLI (no timing).
  record(RECORD_TYPES.gateApproved, 300, { gate: 'spec' }, { gate: 'spec', waitedMs: 60_000, viewedMs: 20_000 }, ADA),
  record(RECORD_TYPES.gateApproved, 301, { gate: 'test_list' }, { gate: 'test_list' }, ADA),
  record(RECORD_TYPES.gateRejected, 302, { gate: 'acceptance', story: 'S-1' }, { gate: 'acceptance', waitedMs: 3000 }, ADA),
  record(RECORD_TYPES.gateApproved, 303, { gate: 'acceptance', story: 'S-1' }, { gate: 'acceptance', waitedMs: 5000, viewedMs: 4000 }, ADA),
  // Another feature's item of the same name: none of it counts for F-1.
  record(RECORD_TYPES.cycleGreen, 400, { feature: 'F-2', item: 'T1', cycle: 'F-2/T1' }, { turnMs: 99_999, agent: sonnet(9, 9, 9) }),
];

const F1: FeatureOutline = {
  id: 'F-1',
  testList: [
    { id: 'T1', storyId: 'S-1' },
    { id: 'T2', storyId: 'S-1' },
    { id: 'T3', storyId: 'S-2', status: 'pending' },
  ],
};

const metrics = featureMetrics(LEDGER, F1);
const item = (id: string) => metrics.items.find((i) => i.item === id)!;

describe('an item’s metrics', () => {
  it('T1: cycle time, time per step, agent and test-run time, first-pass GREEN, counts, mutation', () => {
    const t1 = item('T1');
    expect(t1).toMatchObject({ story: 'S-1', status: 'green', rounds: 1, cycleTimeMs: 61_000, firstPassGreen: true });
    expect(t1.stepMs).toEqual({ red: 11_000, green: 22_000, refactor: 16_000, review: 10_000 });
    expect(t1.agentMs).toBe(4000 + 12_000 + 9000 + 7000);
    // testRunMs where recorded (RED 3 s, GREEN 5 s, not its runMs), runMs on the refactor without it (4 s); a review runs nothing.
    expect(t1.testRunMs).toBe(3000 + 5000 + 4000);
    expect(t1.counts).toEqual({ repairs: 0, violations: 0, rejectedRed: 0, refactors: 1 });
    expect(t1.escalations).toEqual([]);
    expect(t1.mutation).toEqual({ score: 0.75, killed: 3, tested: 4, survived: 1 });
  });

  it('T1: tokens and cost as the agents reported them, by role and by host and model; the unreported stays null', () => {
    const t1 = item('T1');
    expect(t1.usage).toMatchObject({ turns: 4, reported: 3, inputTokens: 4500, outputTokens: 1000 });
    expect(t1.usage.costUsd).toBeCloseTo(0.06);
    expect(t1.usageByRole.navigator).toEqual({ turns: 2, reported: 2, inputTokens: 1500, outputTokens: 200, costUsd: 0.01 });
    expect(t1.usageByRole.driver).toEqual({ turns: 2, reported: 1, inputTokens: 3000, outputTokens: 800, costUsd: 0.05 });
    expect(t1.usageByAgent['codex/unknown model']).toEqual({ turns: 1, reported: 1, inputTokens: 500, outputTokens: null, costUsd: null });
    expect(t1.usageByAgent['claude-code/sonnet']).toMatchObject({ turns: 2, inputTokens: 4000, outputTokens: 1000 });
  });

  it('T2: two rounds, a repair, a violation by step and kind, a rejected RED, an escalation decided retry', () => {
    const t2 = item('T2');
    expect(t2).toMatchObject({ rounds: 2, cycleTimeMs: 145_000, firstPassGreen: false, status: null, mutation: null });
    // Round 1: RED 5+5+1, GREEN 9+5 (the violation, at GREEN)+5; round 2: RED 10+1, GREEN 19+1. The escalation's wait is in no step.
    expect(t2.stepMs).toEqual({ red: 11_000 + 11_000, green: 19_000 + 20_000, refactor: null, review: null });
    expect(t2.agentMs).toBe(2000 + 2000 + 5000 + 4000 + 3000 + 6000);
    expect(t2.testRunMs).toBe(1000 + 1000 + 2000 + 2000 + 1000 + 3000);
    expect(t2.counts).toEqual({ repairs: 1, violations: 1, rejectedRed: 1, refactors: 0 });
    expect(t2.violationsByStep).toEqual({ green: 1 });
    expect(t2.violationsByKind).toEqual({ 'the lock': 1 });
    expect(t2.escalations).toEqual([
      {
        cycle: 'F-1/T2',
        at: new Date(T0 + 131_000).toISOString(),
        reason: 'the repair budget is spent',
        decision: 'retry',
        decidedBy: ADA.id,
        waitedMs: 69_000,
      },
    ]);
    // The scripted agent reports no usage: six turns, no tokens, no cost — null, not zero.
    expect(t2.usage).toEqual({ turns: 6, reported: 0, inputTokens: null, outputTokens: null, costUsd: null });
  });

  it('T3 never ran: every figure is null, none a made-up zero', () => {
    // Its status is the project view's (given with the test list), not a record's.
    expect(item('T3')).toMatchObject({
      story: 'S-2',
      status: 'pending',
      rounds: 0,
      cycleTimeMs: null,
      stepMs: { red: null, green: null, refactor: null, review: null },
      agentMs: null,
      testRunMs: null,
      firstPassGreen: null,
      counts: null,
      mutation: null,
      usage: { turns: 0, reported: 0, inputTokens: null, outputTokens: null, costUsd: null },
    });
  });
});

describe('a story’s and a feature’s metrics', () => {
  it('adds a story’s items up: plan of the first to done of the last, first-pass rate, accepted', () => {
    const s1 = metrics.stories.find((s) => s.story === 'S-1')!;
    expect(s1).toMatchObject({ accepted: true, items: 2, done: 2, cycleTimeMs: 245_000, agentMs: 54_000, testRunMs: 22_000, firstPassGreenRate: 0.5 });
    expect(s1.counts).toEqual({ repairs: 1, violations: 1, rejectedRed: 1, refactors: 1 });
    expect(s1.escalations).toEqual({ retry: 1 });
    expect(metrics.stories.find((s) => s.story === 'S-2')).toMatchObject({
      accepted: false,
      items: 1,
      done: 0,
      cycleTimeMs: null,
      agentMs: null,
      counts: null,
    });
  });

  it('a feature with an item not done has no cycle time; its other figures add up what is recorded', () => {
    expect(metrics.totals).toMatchObject({ items: 3, done: 2, cycleTimeMs: null, agentMs: 54_000, testRunMs: 22_000, firstPassGreenRate: 0.5 });
    expect(metrics.totals.usage).toMatchObject({ turns: 10, reported: 3, inputTokens: 4500, outputTokens: 1000 });
    // The Driver's turns: T1's GREEN and refactor, T2's three GREEN attempts; only T1's GREEN reported usage.
    expect(metrics.totals.usageByRole.driver).toMatchObject({ turns: 5, reported: 1, inputTokens: 3000 });
  });

  it('each gate’s decisions with their wait and attention; a decision that recorded none is null', () => {
    expect(metrics.gates.map((g) => [g.gate, g.story, g.decision, g.waitedMs, g.viewedMs])).toEqual([
      ['spec', null, 'approved', 60_000, 20_000],
      ['test_list', null, 'approved', null, null],
      ['acceptance', 'S-1', 'rejected', 3000, null],
      ['acceptance', 'S-1', 'approved', 5000, 4000],
    ]);
    expect(metrics.gateLatency).toEqual([
      { gate: 'spec', decisions: 1, meanWaitedMs: 60_000, maxWaitedMs: 60_000, meanViewedMs: 20_000 },
      { gate: 'test_list', decisions: 1, meanWaitedMs: null, maxWaitedMs: null, meanViewedMs: null },
      { gate: 'acceptance', decisions: 2, meanWaitedMs: 4000, maxWaitedMs: 5000, meanViewedMs: 4000 },
    ]);
  });

  it('interventions: every record a person made, by type; waiting for a person: the gates’ recorded waits and the decided escalation’s', () => {
    expect(metrics.interventions).toEqual({
      total: 5,
      byType: { [RECORD_TYPES.escalationDecided]: 1, [RECORD_TYPES.gateApproved]: 3, [RECORD_TYPES.gateRejected]: 1 },
    });
    // 60 s + 3 s + 5 s at the gates (the test_list approval recorded no wait), 69 s for T2's escalation.
    expect(metrics.waitingForPersonMs).toBe(60_000 + 3000 + 5000 + 69_000);
    expect(featureMetrics([], F1)).toMatchObject({ interventions: { total: 0, byType: {} }, waitingForPersonMs: null });
  });

  it('keeps each feature to its own records; an empty ledger gives nulls', () => {
    const project = projectMetrics(LEDGER, [F1, { id: 'F-2', testList: [{ id: 'T1', storyId: null }] }]);
    expect(project.features[1]!.items[0]).toMatchObject({ item: 'T1', agentMs: 99_999, cycleTimeMs: null, rounds: 0 });
    expect(project.totals.agentMs).toBe(54_000 + 99_999);
    const empty = featureMetrics([], F1);
    expect(empty.totals).toMatchObject({ items: 3, done: 0, cycleTimeMs: null, agentMs: null, firstPassGreenRate: null, counts: null });
    expect(empty.gateLatency).toEqual([]);
  });
});

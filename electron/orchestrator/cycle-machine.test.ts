import { getSimplePaths } from '@xstate/graph';
import { createActor, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import { cycleMachine, RED_ATTEMPTS, REFACTOR_ROUNDS } from './cycle-machine';
import type { CycleOutput, GreenOutcome, RedOutcome, RefactorOutcome, ReviewOutcome, StepInput } from './cycle-types';

const input = { feature: 'F1', story: 'S1', item: 'T1', repairBudget: 2 };
const done = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });

const RED: RedOutcome[] = [
  { verdict: 'red', record: 'r' },
  { verdict: 'passed-at-once', record: 'r', detail: 'T1 passed' },
  { verdict: 'load-error', record: 'r', detail: 'SyntaxError' },
];
const GREEN: GreenOutcome[] = [
  { verdict: 'green', violations: 0, record: 'g', failure: null },
  { verdict: 'green', violations: 1, record: 'g', failure: null },
  { verdict: 'failing', violations: 0, record: 'g', failure: 'expected 3' },
  { verdict: 'failing', violations: 1, record: 'g', failure: 'expected 3' },
];
const REVIEW: ReviewOutcome[] = [
  { decision: 'accept', note: null, record: 'v' },
  { decision: 'refactor', note: 'extract', record: 'v' },
  { decision: 'smell', note: 'long method', record: 'v' },
];
const EVENTS: AnyEventObject[] = [
  done('plan', undefined),
  ...RED.map((o) => done('red', o)),
  done('lock', { record: 'l' }),
  ...GREEN.map((o) => done('green', o)),
  done('refactor', { verdict: 'kept', record: 'f' }),
  done('refactor', { verdict: 'reverted', record: 'f' }),
  ...REVIEW.map((o) => done('review', o)),
];

describe('the cycle machine, every path (model-based)', () => {
  const paths = getSimplePaths(cycleMachine, {
    input,
    events: EVENTS,
    serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]),
  } as never);
  const finals = paths.filter((p) => p.state.status === 'done');

  it('reaches every state, and both endings', () => {
    const seen = new Set(paths.flatMap((p) => p.steps.map((s) => String((s as { state: { value: unknown } }).state.value))));
    expect([...seen].sort()).toEqual(['done', 'escalated', 'green', 'lock', 'plan', 'red', 'refactor', 'review'].sort());
    expect(finals.length).toBeGreaterThan(100);
  });

  it('no path ends done without a GREEN, and none after a second lock violation', () => {
    for (const p of finals) {
      const ctx = p.state.context;
      const greens = p.steps
        .map((s) => s.event)
        .filter((e) => e.type === 'xstate.done.actor.green')
        .map((e) => (e as unknown as { output: GreenOutcome }).output);
      if (p.state.value === 'done') {
        expect(greens.at(-1)?.verdict).toBe('green');
        expect(ctx.violations).toBeLessThan(2);
        expect(ctx.greenRecord).toBe('g');
      }
      expect(ctx.repairs).toBeLessThanOrEqual(input.repairBudget);
      expect(greens.length).toBeLessThanOrEqual(input.repairBudget + 1);
      expect(ctx.refactors).toBeLessThanOrEqual(REFACTOR_ROUNDS);
    }
  });

  it('a Navigator without a RED is sent back once, then escalated', () => {
    const redTurns = (p: (typeof paths)[number]) => p.steps.filter((s) => s.event.type === 'xstate.done.actor.red').length;
    for (const p of finals) expect(redTurns(p)).toBeLessThanOrEqual(RED_ATTEMPTS);
    const twice = finals.filter((p) => p.state.value === 'escalated' && p.state.context.rejectedRed === RED_ATTEMPTS);
    expect(twice.length).toBeGreaterThan(0);
    for (const p of twice) expect(p.state.context.reason).toMatch(/No RED after 2 Navigator turns/);
    // A path through lock always had exactly one RED verdict, the last red event.
    for (const p of finals.filter((p) => p.steps.some((s) => s.state.value === 'lock'))) {
      const reds = p.steps.map((s) => s.event).filter((e) => e.type === 'xstate.done.actor.red');
      expect((reds.at(-1) as unknown as { output: RedOutcome }).output.verdict).toBe('red');
    }
  });

  it('repairs stop at the budget and escalate with the reason', () => {
    const spent = finals.filter((p) => p.state.context.reason?.startsWith('Still failing'));
    expect(spent.length).toBeGreaterThan(0);
    for (const p of spent) expect(p.state.context.failure).toBe('expected 3');
  });
});

/** Fake ports that replay scripted verdicts, to drive a real actor (and to persist and resume it). */
function scripted(red: RedOutcome[], green: GreenOutcome[], review: ReviewOutcome[], calls: string[]) {
  // An empty script never answers: the step is still running when the test stops the actor.
  const take = <T>(list: T[], name: string) =>
    fromPromise<T, StepInput>(({ input }) => {
      calls.push(`${name}#${input.attempt}${input.failure ? `(${input.failure})` : ''}`);
      const next = list.shift();
      return next === undefined ? new Promise<T>(() => undefined) : Promise.resolve(next);
    });
  return cycleMachine.provide({
    actors: {
      plan: fromPromise<void, StepInput>(async () => void calls.push('plan')),
      red: take(red, 'red'),
      lock: fromPromise(async () => (calls.push('lock'), { record: 'l' })),
      green: take(green, 'green'),
      refactor: fromPromise<RefactorOutcome, StepInput>(async ({ input }) => (calls.push(`refactor#${input.attempt}`), { verdict: 'kept', record: 'f' })),
      review: take(review, 'review'),
    },
  });
}

describe('the cycle machine driven by scripted ports', () => {
  it('a step that throws escalates with its message', async () => {
    const machine = scripted([RED[0]!], [], [], []).provide({
      actors: {
        lock: fromPromise<{ record: string }, StepInput>(async () => {
          throw new Error('ledger is locked');
        }),
      },
    });
    const snap = await waitFor(createActor(machine, { input }).start(), (s) => s.status === 'done');
    expect(snap.output).toMatchObject({ status: 'escalated', reason: 'The lock step failed: ledger is locked' });
  });

  it('an attempt refused for code that tells a test run apart is repaired like a failing one, then escalates saying so', async () => {
    const calls: string[] = [];
    const told: GreenOutcome = {
      verdict: 'failing',
      violations: 0,
      record: 'g',
      failure: 'remove it',
      tells: 'The code reads process.execArgv; allow it with baton allow-tells',
    };
    const machine = scripted([RED[0]!], [told, told], [], calls);
    const snap = await waitFor(createActor(machine, { input: { ...input, repairBudget: 1 } }).start(), (s) => s.status === 'done');
    expect(calls).toEqual(['plan', 'red#1', 'lock', 'green#1', 'green#2(remove it)']);
    expect(snap.output).toMatchObject({
      status: 'escalated',
      violations: 0,
      reason: 'Still failing after 1 repair round: The code reads process.execArgv; allow it with baton allow-tells',
    });
  });

  it('a repair round gets the failure output, then GREEN, refactor, accept', async () => {
    const calls: string[] = [];
    const machine = scripted([RED[0]!], [GREEN[2]!, GREEN[0]!], [REVIEW[0]!], calls);
    const actor = createActor(machine, { input }).start();
    const snap = await waitFor(actor, (s) => s.status === 'done');
    expect(calls).toEqual(['plan', 'red#1', 'lock', 'green#1', 'green#2(expected 3)', 'refactor#1', 'review#1']);
    expect(snap.output as CycleOutput).toMatchObject({ status: 'done', repairs: 1, violations: 0, greenRecord: 'g' });
  });

  it('resumes from a persisted snapshot and re-runs the interrupted step', async () => {
    const calls: string[] = [];
    const first = createActor(scripted([RED[1]!, RED[0]!], [], [], calls), { input });
    let persisted: unknown = null;
    first.subscribe((s) => {
      if (s.value === 'lock') persisted = first.getPersistedSnapshot();
    });
    first.start();
    await waitFor(first, (s) => s.value === 'green');
    first.stop(); // the process dies while the Driver works
    expect(persisted).not.toBeNull();
    const again: string[] = [];
    const restored = createActor(scripted([], [GREEN[0]!], [REVIEW[2]!], again), { input, snapshot: JSON.parse(JSON.stringify(persisted)) }).start();
    const snap = await waitFor(restored, (s) => s.status === 'done');
    expect(again[0]).toBe('lock'); // the step in flight runs again
    expect(snap.output as CycleOutput).toMatchObject({ status: 'done', rejectedRed: 1, smell: 'long method' });
  });
});

import { getSimplePaths } from '@xstate/graph';
import { createActor, fromPromise, waitFor, type AnyEventObject } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { GateName } from '../../shared/ledger';
import { lifecycleMachine, type BuildOutcome, type GateDecision, type GateWait, type WorkInput } from './lifecycle-machine';

/** Gates settle only when the test decides, as a Product Owner would from the inbox. */
function harness(build: BuildOutcome[] = [{ escalated: 0 }]) {
  const waiting = new Map<GateName, (d: GateDecision) => void>();
  const calls: string[] = [];
  const step = (name: string) => fromPromise<void, WorkInput>(async ({ input }) => void calls.push(input.feedback ? `${name}(${input.feedback})` : name));
  const machine = lifecycleMachine.provide({
    actors: {
      intake: step('intake'),
      specify: step('specify'),
      design: step('design'),
      listTests: step('listTests'),
      promote: step('promote'),
      build: fromPromise<BuildOutcome, WorkInput>(
        async ({ input }) => (calls.push(input.feedback ? `build(${input.feedback})` : 'build'), build.shift() ?? { escalated: 0 }),
      ),
      awaitGate: fromPromise<GateDecision, GateWait>(({ input }) => new Promise((resolve) => waiting.set(input.gate, resolve))),
    },
  });
  const actor = createActor(machine, { input: { feature: 'F1' } }).start();
  const decide = async (gate: GateName, decision: GateDecision['decision'], reason: string | null = null) => {
    await waitFor(actor, () => waiting.has(gate));
    const resolve = waiting.get(gate)!;
    waiting.delete(gate);
    resolve({ decision, reason });
  };
  return { actor, calls, decide };
}

describe('the feature lifecycle', () => {
  it('waits at every gate until it is approved, and goes back when one is rejected', async () => {
    const { actor, calls, decide } = harness();
    await waitFor(actor, (s) => s.value === 'specGate');
    expect(calls).toEqual(['intake', 'specify']);
    await new Promise((r) => setTimeout(r, 20));
    expect(actor.getSnapshot().value).toBe('specGate'); // nothing moves without a decision
    await decide('spec', 'rejected', 'AC2 is vague');
    await decide('spec', 'approved');
    await decide('design', 'approved');
    await decide('test_list', 'approved');
    await decide('acceptance', 'rejected', 'totals are wrong');
    await decide('acceptance', 'approved');
    await decide('deploy', 'approved');
    // "May promote": nothing is promoted until the promote gate is approved.
    await waitFor(actor, (s) => s.value === 'promoteGate');
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).not.toContain('promote');
    await decide('promote', 'approved');
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('done');
    expect(calls).toEqual(['intake', 'specify', 'specify(AC2 is vague)', 'design', 'listTests', 'build', 'build(totals are wrong)', 'promote']);
  });

  it('escalates when the build escalates, and resumes building on RESUME', async () => {
    const { actor, decide } = harness([{ escalated: 2 }, { escalated: 0 }]);
    for (const gate of ['spec', 'design', 'test_list'] as const) await decide(gate, 'approved');
    await waitFor(actor, (s) => s.value === 'escalated');
    expect(actor.getSnapshot().context.reason).toBe('2 items escalated: see the inbox.');
    actor.send({ type: 'RESUME' });
    await waitFor(actor, (s) => s.value === 'acceptance');
  });

  it('can be abandoned from any working state', async () => {
    const { actor } = harness();
    await waitFor(actor, (s) => s.value === 'specGate');
    actor.send({ type: 'ABANDON', reason: 'out of scope' });
    expect(actor.getSnapshot()).toMatchObject({ value: 'abandoned', status: 'done', context: { reason: 'out of scope' } });
  });

  it('every road to done passes every gate approved (graph)', () => {
    const done = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
    const gates = ['spec', 'design', 'test_list', 'acceptance', 'deploy', 'promote'];
    const paths = getSimplePaths(lifecycleMachine, {
      input: { feature: 'F1' },
      events: [
        ...['intake', 'specify', 'design', 'listTests', 'promote'].map((id) => done(id, undefined)),
        done('build', { escalated: 0 }),
        done('build', { escalated: 1 }),
        ...gates.flatMap((g) => [done(`gate-${g}`, { decision: 'approved', reason: null }), done(`gate-${g}`, { decision: 'rejected', reason: 'no' })]),
        { type: 'RESUME' },
        { type: 'ABANDON', reason: 'x' },
      ],
      serializeState: (s: { value: unknown; context: unknown }) => JSON.stringify([s.value, s.context]),
    } as never);
    const toDone = paths.filter((p) => p.state.value === 'done');
    expect(toDone.length).toBeGreaterThan(0);
    for (const p of toDone) {
      const approved = p.steps
        .map((s) => s.event as { type: string; output?: GateDecision })
        .filter((e) => e.type.startsWith('xstate.done.actor.gate-') && e.output?.decision === 'approved')
        .map((e) => e.type.replace('xstate.done.actor.gate-', ''));
      expect(approved).toEqual(gates);
    }
    expect(paths.some((p) => p.state.value === 'abandoned')).toBe(true);
  });
});

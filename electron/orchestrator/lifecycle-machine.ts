/**
 * A feature's lifecycle: intake → specifying → spec gate → designing → design gate → test listing
 * → test_list gate → building → acceptance → deploy gate → promoting → done, with `abandoned`
 * and `escalated` exits. Gate states wait on the ledger's approval rules through the `awaitGate`
 * port (it settles when the gate is approved or rejected); a rejection sends the work back.
 * The design gate sits between designing and test listing because test_list needs it approved.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { GateName } from '../../shared/ledger';

export interface LifecycleInput {
  readonly feature: string;
}

export interface GateWait {
  readonly feature: string;
  readonly gate: GateName;
}
export interface GateDecision {
  readonly decision: 'approved' | 'rejected';
  readonly reason: string | null;
}
export interface WorkInput {
  readonly feature: string;
  /** Why the work is being redone (a gate's rejection reason), or null the first time. */
  readonly feedback: string | null;
}
export interface BuildOutcome {
  readonly escalated: number;
}

interface LifecycleContext {
  readonly feature: string;
  feedback: string | null;
  reason: string | null;
}

type LifecycleEvent = { type: 'ABANDON'; reason: string } | { type: 'RESUME' };

const unprovided = <T, I>(name: string) =>
  fromPromise<T, I>(async () => {
    throw new Error(`The lifecycle's ${name} step was not provided; start the machine through the engine.`);
  });

export const lifecycleMachine = setup({
  types: { context: {} as LifecycleContext, input: {} as LifecycleInput, events: {} as LifecycleEvent },
  actors: {
    intake: unprovided<void, WorkInput>('intake'),
    specify: unprovided<void, WorkInput>('specify'),
    design: unprovided<void, WorkInput>('design'),
    listTests: unprovided<void, WorkInput>('listTests'),
    build: unprovided<BuildOutcome, WorkInput>('build'),
    promote: unprovided<void, WorkInput>('promote'),
    awaitGate: unprovided<GateDecision, GateWait>('awaitGate'),
  },
  actions: {
    stepFailed: assign({
      reason: ({ event }, params: { step: string }) => {
        const error = (event as { error?: unknown }).error;
        return `The ${params.step} step failed: ${error instanceof Error ? error.message : String(error)}`;
      },
    }),
  },
}).createMachine({
  id: 'lifecycle',
  context: ({ input }) => ({ feature: input.feature, feedback: null, reason: null }),
  initial: 'intake',
  on: { ABANDON: { target: '.abandoned', actions: assign({ reason: ({ event }) => event.reason }) } },
  states: {
    intake: {
      invoke: {
        id: 'intake',
        src: 'intake',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: { target: 'specifying', actions: assign({ feedback: null }) },
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'intake' } } },
      },
    },
    specifying: {
      invoke: {
        id: 'specify',
        src: 'specify',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: { target: 'specGate', actions: assign({ feedback: null }) },
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'specify' } } },
      },
    },
    specGate: {
      invoke: {
        id: 'gate-spec',
        src: 'awaitGate',
        input: ({ context }) => ({ feature: context.feature, gate: 'spec' as const }),
        onDone: [
          { guard: ({ event }) => event.output.decision === 'approved', target: 'designing' },
          { target: 'specifying', actions: assign({ feedback: ({ event }) => event.output.reason ?? 'The spec gate was rejected.' }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'spec gate' } } },
      },
    },
    designing: {
      invoke: {
        id: 'design',
        src: 'design',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: { target: 'designGate', actions: assign({ feedback: null }) },
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'design' } } },
      },
    },
    designGate: {
      invoke: {
        id: 'gate-design',
        src: 'awaitGate',
        input: ({ context }) => ({ feature: context.feature, gate: 'design' as const }),
        onDone: [
          { guard: ({ event }) => event.output.decision === 'approved', target: 'testListing' },
          { target: 'designing', actions: assign({ feedback: ({ event }) => event.output.reason ?? 'The design gate was rejected.' }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'design gate' } } },
      },
    },
    testListing: {
      invoke: {
        id: 'listTests',
        src: 'listTests',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: { target: 'testListGate', actions: assign({ feedback: null }) },
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'listTests' } } },
      },
    },
    testListGate: {
      invoke: {
        id: 'gate-test_list',
        src: 'awaitGate',
        input: ({ context }) => ({ feature: context.feature, gate: 'test_list' as const }),
        onDone: [
          { guard: ({ event }) => event.output.decision === 'approved', target: 'building' },
          { target: 'testListing', actions: assign({ feedback: ({ event }) => event.output.reason ?? 'The test_list gate was rejected.' }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'test_list gate' } } },
      },
    },
    building: {
      invoke: {
        id: 'build',
        src: 'build',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: [
          { guard: ({ event }) => event.output.escalated > 0, target: 'escalated', actions: assign({ reason: ({ event }) => `${event.output.escalated} item${event.output.escalated === 1 ? '' : 's'} escalated: see the inbox.` }) },
          { target: 'acceptance', actions: assign({ feedback: null }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'build' } } },
      },
    },
    acceptance: {
      invoke: {
        id: 'gate-acceptance',
        src: 'awaitGate',
        input: ({ context }) => ({ feature: context.feature, gate: 'acceptance' as const }),
        onDone: [
          { guard: ({ event }) => event.output.decision === 'approved', target: 'deployGate' },
          { target: 'building', actions: assign({ feedback: ({ event }) => event.output.reason ?? 'The acceptance gate was rejected.' }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'acceptance gate' } } },
      },
    },
    deployGate: {
      invoke: {
        id: 'gate-deploy',
        src: 'awaitGate',
        input: ({ context }) => ({ feature: context.feature, gate: 'deploy' as const }),
        onDone: [
          { guard: ({ event }) => event.output.decision === 'approved', target: 'promoting' },
          { target: 'building', actions: assign({ feedback: ({ event }) => event.output.reason ?? 'The deploy gate was rejected.' }) },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'deploy gate' } } },
      },
    },
    promoting: {
      invoke: {
        id: 'promote',
        src: 'promote',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: { target: 'done', actions: assign({ feedback: null }) },
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'promote' } } },
      },
    },
    done: { type: 'final' },
    abandoned: { type: 'final' },
    /** Waits for a person: RESUME goes back to building once the escalations are resolved. */
    escalated: { on: { RESUME: { target: 'building', actions: assign({ reason: null }) } } },
  },
});

export const LIFECYCLE_STATES = ['intake', 'specifying', 'specGate', 'designing', 'designGate', 'testListing', 'testListGate', 'building', 'acceptance', 'deployGate', 'promoting', 'done', 'abandoned', 'escalated'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/**
 * A feature's lifecycle: intake → specifying → spec gate → designing → design gate → test listing
 * → test_list gate → building → acceptance → deploy gate → promote gate → promoting → done, with `abandoned`
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
  /** The work step that escalated (`specify`, `design`, `listTests`, `build`…): where RESUME goes back to. Absent in older snapshots. */
  failedStep?: string | null;
}

type LifecycleEvent = { type: 'ABANDON'; reason: string } | { type: 'RESUME' };

const unprovided = <T, I>(name: string) =>
  fromPromise<T, I>(async () => {
    throw new Error(`The lifecycle's ${name} step was not provided; start the machine through the engine.`);
  });

type Next =
  | 'specifying'
  | 'specGate'
  | 'designing'
  | 'designGate'
  | 'testListing'
  | 'testListGate'
  | 'building'
  | 'acceptance'
  | 'deployGate'
  | 'promoteGate'
  | 'promoting'
  | 'done';

/** A work step: runs its actor with the feature and any feedback, then goes to `next`; a failure escalates. */
const work = <S extends 'intake' | 'specify' | 'design' | 'listTests' | 'promote'>(id: string, src: S, next: Next) => ({
  invoke: {
    id,
    src,
    input: ({ context }: { context: LifecycleContext }) => ({ feature: context.feature, feedback: context.feedback }),
    onDone: { target: next, actions: 'clearFeedback' as const },
    onError: { target: 'escalated' as const, actions: { type: 'stepFailed' as const, params: { step: id } } },
  },
});

/** Every gate state, from one definition: wait for the decision; approved goes on, rejected sends the work back with the reason. */
const gate = (name: GateName, approved: Next, rejected: Next) => ({
  invoke: {
    id: `gate-${name}`,
    src: 'awaitGate' as const,
    input: ({ context }: { context: LifecycleContext }) => ({ feature: context.feature, gate: name }),
    onDone: [
      { guard: 'approved' as const, target: approved },
      { target: rejected, actions: { type: 'gateRejected' as const, params: { gate: name } } },
    ],
    onError: { target: 'escalated' as const, actions: { type: 'stepFailed' as const, params: { step: `${name} gate` } } },
  },
});

/** The persisted snapshot's version: bump it when a state is renamed or removed or the context changes shape. */
export const LIFECYCLE_VERSION = 1;

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
  guards: {
    approved: ({ event }) => (event as unknown as { output: GateDecision }).output.decision === 'approved',
  },
  actions: {
    clearFeedback: assign({ feedback: null }),
    gateRejected: assign({
      feedback: ({ event }, params: { gate: GateName }) =>
        (event as unknown as { output: GateDecision }).output.reason ?? `The ${params.gate} gate was rejected.`,
    }),
    stepFailed: assign({
      failedStep: (_, params: { step: string }) => params.step,
      reason: ({ event }, params: { step: string }) => {
        const error = (event as { error?: unknown }).error;
        return `The ${params.step} step failed: ${error instanceof Error ? error.message : String(error)}`;
      },
    }),
  },
}).createMachine({
  id: 'lifecycle',
  context: ({ input }) => ({ feature: input.feature, feedback: null, reason: null, failedStep: null }),
  initial: 'intake',
  on: { ABANDON: { target: '.abandoned', actions: assign({ reason: ({ event }) => event.reason }) } },
  states: {
    intake: work('intake', 'intake', 'specifying'),
    specifying: work('specify', 'specify', 'specGate'),
    specGate: gate('spec', 'designing', 'specifying'),
    designing: work('design', 'design', 'designGate'),
    designGate: gate('design', 'testListing', 'designing'),
    testListing: work('listTests', 'listTests', 'testListGate'),
    testListGate: gate('test_list', 'building', 'testListing'),
    building: {
      invoke: {
        id: 'build',
        src: 'build',
        input: ({ context }) => ({ feature: context.feature, feedback: context.feedback }),
        onDone: [
          {
            guard: ({ event }) => event.output.escalated > 0,
            target: 'escalated',
            actions: assign({ reason: ({ event }) => `${event.output.escalated} item${event.output.escalated === 1 ? '' : 's'} escalated: see the inbox.` }),
          },
          { target: 'acceptance', actions: 'clearFeedback' },
        ],
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'build' } } },
      },
    },
    acceptance: gate('acceptance', 'deployGate', 'building'),
    deployGate: gate('deploy', 'promoteGate', 'building'),
    // "May promote": nothing moves the tier until a person approves, on the deploy evidence.
    promoteGate: gate('promote', 'promoting', 'building'),
    promoting: work('promote', 'promote', 'done'),
    done: { type: 'final' },
    abandoned: { type: 'final' },
    /** Waits for a person: RESUME goes back to the design step that escalated, else to building once the escalations are resolved. */
    escalated: {
      on: {
        RESUME: [
          { guard: ({ context }) => context.failedStep === 'specify', target: 'specifying', actions: assign({ reason: null, failedStep: null }) },
          { guard: ({ context }) => context.failedStep === 'design', target: 'designing', actions: assign({ reason: null, failedStep: null }) },
          { guard: ({ context }) => context.failedStep === 'listTests', target: 'testListing', actions: assign({ reason: null, failedStep: null }) },
          { target: 'building', actions: assign({ reason: null, failedStep: null }) },
        ],
      },
    },
  },
});

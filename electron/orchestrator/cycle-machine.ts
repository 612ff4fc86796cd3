/**
 * The cycle for one test-list item: plan → red → lock → green → (repair ≤ N) → refactor → review
 * → done, or escalated. Pure: every step is an invoked actor provided at start (see engine), and
 * the machine routes on their verdicts alone. Counters live in the context so a persisted
 * snapshot resumes with the same budgets.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { CycleInput, CycleOutput, GreenOutcome, RedOutcome, RefactorOutcome, ReviewOutcome, StepInput } from './cycle-types';

export interface CycleContext extends CycleInput {
  redAttempts: number;
  rejectedRed: number;
  repairs: number;
  violations: number;
  refactors: number;
  failure: string | null;
  smell: string | null;
  reason: string | null;
  greenRecord: string | null;
  status: 'running' | 'done' | 'escalated';
}

/** A Navigator whose test is not a RED is sent back once; the second miss escalates. */
export const RED_ATTEMPTS = 2;
/** One refactor, plus one more if the review asks for it. */
export const REFACTOR_ROUNDS = 2;
/** A second lock violation in the same cycle escalates. */
export const VIOLATION_LIMIT = 2;

const unprovided = <T>(name: string) =>
  fromPromise<T, StepInput>(async () => {
    throw new Error(`The cycle's ${name} step was not provided; start the machine through the engine.`);
  });

const step = (context: CycleContext, attempt: number): StepInput => ({
  feature: context.feature,
  story: context.story,
  item: context.item,
  repairBudget: context.repairBudget,
  round: context.round ?? 1,
  guidance: context.guidance ?? null,
  amendment: context.amendment ?? null,
  attempt,
  failure: context.failure,
});

/** The persisted snapshot's version: bump it when a state is renamed or removed or the context changes shape. */
export const CYCLE_VERSION = 1;

export const cycleMachine = setup({
  types: {
    context: {} as CycleContext,
    input: {} as CycleInput,
    output: {} as CycleOutput,
  },
  actors: {
    plan: unprovided<void>('plan'),
    red: unprovided<RedOutcome>('red'),
    lock: unprovided<{ record: string }>('lock'),
    green: unprovided<GreenOutcome>('green'),
    refactor: unprovided<RefactorOutcome>('refactor'),
    review: unprovided<ReviewOutcome>('review'),
  },
  actions: {
    /** A step that throws (a database down, a runner that cannot start) escalates with its message: nothing is guessed. */
    stepFailed: assign({
      reason: ({ event }, params: { step: string }) => {
        const error = (event as { error?: unknown }).error;
        return `The ${params.step} step failed: ${error instanceof Error ? error.message : String(error)}`;
      },
    }),
  },
  guards: {
    isRed: (_, out: RedOutcome) => out.verdict === 'red',
    // An amendment's RED is the orchestrator's own, not a turn: trying again would give the same verdict.
    mayRetryRed: ({ context }) => context.redAttempts < RED_ATTEMPTS && !context.amendment,
    mustEscalate: (_, out: GreenOutcome) => typeof out.escalate === 'string' && out.escalate !== '',
    violatedTwice: ({ context }, out: GreenOutcome) => context.violations + out.violations >= VIOLATION_LIMIT,
    violatedWithoutBudget: ({ context }, out: GreenOutcome) => out.violations > 0 && context.repairs >= context.repairBudget,
    isGreen: (_, out: GreenOutcome) => out.verdict === 'green',
    mayRepair: ({ context }, out: GreenOutcome) => context.repairs + (out.violations > 0 ? 1 : 0) < context.repairBudget,
    wantsRefactor: ({ context }, out: ReviewOutcome) => out.decision === 'refactor' && context.refactors < REFACTOR_ROUNDS,
  },
}).createMachine({
  id: 'cycle',
  context: ({ input }) => ({
    ...input,
    redAttempts: 0,
    rejectedRed: 0,
    repairs: 0,
    violations: 0,
    refactors: 0,
    failure: null,
    smell: null,
    reason: null,
    greenRecord: null,
    status: 'running',
  }),
  initial: 'plan',
  states: {
    plan: {
      invoke: {
        id: 'plan',
        src: 'plan',
        input: ({ context }) => step(context, 1),
        onDone: 'red',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'plan' } } },
      },
    },
    red: {
      entry: assign({ redAttempts: ({ context }) => context.redAttempts + 1 }),
      invoke: {
        id: 'red',
        src: 'red',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'red' } } },
        input: ({ context }) => step(context, context.redAttempts),
        onDone: [
          { guard: { type: 'isRed', params: ({ event }) => event.output }, target: 'lock' },
          {
            guard: 'mayRetryRed',
            target: 'red',
            reenter: true,
            actions: assign({ rejectedRed: ({ context }) => context.rejectedRed + 1 }),
          },
          {
            target: 'escalated',
            actions: assign({
              rejectedRed: ({ context }) => context.rejectedRed + 1,
              reason: ({ context, event }) =>
                context.amendment
                  ? `The amended test is not a RED (${event.output.verdict}${'detail' in event.output ? `: ${event.output.detail}` : ''}).`
                  : `No RED after ${RED_ATTEMPTS} Navigator turns (${event.output.verdict}${'detail' in event.output ? `: ${event.output.detail}` : ''}).`,
            }),
          },
        ],
      },
    },
    lock: {
      invoke: {
        id: 'lock',
        src: 'lock',
        input: ({ context }) => step(context, 1),
        onDone: 'green',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'lock' } } },
      },
    },
    green: {
      invoke: {
        id: 'green',
        src: 'green',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'green' } } },
        input: ({ context }) => step(context, context.repairs + 1),
        onDone: [
          {
            // No repair helps a suite that does not give the same result twice: a person decides.
            guard: { type: 'mustEscalate', params: ({ event }) => event.output },
            target: 'escalated',
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              failure: ({ event }) => event.output.failure,
              reason: ({ event }) => event.output.escalate ?? 'The GREEN run asked for a person.',
            }),
          },
          {
            guard: { type: 'violatedTwice', params: ({ event }) => event.output },
            target: 'escalated',
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              reason: () => 'The Driver changed locked tests a second time in this cycle.',
            }),
          },
          {
            guard: { type: 'violatedWithoutBudget', params: ({ event }) => event.output },
            target: 'escalated',
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              reason: () => 'The Driver changed locked tests and no repair rounds remain.',
            }),
          },
          {
            guard: { type: 'isGreen', params: ({ event }) => event.output },
            target: 'refactor',
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              repairs: ({ context, event }) => context.repairs + (event.output.violations > 0 ? 1 : 0),
              greenRecord: ({ event }) => event.output.record,
              failure: null,
            }),
          },
          {
            guard: { type: 'mayRepair', params: ({ event }) => event.output },
            target: 'green',
            reenter: true,
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              repairs: ({ context, event }) => context.repairs + 1 + (event.output.violations > 0 ? 1 : 0),
              failure: ({ event }) => event.output.failure,
            }),
          },
          {
            target: 'escalated',
            actions: assign({
              violations: ({ context, event }) => context.violations + event.output.violations,
              failure: ({ event }) => event.output.failure,
              reason: ({ context, event }) =>
                `Still failing after ${context.repairBudget} repair round${context.repairBudget === 1 ? '' : 's'}${event.output.tells ? `: ${event.output.tells}` : '.'}`,
            }),
          },
        ],
      },
    },
    refactor: {
      entry: assign({ refactors: ({ context }) => context.refactors + 1 }),
      invoke: {
        id: 'refactor',
        src: 'refactor',
        input: ({ context }) => step(context, context.refactors),
        onDone: 'review',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'refactor' } } },
      },
    },
    review: {
      invoke: {
        id: 'review',
        src: 'review',
        onError: { target: 'escalated', actions: { type: 'stepFailed', params: { step: 'review' } } },
        input: ({ context }) => step(context, context.refactors),
        onDone: [
          { guard: { type: 'wantsRefactor', params: ({ event }) => event.output }, target: 'refactor' },
          {
            target: 'done',
            actions: assign({ smell: ({ event }) => (event.output.decision === 'smell' ? (event.output.note ?? 'flagged without a note') : null) }),
          },
        ],
      },
    },
    done: { type: 'final', entry: assign({ status: 'done' as const }) },
    escalated: { type: 'final', entry: assign({ status: 'escalated' as const }) },
  },
  output: ({ context }) => ({
    item: context.item,
    status: context.status === 'done' ? 'done' : 'escalated',
    repairs: context.repairs,
    violations: context.violations,
    rejectedRed: context.rejectedRed,
    refactors: context.refactors,
    smell: context.smell,
    reason: context.reason,
    greenRecord: context.greenRecord,
  }),
});

/** The cycle's states in order, for the UI's machine view. */
export const CYCLE_STATES = ['plan', 'red', 'lock', 'green', 'refactor', 'review', 'done', 'escalated'] as const;

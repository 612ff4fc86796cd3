/**
 * An item's agent turns as the metrics read them (shared/metrics.ts): every working step's verdict
 * record is one turn of one agent, with its time, its test run's time and the usage the agent
 * reported. Sums keep null for "nothing recorded", never a made-up zero. Pure.
 */
import type { LedgerRecord } from '../ledger';
import { RECORD_TYPES, recordOf, type StepFields } from '../records';

/** The cycle's working steps, in the order a cycle runs them. */
export const STEPS = ['red', 'green', 'refactor', 'review'] as const;
export type Step = (typeof STEPS)[number];

/**
 * Who takes each step's turn (engine/red-steps.ts, green-steps.ts): the verdict records are written
 * by the orchestrator, so their actor does not name the agent; a record whose actor is an agent
 * (`driver:scripted`) names its role itself.
 */
const STEP_ROLE: Readonly<Record<Step, string>> = { red: 'navigator', green: 'driver', refactor: 'driver', review: 'navigator' };

/** The role whose turn a record is: an agent actor (`driver:scripted`) names it, else the step's. */
export const roleOf = (record: LedgerRecord, step: Step): string =>
  record.actor.kind === 'agent' ? (record.actor.id.split(':')[0] ?? STEP_ROLE[step]) : STEP_ROLE[step];

type AgentUsage = NonNullable<StepFields['agent']>;

export interface Turn {
  readonly step: Step;
  readonly role: string;
  readonly cycle: string | null;
  readonly turnMs: number;
  /** The orchestrator's test run after the turn: `testRunMs` (both runs and GREEN's re-check), else `runMs` (older records: the first run only); null when nothing ran. */
  readonly testRunMs: number | null;
  readonly agent: AgentUsage | null;
}

/** The turn a record is, or null: `cycle.red`, `cycle.green`, `cycle.refactored`, `cycle.reviewed`. */
export function turnOf(record: LedgerRecord): Turn | null {
  const base = (step: Step, data: { turnMs: number; agent?: AgentUsage | undefined }, testRunMs: number | null): Turn => ({
    step,
    role: roleOf(record, step),
    cycle: record.subject.cycle ?? null,
    turnMs: data.turnMs,
    testRunMs,
    agent: data.agent ?? null,
  });
  const ran = (d: StepFields): number | null => d.testRunMs ?? d.runMs ?? null;
  const red = recordOf(record, RECORD_TYPES.cycleRed);
  if (red) return base('red', red.data, ran(red.data));
  const green = recordOf(record, RECORD_TYPES.cycleGreen);
  if (green) return base('green', green.data, ran(green.data));
  const refactored = recordOf(record, RECORD_TYPES.cycleRefactored);
  if (refactored) return base('refactor', refactored.data, ran(refactored.data));
  const reviewed = recordOf(record, RECORD_TYPES.cycleReviewed);
  if (reviewed) return base('review', reviewed.data, null);
  return null;
}

export const turnsOf = (records: readonly LedgerRecord[]): Turn[] => records.flatMap((r) => turnOf(r) ?? []);

/** a + b where null means "not recorded": null only when both are. */
export const plus = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : a + b);

/** The sum of the recorded values; null when none is recorded. */
export const sumOf = <T>(items: readonly T[], value: (item: T) => number | null | undefined): number | null =>
  items.reduce<number | null>((n, item) => plus(n, value(item) ?? null), null);

/**
 * Tokens and cost of some turns, as their agents reported them. `reported` of the `turns` carried
 * usage (the scripted agent reports none): a sum covers those only, and is null when none did.
 */
export interface Usage {
  readonly turns: number;
  readonly reported: number;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly costUsd: number | null;
}

export const NO_USAGE: Usage = { turns: 0, reported: 0, inputTokens: null, outputTokens: null, costUsd: null };

export function usageOf(turns: readonly Turn[]): Usage {
  const reported = turns.flatMap((t) => t.agent ?? []);
  return {
    turns: turns.length,
    reported: reported.length,
    inputTokens: sumOf(reported, (a) => a.inputTokens),
    outputTokens: sumOf(reported, (a) => a.outputTokens),
    costUsd: sumOf(reported, (a) => a.costUsd),
  };
}

export const addUsage = (a: Usage, b: Usage): Usage => ({
  turns: a.turns + b.turns,
  reported: a.reported + b.reported,
  inputTokens: plus(a.inputTokens, b.inputTokens),
  outputTokens: plus(a.outputTokens, b.outputTokens),
  costUsd: plus(a.costUsd, b.costUsd),
});

/** The turns' usage grouped by a key (a role, an agent's host and model), keys in first-seen order. */
export function usageBy(turns: readonly Turn[], key: (turn: Turn) => string | null): Record<string, Usage> {
  const groups = new Map<string, Turn[]>();
  for (const turn of turns) {
    const k = key(turn);
    if (k !== null) groups.set(k, [...(groups.get(k) ?? []), turn]);
  }
  return Object.fromEntries([...groups].map(([k, mine]) => [k, usageOf(mine)]));
}

/** An agent's host and model as one key, `claude-code/claude-sonnet-4`; null for a turn that reported no agent. */
export const hostModel = (turn: Turn): string | null => (turn.agent ? `${turn.agent.host}/${turn.agent.model ?? 'unknown model'}` : null);

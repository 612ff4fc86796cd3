/**
 * A run of the orchestrator as hosts and the renderer see it: live events (kind-tagged, streamed
 * to the bottom panel and the board) and the summary `baton run`, `baton status` and `baton demo`
 * print. Pure.
 */
import type { TestStatus } from './model';

export const CYCLE_STATE_NAMES = ['plan', 'red', 'lock', 'green', 'refactor', 'review', 'done', 'escalated'] as const;
export type CycleStateName = (typeof CYCLE_STATE_NAMES)[number];

export const LIFECYCLE_STATE_NAMES = [
  'intake',
  'specifying',
  'specGate',
  'designing',
  'designGate',
  'testListing',
  'testListGate',
  'building',
  'acceptance',
  'deployGate',
  'promoteGate',
  'promoting',
  'done',
  'abandoned',
  'escalated',
] as const;
export type LifecycleStateName = (typeof LIFECYCLE_STATE_NAMES)[number];

export type AgentStep = 'red' | 'green' | 'refactor' | 'review' | 'strengthen' | 'artifact';

export type RunEvent =
  | { readonly kind: 'run.started'; readonly runId: string; readonly feature: string; readonly at: string }
  | { readonly kind: 'lifecycle.state'; readonly feature: string; readonly state: LifecycleStateName }
  | { readonly kind: 'cycle.state'; readonly feature: string; readonly item: string; readonly state: CycleStateName }
  | { readonly kind: 'item.status'; readonly feature: string; readonly item: string; readonly status: TestStatus }
  | { readonly kind: 'turn.started'; readonly item: string | null; readonly role: string; readonly step: AgentStep; readonly attempt: number }
  | { readonly kind: 'turn.output'; readonly item: string | null; readonly chunk: string }
  | { readonly kind: 'runner.started'; readonly item: string | null; readonly step: AgentStep; readonly command: string }
  | { readonly kind: 'runner.output'; readonly item: string | null; readonly chunk: string }
  | { readonly kind: 'recorded'; readonly type: string; readonly hash: string; readonly item: string | null }
  | { readonly kind: 'waiting'; readonly feature: string; readonly gate: string; readonly message: string }
  | { readonly kind: 'run.blocked'; readonly feature: string; readonly message: string; readonly record: string }
  /** Something the person running it should know that changes nothing in the run (a copied run lock replaced). */
  | { readonly kind: 'run.note'; readonly message: string }
  | { readonly kind: 'run.finished'; readonly summary: RunSummary };

export interface Escalation {
  readonly item: string | null;
  readonly reason: string;
  /** The ledger record holding the evidence. */
  readonly record: string | null;
}

/** Why a run stopped before a step: the `run.blocked` record and what it says. */
export interface RunBlocked {
  readonly record: string;
  readonly message: string;
  /** The gates named, each with the files that drifted (relative to the project root). */
  readonly gates: readonly { readonly gate: string; readonly story: string | null; readonly status: string; readonly files: readonly string[] }[];
}

export interface RunSummary {
  readonly project: string;
  readonly feature: string;
  readonly phase: LifecycleStateName;
  readonly items: { readonly total: number; readonly byStatus: Readonly<Record<string, number>> };
  readonly repairs: number;
  readonly violations: number;
  readonly rejectedRed: number;
  readonly escalations: readonly Escalation[];
  /** Set when the run stopped because a gate it builds on drifted or is no longer approved. */
  readonly blocked: RunBlocked | null;
  readonly ledgerHead: string | null;
  /** Why the run stopped where it did (a gate to approve, an escalation, done). */
  readonly stoppedAt: string;
}

/* ---- The live run as the workbench shows it: `run:state` and `run:progressed` ---- */

/** Events the workbench's run session adds around the orchestrator's own: asked for, stopping, ended. */
export type RunSessionEvent =
  | { readonly kind: 'run.requested'; readonly runId: string; readonly feature: string | null; readonly at: string }
  | { readonly kind: 'run.stopping'; readonly runId: string }
  | { readonly kind: 'run.ended'; readonly runId: string; readonly outcome: RunOutcome; readonly message: string | null; readonly at: string };

/** What `run:progressed` carries: the orchestrator's events and the session's, in order. */
export type RunFeedEvent = RunEvent | RunSessionEvent;

/**
 * How the last run ended; `running` while it runs. `escalated`: it stopped on items that wait for a
 * person; `blocked`: a gate it builds on drifted or is no longer approved; `stopped`: someone stopped
 * it; `failed`: an error; `finished`: it reached where it was going (a gate to decide, or done).
 */
export type RunOutcome = 'running' | 'finished' | 'escalated' | 'blocked' | 'stopped' | 'failed';

export interface RunItemState {
  readonly item: string;
  readonly state: CycleStateName;
  /** The item's status as the run last set it, or null before it set one. */
  readonly status: TestStatus | null;
}

export interface RunTurn {
  readonly item: string | null;
  readonly role: string;
  readonly step: AgentStep;
  readonly attempt: number;
}

export interface RunnerCall {
  readonly item: string | null;
  readonly step: AgentStep;
  readonly command: string;
}

/** What an item being built did last: its agent turn or its test run, whichever started later. */
export type RunItemActivity = { readonly kind: 'turn'; readonly turn: RunTurn } | { readonly kind: 'runner'; readonly runner: RunnerCall };

/** A line of a streaming pane: `head` marks where a turn or a runner call began. */
export interface RunLine {
  readonly kind: 'head' | 'text';
  readonly text: string;
}

/** The last lines of a stream; `open` when its last line has not ended yet, `dropped` counts lines let go. */
export interface RunLog {
  readonly lines: readonly RunLine[];
  readonly dropped: number;
  readonly open: boolean;
}

export interface RunStateView {
  /**
   * How many `run:progressed` batches this state includes: a batch with a seq at or below it is
   * already folded in, one beyond the next means batches were missed (ask for the state again).
   */
  readonly seq: number;
  readonly running: boolean;
  readonly stopping: boolean;
  /** Null when nothing ran since the project was opened. */
  readonly outcome: RunOutcome | null;
  readonly runId: string | null;
  readonly feature: string | null;
  /** The lifecycle state: live while running, else the last known (the persisted snapshot's). */
  readonly lifecycle: LifecycleStateName | null;
  /** Items the run (or a persisted snapshot) knows, in the order they were reached. */
  readonly items: readonly RunItemState[];
  /** The item whose cycle moved last (one of `active` while cycles run; kept for single-item readers). */
  readonly currentItem: string | null;
  /**
   * The items whose cycle is running now, in the order they started: several when the run builds
   * independent stories in parallel (issue 17 part 6). Empty once the run has ended.
   */
  readonly active: readonly string[];
  /** What each item of `active` did last, by item; an item has no entry before its first turn or test run. */
  readonly activity: Readonly<Record<string, RunItemActivity>>;
  /** The agent turn started last (of any item), or the run's last one once it has ended. */
  readonly turn: RunTurn | null;
  /** The orchestrator's test run started last (of any item), or the run's last one once it has ended. */
  readonly runner: RunnerCall | null;
  readonly waiting: { readonly gate: string; readonly message: string } | null;
  /** The agent turns' transcript. */
  readonly transcript: RunLog;
  /** What the orchestrator's test runs printed. */
  readonly runnerOutput: RunLog;
  readonly summary: RunSummary | null;
  /** Why the run failed, for a person. */
  readonly message: string | null;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

/**
 * The agent port: one turn of one role in its own worktree. Adapters (scripted, and later the
 * real CLIs) implement it; the orchestrator judges what the turn did by diffing the worktree,
 * never by what the agent says.
 */

import type { AgentUsage } from '../../shared/agents';

export const ROLES = ['specAuthor', 'architectReviewer', 'dba', 'uxDesigner', 'testStrategist', 'navigator', 'driver'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Which step of the cycle a turn serves: the Navigator writes tests (red), reviews, and adds tests
 * that kill surviving mutants (strengthen); the Driver implements (green) and refactors.
 */
export type TurnStep = 'red' | 'green' | 'refactor' | 'review' | 'strengthen' | 'artifact';

export interface TurnRequest {
  readonly role: Role;
  readonly step: TurnStep;
  readonly item: string | null;
  readonly attempt: number;
  /** The item's round: 1, or more after a person asked for a retry of an escalation. Default 1. */
  readonly round?: number;
  readonly worktree: string;
  /** The role's instructions for this turn (from resources/prompts, filled in). */
  readonly prompt: string;
  /** For a repair round: the runner's failure output. */
  readonly failure: string | null;
  readonly env: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Streams the turn's transcript as it happens (the live run panel). */
  readonly onOutput?: (chunk: string) => void;
  /** What the orchestrator gives this role for this step (engine/context-pack.ts); the scripted agent ignores it. */
  readonly context?: ContextPack;
}

/**
 * Everything a role needs for one turn, and nothing it must not see: written as JSON for the agent
 * (`BATON_CONTEXT`), rendered into its prompt, and kept with the turn as a ledger blob.
 */
export interface ContextPack {
  readonly version: 1;
  readonly role: Role;
  readonly step: TurnStep;
  readonly feature: { readonly id: string; readonly name: string; readonly description: string };
  readonly story: { readonly id: string; readonly title: string; readonly asA: string; readonly iWant: string; readonly soThat: string } | null;
  readonly item: { readonly id: string; readonly description: string; readonly kind: string | null } | null;
  readonly acceptanceCriterion: { readonly id: string; readonly title: string; readonly given: string; readonly when: string; readonly then: string } | null;
  readonly architecture: unknown;
  readonly databaseDesign: unknown;
  /** Globs of the files this role may write; anything else it changes is reverted. */
  readonly mayWrite: readonly string[];
  /** Locked files it may read and never change (changing one is a violation, restored). */
  readonly readOnly: readonly string[];
  readonly testCommand: string | null;
  readonly migrations: string | null;
  readonly attempt: number;
  readonly round: number;
  /** A repair: the failing tests and the runner's output (trimmed). */
  readonly failure: { readonly failingTests: readonly string[]; readonly output: string } | null;
  /** A person's note with a retry of an escalation. */
  readonly guidance: string | null;
  /** A review: the cycle's diff (never the Driver's own account of its work). */
  readonly diff: string | null;
  /** A strengthening round: the mutants of the GREEN code that the item's tests let through. */
  readonly survivors?: ReadonlyArray<{
    readonly file: string;
    readonly line: number;
    readonly operator: string;
    readonly original: string;
    readonly replacement: string;
  }>;
  /** A design-phase turn: the intake request, its attachments (in the turn folder), a person's note, why the last attempt was refused. */
  readonly design?: {
    readonly request: string;
    readonly attachments: readonly string[];
    readonly feedback: string | null;
    readonly problems: readonly string[];
  };
}

export interface TurnResult {
  readonly exitCode: number;
  /** Which host and model did the turn and what it used (real agents); absent for the scripted agent. */
  readonly usage?: AgentUsage;
  readonly transcript: string;
  readonly ms: number;
  /** A review turn's verdict; other steps leave it null. */
  readonly review: { readonly decision: 'accept' | 'refactor' | 'smell'; readonly note: string | null } | null;
  /** What the agent itself said (its messages, decoded; never Baton's lines about the turn): where dependency requests are read. */
  readonly said?: string;
  /**
   * The agent did not take the turn at all, and why (the scripted agent with no turn for it): the
   * orchestrator says that, instead of judging an empty turn as the role's work.
   */
  readonly declined?: string;
}

export interface AgentAdapter {
  readonly name: string;
  /** The turn gets its own database branch (DATABASE_URL): real agents run the tests themselves. */
  readonly needsDatabase?: boolean;
  turn(request: TurnRequest): Promise<TurnResult>;
}

/**
 * The agent port: one turn of one role in its own worktree. Adapters (scripted, and later the
 * real CLIs) implement it; the orchestrator judges what the turn did by diffing the worktree,
 * never by what the agent says.
 */

export const ROLES = ['specAuthor', 'architectReviewer', 'dba', 'uxDesigner', 'testStrategist', 'navigator', 'driver'] as const;
export type Role = (typeof ROLES)[number];

/** Which step of the cycle a turn serves: the Navigator writes tests (red) and reviews; the Driver implements (green) and refactors. */
export type TurnStep = 'red' | 'green' | 'refactor' | 'review' | 'artifact';

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
}

export interface TurnResult {
  readonly exitCode: number;
  readonly transcript: string;
  readonly ms: number;
  /** A review turn's verdict; other steps leave it null. */
  readonly review: { readonly decision: 'accept' | 'refactor' | 'smell'; readonly note: string | null } | null;
}

export interface AgentAdapter {
  readonly name: string;
  turn(request: TurnRequest): Promise<TurnResult>;
}

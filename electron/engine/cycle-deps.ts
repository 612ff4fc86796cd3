/** What a cycle's steps are wired to: the project, its ledger and branches, the agents, the live event stream. */
import type { RunEvent } from '../../shared/run';
import type { AgentAdapter, Role } from '../agents/agent-port';
import type { BranchProvider } from '../branches/provider';
import type { Ledger } from '../ledger';
import type { ProjectSettings } from '../project/settings';
import type { JudgedReport } from '../orchestrator/judge';
import type { RunSite } from '../runner/controlled-run';
import type { LaneGate } from './lane-gate';
import type { MutationQueue } from '../mutation/queue';

/** The story's experiment pair: the git branch the orchestrator commits to, its worktree, its database. */
export interface ExperimentPair {
  readonly gitBranch: string;
  readonly worktree: string;
  readonly database: string;
}

export interface CycleDeps {
  readonly root: string;
  readonly settings: ProjectSettings;
  readonly feature: string;
  readonly ledger: Ledger;
  readonly provider: BranchProvider;
  /** The stories of `story`'s lane (lanes.ts): whose code and locked tests its branch holds. Absent: every story's. */
  readonly lane?: (story: string) => Promise<readonly string[]>;
  /** With lanes built at once: keeps agent turns and other lanes' test runs apart (lane-gate.ts). */
  readonly gate?: LaneGate;
  /** Makes (once) and returns the story's experiment pair. */
  readonly experiment: (story: string) => Promise<ExperimentPair>;
  readonly agent: (role: Role) => AgentAdapter;
  /** Where per-turn worktrees go (outside the repository). */
  readonly turnsDir: string;
  /** Where the orchestrator's test runs happen: one fixed run folder and a private scratch folder. */
  readonly runSite: RunSite;
  /** The installed dependency requests and the node_modules test runs link: the feature's folder, or a lane's own while lanes are built apart (dependencies.ts). */
  readonly dependenciesDir: string;
  /** Folders agents' commands and test runs must not see: Baton's config and data folders, its installation. */
  readonly hide: readonly string[];
  /** The last accepted run of the story's suite: RED is judged against it. */
  readonly baseline: { get(story: string): Promise<JudgedReport>; set(story: string, report: JudgedReport): Promise<void> };
  readonly emit: (event: RunEvent) => void;
  readonly signal?: AbortSignal;
  /**
   * Called before every cycle step: re-judges the gates building depends on (spec, design,
   * test_list) and throws, having recorded `run.blocked` and stopped the run, when one drifted.
   */
  readonly guard: (step: string, item: string | null) => Promise<void>;
  /** Mutation testing of each GREEN, beside the build (mutation/queue.ts); absent: none. */
  readonly mutation?: MutationQueue;
}

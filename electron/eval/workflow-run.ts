/** One (task, workflow, agent, rep) as the runner gives it to a workflow, and what the workflow gives back. */
import type { Workflow } from './workflows';
import type { EvalAgent } from './agents';
import type { EvalRunResult, EvalTask } from './types';

export interface WorkflowRun {
  readonly task: EvalTask;
  readonly workflow: Workflow;
  readonly agent: EvalAgent;
  /** The run's own folder (absolute): its project, data and config folders, its delivered tree. */
  readonly folder: string;
  /** The evaluation's folder (absolute): every run's folder is in it, kept out of the agents' sight. */
  readonly evalDir: string;
  readonly seed: number;
  /** The run's whole budget of wall time; the agent's turns have their own limits in its setting. */
  readonly timeLimitMs: number;
  readonly signal?: AbortSignal;
}

/** What a workflow reports; the runner adds the key, the held-out verdict and the folders. */
export type WorkflowOutcome = Omit<EvalRunResult, 'task' | 'workflow' | 'agent' | 'rep' | 'seed' | 'heldout' | 'folder' | 'ledger' | 'harnessMs'> & {
  /** The delivered project tree, written out (absolute): the held-out suite runs on a copy of it. */
  readonly deliveredTree: string;
  /** The time in the workflow's own work (the agent's turn, or `baton run`): the rest is the harness's. */
  readonly workMs: number;
  /** The run's ledger, relative to the run's folder; null: none. */
  readonly ledger: string | null;
};

export type WorkflowRunner = (run: WorkflowRun) => Promise<WorkflowOutcome>;

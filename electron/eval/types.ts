/**
 * `baton eval` (issue 36): the same tasks under different workflows and agents, each result
 * judged by a held-out acceptance suite no agent ever sees. These are the shapes every part of
 * the harness shares: a task, a workflow, one run's result, and the held-out verdict.
 */

/** A task folder: `task.json`, `request.md`, `repo/` (the starting Baton project) and `heldout/` (never copied into a run). */
export interface EvalTask {
  /** The folder's name; also the run folders' first segment. */
  readonly id: string;
  readonly title: string;
  /** The feature in `repo/.baton/features/` whose spec, design and test list the enforced workflow starts from (approved by the harness). */
  readonly feature: string;
  /** Absolute paths. */
  readonly dir: string;
  readonly repo: string;
  readonly heldout: string;
  /** The request paragraph (request.md), the only thing a single-turn workflow's agent is told about the task. */
  readonly request: string;
}

/** What the held-out suite said about a delivered tree. */
export interface HeldoutResult {
  readonly total: number;
  readonly passed: number;
  /** The names of the held-out tests that failed (escaped defects), sorted. */
  readonly failed: readonly string[];
  readonly ms: number;
  /** Set when the suite could not run at all (migrations failed, the runner crashed): every test counts as failed. */
  readonly error: string | null;
}

/** Which run this is: one (task, workflow, agent, rep). */
export interface EvalRunKey {
  readonly task: string;
  readonly workflow: string;
  readonly agent: string;
  /** 1-based. */
  readonly rep: number;
  /** Derived from --seed, the key and the rep: the same command gives the same seeds. */
  readonly seed: number;
}

export interface EvalRunResult extends EvalRunKey {
  /**
   * Whether the workflow says it delivered: enforced, the run reached the acceptance gate with
   * every item done; single-turn, the agent's turn ended well and its own tests pass.
   */
  readonly delivered: boolean;
  /** In words, where the run ended ("acceptance gate", "escalated: T3", "own tests failed", "agent turn failed"). */
  readonly outcome: string;
  readonly heldout: HeldoutResult;
  readonly wallMs: number;
  /** The agents' turns' own time, summed. */
  readonly agentMs: number;
  /** null: the agent host did not report it. */
  readonly tokens: number | null;
  readonly costUsd: number | null;
  /** Decisions a person would have had to make: gate approvals and escalation decisions the harness made for them. */
  readonly interventions: number;
  readonly repairs: number;
  /** Violations the workflow caught (enforced: cycle.violation records; single-turn: none can be caught). */
  readonly violations: number;
  /** Mean mutation score of the agents' tests over the items that were mutation-tested (0..1); null: not measured. */
  readonly mutationScore: number | null;
  /**
   * The harness's own time for this run: copying and preparing the task, the agent's own tests at
   * the end, the held-out suite, recording; the run's whole time less the workflow's work (the agent
   * turn, or `baton run`). `npm run bench:eval` prints it.
   */
  readonly harnessMs?: number;
  /** Non-blank lines in the project's sourceGlobs of the delivered tree. */
  readonly linesOfCode: number;
  /** The run's folder, relative to the evaluation folder. */
  readonly folder: string;
  /**
   * The run's ledger (its artifact root, holding ledger/events.jsonl), relative to the evaluation
   * folder: the enforced run's project ledger, else one of the run's own. Its `eval.run` record
   * holds this result; null only in a result not yet recorded.
   */
  readonly ledger: string | null;
}

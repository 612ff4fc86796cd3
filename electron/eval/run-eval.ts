/**
 * `baton eval`: tasks × workflows × agents × repetitions, each run in a folder of its own under
 * `<out>/runs/<task>/<workflow>/<agent>/rep-<n>`, up to `parallel` at once; then the held-out suite
 * on each run's delivered tree. A run is finished when its `result.json` is written (atomically,
 * last), so an evaluation killed half-way is resumed by the same command: finished runs are kept,
 * a half-made one is removed and run again. The plan (`eval.json`) and the pre-registered
 * hypothesis are fixed by the first start; a later start with another plan is refused.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { matchesAny } from '../../shared/glob';
import { RECORD_TYPES } from '../../shared/records';
import { Ledger } from '../ledger';
import type { EvalAgent } from './agents';
import { readKeptResult, recordedFigures, runFolder } from './kept-result';
import { runEnforced } from './enforced';
import { runHeldout } from './judge';
import { runSingleTurn } from './single-turn';
import type { EvalRunKey, EvalRunResult, EvalTask } from './types';
import type { WorkflowRunner } from './workflow-run';
import type { Workflow } from './workflows';

export interface EvalPlan {
  readonly tasks: readonly EvalTask[];
  readonly workflows: readonly Workflow[];
  readonly agents: readonly EvalAgent[];
  readonly reps: number;
  readonly seed: number;
}

export interface EvalOptions extends EvalPlan {
  /** The evaluation's folder (absolute). */
  readonly out: string;
  readonly parallel: number;
  readonly timeLimitMs: number;
  /** The pre-registered hypothesis's text, stored before the first run; null: none. */
  readonly hypothesis: string | null;
  readonly signal?: AbortSignal;
  readonly onProgress?: (line: string) => void;
  /**
   * Run only the runs whose `task/workflow/agent/rep` matches one of these globs (one job of a
   * fan-out: docs/eval.md); null: all. An empty list runs nothing: the report of what is finished.
   */
  readonly only?: readonly string[] | null;
  /** The workflows' runners and the held-out judge; tests replace them to check the bookkeeping alone. */
  readonly runners?: Readonly<Record<Workflow['kind'], WorkflowRunner>>;
  readonly judge?: typeof runHeldout;
}

export interface EvalOutcome {
  /** The finished runs, in the plan's order (all of them, unless `only` left some out). */
  readonly results: readonly EvalRunResult[];
  /** How many runs the plan has. */
  readonly planned: number;
  /** Runs kept from an earlier start of the same evaluation. */
  readonly resumed: number;
  readonly hypothesis: string | null;
}

const RUNNERS: Record<Workflow['kind'], WorkflowRunner> = { enforced: runEnforced, 'single-turn': runSingleTurn };

/** The plan as stored: what a resumed start must match. */
function planOf(plan: EvalPlan): object {
  return {
    tasks: plan.tasks.map((t) => t.id),
    workflows: plan.workflows,
    agents: plan.agents.map((a) => ({ name: a.name, setting: plan.tasks[0] ? a.settingFor(plan.tasks[0]) : null })),
    reps: plan.reps,
    seed: plan.seed,
  };
}

/** A run's seed: the evaluation's seed and the run's key, hashed (the same command gives the same seeds). */
export function seedOf(seed: number, key: Omit<EvalRunKey, 'seed'>): number {
  const digest = createHash('sha256')
    .update(JSON.stringify([seed, key.task, key.workflow, key.agent, key.rep]))
    .digest();
  return digest.readUInt32BE(0);
}

export function runKeys(plan: EvalPlan): EvalRunKey[] {
  const keys: EvalRunKey[] = [];
  for (const task of plan.tasks)
    for (const workflow of plan.workflows)
      for (const agent of plan.agents)
        for (let rep = 1; rep <= plan.reps; rep++) {
          const key = { task: task.id, workflow: workflow.name, agent: agent.name, rep };
          keys.push({ ...key, seed: seedOf(plan.seed, key) });
        }
  return keys;
}

/** A run's key as `--only` matches it: `task/workflow/agent/rep`. */
export const keyPath = (key: Omit<EvalRunKey, 'seed'>): string => `${key.task}/${key.workflow}/${key.agent}/${key.rep}`;

export { runFolder };

export async function runEval(options: EvalOptions): Promise<EvalOutcome> {
  const say = options.onProgress ?? (() => undefined);
  await mkdir(options.out, { recursive: true });
  const hypothesis = await fixPlan(options);
  for (const task of options.tasks)
    for (const agent of options.agents) {
      const missing = await agent.missingFor(task);
      if (missing) throw new Error(`Cannot evaluate: ${missing}.`);
    }
  const keys = runKeys(options);
  const results = new Map<string, EvalRunResult>();
  for (const key of keys) {
    const kept = await readKeptResult(options.out, key);
    if (kept) results.set(runFolder(options.out, key), kept);
  }
  const resumed = results.size;
  if (resumed) say(`baton eval: ${resumed} of ${keys.length} runs were finished by an earlier start; running the other ${keys.length - resumed}.`);
  const only = options.only ?? null;
  const pending = keys.filter((k) => !results.has(runFolder(options.out, k)) && (only === null || matchesAny(keyPath(k), only)));
  let next = 0;
  let finished = resumed;
  const lane = async (): Promise<void> => {
    while (next < pending.length) {
      options.signal?.throwIfAborted();
      const key = pending[next++]!;
      const result = await runOne(options, key);
      results.set(runFolder(options.out, key), result);
      finished++;
      say(
        `baton eval: ${finished}/${keys.length} ${key.task} × ${key.workflow} × ${key.agent} rep ${key.rep}: ${result.delivered ? 'delivered' : 'not delivered'} (${result.outcome}); held-out ${result.heldout.passed}/${result.heldout.total}; ${Math.round(result.wallMs / 1000)} s`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.parallel, pending.length)) }, lane));
  const ordered = keys.flatMap((k) => results.get(runFolder(options.out, k)) ?? []);
  return { results: ordered, planned: keys.length, resumed, hypothesis };
}

async function runOne(options: EvalOptions, key: EvalRunKey): Promise<EvalRunResult> {
  const began = Date.now();
  const folder = runFolder(options.out, key);
  // A folder without a result is what a killed start left: nothing in it counts.
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const task = options.tasks.find((t) => t.id === key.task)!;
  const workflow = options.workflows.find((w) => w.name === key.workflow)!;
  const agent = options.agents.find((a) => a.name === key.agent)!;
  const outcome = await (options.runners ?? RUNNERS)[workflow.kind]({
    task,
    workflow,
    agent,
    folder,
    evalDir: options.out,
    seed: key.seed,
    timeLimitMs: options.timeLimitMs,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const heldout = await (options.judge ?? runHeldout)({ task, delivered: outcome.deliveredTree, scratch: join(folder, 'heldout-run') });
  const { deliveredTree: _tree, ledger, workMs, ...figures } = outcome;
  // The result goes into the run's ledger (the enforced run's own, after its build's records; else one of its own).
  const evidence = join(folder, ledger ?? 'evidence');
  const data = recordedFigures({ ...key, ...figures, heldout, folder: '', ledger: null });
  await Ledger.forArtifactRoot(evidence).append({
    type: RECORD_TYPES.evalRun,
    actor: { kind: 'orchestrator', id: 'baton eval' },
    subject: { feature: task.feature },
    data: { ...data, heldout: { ...heldout, failed: [...heldout.failed] } },
  });
  const result: EvalRunResult = {
    ...key,
    ...figures,
    heldout,
    harnessMs: Math.max(0, Date.now() - began - workMs),
    folder: relative(options.out, folder),
    ledger: relative(options.out, evidence),
  };
  const file = join(folder, 'result.json');
  await writeFile(`${file}.tmp`, `${JSON.stringify(result, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
  return result;
}

/**
 * The first start writes the plan and the hypothesis; a later start must bring the same plan, and
 * may not bring a different hypothesis (pre-registration: it is fixed before any result exists).
 */
async function fixPlan(options: EvalOptions): Promise<string | null> {
  const planFile = join(options.out, 'eval.json');
  const plan = `${JSON.stringify(planOf(options), null, 2)}\n`;
  const stored = await readFile(planFile, 'utf8').catch(() => null);
  if (stored !== null && stored !== plan)
    throw new Error(
      `${options.out} holds an evaluation with another plan (tasks, workflows, agents, reps or seed; see its eval.json): give another --out, or the same options to resume it.`,
    );
  const hypothesisFile = join(options.out, 'hypothesis.md');
  const storedHypothesis = await readFile(hypothesisFile, 'utf8').catch(() => null);
  if (stored !== null && options.hypothesis !== null && storedHypothesis !== options.hypothesis)
    throw new Error(
      `${options.out} was started with ${storedHypothesis === null ? 'no hypothesis' : 'another hypothesis'}: a hypothesis is fixed before the first run (pre-registration). Start a new evaluation with --out to test a new one.`,
    );
  if (stored === null) {
    await writeFile(planFile, plan);
    if (options.hypothesis !== null) await writeFile(hypothesisFile, options.hypothesis);
  }
  return storedHypothesis ?? options.hypothesis;
}

/**
 * The `enforced` workflow: Baton's whole cycle on a copy of the task, from its approved spec,
 * design and test list (approved by the harness, as the demo's are), with every role played by
 * the agent under evaluation, run by `baton run --until acceptance` in the run's own folders.
 * Delivered: the run reached the acceptance gate with every item done. The figures come from the
 * run's own ledger through `baton metrics --json`, so the report can be re-derived from it.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { featureBranch, storyBranch } from '../../shared/branches';
import type { RunSummary } from '../../shared/run';
import { approveDesignGates, DESIGN_GATES } from '../engine/prepare-demo';
import { batonCli, jsonOf, lastLine, type CliResult } from './baton-cli';
import { copyTask, EVAL_APPROVER, linesOf } from './prepare-task';
import type { WorkflowRun, WorkflowRunner } from './workflow-run';

const exec = promisify(execFile);

interface MetricsJson {
  readonly features: ReadonlyArray<{
    readonly feature: string;
    readonly items: ReadonlyArray<{ readonly mutation: { readonly score: number | null } | null }>;
    readonly totals: {
      readonly agentMs: number | null;
      readonly counts: { readonly repairs: number; readonly violations: number } | null;
      readonly usage: { readonly inputTokens: number | null; readonly outputTokens: number | null; readonly costUsd: number | null };
    };
    readonly interventions: { readonly total: number };
  }>;
}

export const runEnforced: WorkflowRunner = async (run) => {
  const root = join(run.folder, 'project');
  const started = Date.now();
  await copyTask(run.task, root, { baton: true, agent: run.agent.settingFor(run.task) });
  await approveDesignGates(root, { approver: EVAL_APPROVER, comment: 'Approved by the evaluation harness: the task ships its approved design.' });
  const built = await cli(run, ['run', root, '--feature', run.task.feature, '--until', 'acceptance', '--json'], run.timeLimitMs);
  const summary = jsonOf<RunSummary & { ok?: false; error?: { message: string } }>(built);
  const metrics = jsonOf<MetricsJson>(await cli(run, ['metrics', root, '--feature', run.task.feature, '--json'], 120_000));
  const feature = metrics?.features.find((f) => f.feature === run.task.feature) ?? null;
  const items = summary?.items;
  // Every item GREEN (or refactored after it): none pending, escalated or skipped.
  const done = items ? items.total > 0 && (items.byStatus.green ?? 0) + (items.byStatus.refactored ?? 0) === items.total : false;
  const delivered = built.code === 0 && summary?.phase === 'acceptance' && summary.escalations.length === 0 && done;
  const tree = await deliveredTree(root, run.task.feature, join(run.folder, 'delivered'));
  const scores = (feature?.items ?? []).map((i) => i.mutation?.score).filter((s): s is number => typeof s === 'number');
  const usage = feature?.totals.usage;
  return {
    delivered,
    outcome: outcomeOf(built, summary, delivered),
    deliveredTree: tree,
    workMs: built.ms,
    wallMs: Date.now() - started,
    agentMs: feature?.totals.agentMs ?? 0,
    tokens: usage && usage.inputTokens !== null ? usage.inputTokens + (usage.outputTokens ?? 0) : null,
    costUsd: usage?.costUsd ?? null,
    // What a person had to do: the decisions recorded after the harness's own approvals of the design, and the escalations still open.
    interventions: Math.max(0, (feature?.interventions.total ?? 0) - DESIGN_GATES.length) + (summary?.escalations.length ?? 0),
    repairs: feature?.totals.counts?.repairs ?? summary?.repairs ?? 0,
    violations: feature?.totals.counts?.violations ?? summary?.violations ?? 0,
    mutationScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
    linesOfCode: await linesOf(tree, ['src/**']),
    ledger: join('project', '.baton'),
  };
};

async function cli(run: WorkflowRun, args: string[], timeoutMs: number): Promise<CliResult> {
  try {
    return await batonCli(args, { folder: run.folder, timeoutMs, ...(run.signal ? { signal: run.signal } : {}) });
  } catch (error) {
    if (run.signal?.aborted) throw error;
    return { code: null, stdout: '', stderr: error instanceof Error ? error.message : String(error), ms: timeoutMs };
  }
}

function outcomeOf(built: CliResult, summary: (RunSummary & { error?: { message: string } }) | null, delivered: boolean): string {
  if (delivered) return 'reached the acceptance gate, every item done';
  if (!summary) return `baton run ended without a summary (exit ${built.code ?? 'killed'}): ${lastLine(built.stderr)}`;
  if (summary.error) return `baton run failed: ${summary.error.message}`;
  if (summary.escalations.length) return `escalated: ${summary.escalations.map((e) => e.item ?? e.reason).join(', ')}`;
  return `stopped: ${summary.stoppedAt}`;
}

/**
 * The code the run delivered, written out to `to`: the feature branch once the stories are merged
 * into it, else the story branch that holds every other story's work (a stacked lane's last), else
 * the feature branch as it is.
 */
async function deliveredTree(root: string, feature: string, to: string): Promise<string> {
  const git = async (...args: string[]) => (await exec('git', args, { cwd: root })).stdout.trim();
  const branches = (await git('for-each-ref', '--format=%(refname:short)', `refs/heads/${featureBranch(feature)}*`)).split('\n').filter(Boolean);
  const stories = branches.filter((b) => b.startsWith(storyBranch(feature, '')));
  const contains = async (tip: string, other: string) =>
    exec('git', ['merge-base', '--is-ancestor', other, tip], { cwd: root }).then(
      () => true,
      () => false,
    );
  let chosen = branches.includes(featureBranch(feature)) ? featureBranch(feature) : 'main';
  for (const tip of [featureBranch(feature), ...stories].filter((b) => branches.includes(b))) {
    const all = await Promise.all(stories.map((s) => contains(tip, s)));
    if (all.every(Boolean)) {
      chosen = tip;
      break;
    }
  }
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  await exec('sh', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'sh', root, chosen, to]);
  return to;
}

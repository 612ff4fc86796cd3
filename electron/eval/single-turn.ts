/**
 * A `single-turn` workflow (baseline, prompted-tdd): the agent under evaluation gets ONE turn on a
 * plain copy of the task's repository (no .baton folder, no test list), told the workflow's prompt
 * with the request in it. It writes code and its own tests as it likes; nothing is checked until
 * the end, when its own tests run once on a fresh database (delivered: the turn ended well and
 * they pass). It runs in the same sandbox as an enforced turn, with Baton's installation, the
 * task's folder (its held-out suite) and the evaluation's other runs out of sight.
 */
import { join } from 'node:path';
import { createAgent } from '../agents/adapters';
import type { ContextPack } from '../agents/agent-port';
import { defaultConfigDir } from '../platform/config-dir';
import { packageRoot } from '../platform/package-root';
import { runOwnTests } from './judge';
import { copyTask, linesOf } from './prepare-task';
import type { WorkflowRun, WorkflowRunner } from './workflow-run';

const WRITABLE = ['src/**', 'test/**', 'migrations/**', 'package.json'];

export const runSingleTurn: WorkflowRunner = async (run) => {
  const started = Date.now();
  const root = join(run.folder, 'project');
  const setting = run.agent.settingFor(run.task);
  await copyTask(run.task, root, { baton: false, agent: setting });
  const prompt = run.workflow.prompt!.replaceAll('{request}', run.task.request.trim());
  const agent = await createAgent('driver', setting, {
    root,
    scenario: undefined,
    hide: [defaultConfigDir(), packageRoot(import.meta.url), run.task.dir, run.evalDir],
  });
  let exitCode: number | null = null;
  let agentMs = 0;
  let tokens: number | null = null;
  let costUsd: number | null = null;
  let failure: string | null = null;
  const turnStarted = Date.now();
  try {
    const turn = await agent.turn({
      role: 'driver',
      step: 'green',
      item: null,
      attempt: 1,
      worktree: root,
      prompt,
      failure: null,
      env: {},
      context: contextFor(run, prompt),
      ...(run.signal ? { signal: run.signal } : {}),
    });
    exitCode = turn.exitCode;
    agentMs = turn.ms;
    const usage = turn.usage;
    tokens = usage && usage.inputTokens !== null ? usage.inputTokens + (usage.outputTokens ?? 0) : null;
    costUsd = usage?.costUsd ?? null;
  } catch (error) {
    if (run.signal?.aborted) throw error;
    failure = error instanceof Error ? error.message : String(error);
  }
  const workMs = Date.now() - turnStarted;
  const own = await runOwnTests({ task: run.task, delivered: root, scratch: join(run.folder, 'own-tests') });
  const ownPass = own.error === null && own.total > 0 && own.passed === own.total;
  const delivered = exitCode === 0 && ownPass;
  const outcome =
    failure !== null
      ? `the agent's turn failed: ${failure}`
      : exitCode !== 0
        ? `the agent's turn ended with exit ${exitCode}`
        : own.error !== null
          ? `its own tests did not run: ${own.error}`
          : own.total === 0
            ? 'it wrote no tests'
            : ownPass
              ? `its own ${own.total} tests pass`
              : `its own tests fail: ${own.failed.slice(0, 3).join('; ')}`;
  return {
    delivered,
    outcome,
    deliveredTree: root,
    workMs,
    wallMs: Date.now() - started,
    agentMs,
    tokens,
    costUsd,
    interventions: 0,
    repairs: 0,
    // Nothing in a single-turn workflow can catch a violation: zero is what it caught, not what happened.
    violations: 0,
    mutationScore: null,
    linesOfCode: await linesOf(root, ['src/**']),
    ledger: null,
  };
};

/** What an agent host is told it may write (presets pass it on the command line) and about the task. */
function contextFor(run: WorkflowRun, prompt: string): ContextPack {
  return {
    version: 1,
    role: 'driver',
    step: 'green',
    feature: { id: run.task.feature, name: run.task.title, description: prompt },
    story: null,
    item: null,
    acceptanceCriterion: null,
    architecture: null,
    databaseDesign: null,
    mayWrite: WRITABLE,
    readOnly: [],
    testCommand: 'npm test',
    migrations: 'migrations',
    attempt: 1,
    round: 1,
    failure: null,
    guidance: null,
    diff: null,
  };
}

/**
 * The part every working step shares: an enforced agent turn in a worktree, then (unless the turn
 * kept nothing worth running) the orchestrator's own test run on a throwaway branch — with the
 * live events, and the record fields and blobs each verdict carries.
 */
import type { Role, TurnStep } from '../agents/agent-port';
import type { StepInput } from '../orchestrator/cycle-types';
import type { Lock } from '../runner/lock-set';
import type { ControlledRunResult } from '../runner/controlled-run';
import type { CycleDeps } from './cycle-deps';
import { promptFor } from './prompts';
import { contextPack } from './context-pack';
import { agentTurn, turnBlobs } from './agent-turn';
import type { StepFields } from '../../shared/records';
import type { Blob } from './records';
import { keptBlobs, keptSummary, lockRulesFor, compact, recordsFor, runBlobs, scopeFor } from './step-support';
import { dependenciesFor, honourRequests, projectPackages } from './dependencies';
import { RECORD_TYPES } from '../../shared/records';
import { runTwice, type TestRunOutcome } from './test-run';
import { describeTurn, type EnforcedTurn } from './turn';

export interface TurnAndRun {
  readonly turn: EnforcedTurn;
  /** The first of the orchestrator's two runs (its report is judged), or null when nothing ran. */
  readonly run: ControlledRunResult | null;
  /** Both runs: integrity problems, flaky tests, flags, the tested tree. */
  readonly test: TestRunOutcome | null;
  /** Record fields common to every verdict: what the turn kept and reverted, the run's figures. */
  readonly fields: StepFields;
  readonly blobs: Blob[];
}

export async function turnAndRun(
  deps: CycleDeps,
  input: StepInput,
  request: {
    role: Extract<Role, 'navigator' | 'driver'>;
    step: TurnStep;
    worktree: string;
    database: string;
    /** The lock the turn is held to (every earlier item's locked files at RED, the cycle's own after LOCK). */
    lock: Lock | null;
    /** RED: the Navigator may add test files under the lock, never change a locked one. */
    newTests?: boolean;
    /** GREEN: the RED tree and the tests that failed there, for the RED re-check (test-run.ts). */
    recheck?: { tree: string; failing: readonly string[] };
    runWhen?: (turn: EnforcedTurn) => boolean;
  },
): Promise<TurnAndRun> {
  const { role, step, worktree } = request;
  deps.emit({ kind: 'turn.started', item: input.item, role, step, attempt: input.attempt });
  const scope = scopeFor(deps, role);
  const context = await contextPack(deps, input, role, step, {
    mayWrite: scope.allowed,
    readOnly: request.lock ? request.lock.set.files.map((f) => f.path) : [],
  });
  const turn = await agentTurn(deps, input, request.database, {
    role,
    step,
    worktree,
    failure: step === 'green' ? input.failure : null,
    context,
    prompt: promptFor(context),
    scope,
    lock: request.lock ? { lock: request.lock, rules: lockRulesFor(deps), ...(request.newTests ? { newTests: true } : {}) } : null,
    migrations: deps.settings.migrations?.path ?? null,
  });
  // What the Driver asked to have installed: done (or refused) by the orchestrator, recorded before the run.
  const requested = role === 'driver' ? await honourRequests(deps, worktree, step, turn.result.said ?? '') : null;
  if (requested) {
    // Said in the live transcript, where the Driver's request was.
    const said = [
      ...requested.installed.map((d) => `[baton] installed ${d.name}@${d.spec} (${d.version}${d.dev ? ', dev' : ''}) as the Driver asked`),
      ...requested.refused.map((r) => `[baton] refused "${r.line}": ${r.why}`),
    ];
    deps.emit({ kind: 'turn.output', item: input.item, chunk: `${said.join('\n')}\n` });
    const { blobs: amended, ...data } = requested;
    await recordsFor(deps, input).once(
      RECORD_TYPES.cycleDependencies,
      `dependencies:${step}:${input.attempt}`,
      { attempt: input.attempt, step, ...data },
      amended,
    );
  }
  const fields: StepFields = {
    attempt: input.attempt,
    violations: turn.violations.length,
    kept: keptSummary(turn.kept),
    outOfScope: turn.outOfScope.map((o) => ({ path: o.change.path, kind: o.change.kind, why: o.why })),
    turnMs: turn.result.ms,
    agentExitCode: turn.result.exitCode,
    // Code that tells a test run apart: GREEN and REFACTOR judge these (cycle-tells.ts) and record what they decided.
    tells: turn.tells,
    ...(turn.result.usage ? { agent: turn.result.usage } : {}),
  };
  const blobs: Blob[] = [...turnBlobs(turn), { name: 'agent/changes.txt', content: describeTurn(turn) }, ...(await keptBlobs(worktree, turn.kept))];
  if (request.runWhen && !request.runWhen(turn)) return { turn, run: null, test: null, fields, blobs };
  return { turn, ...(await orchestratorRun(deps, input, { ...request, fields, blobs })) };
}

/**
 * The orchestrator's own two runs of a worktree (and the RED re-check), with the live events and
 * the record fields and blobs a verdict carries; `fields` and `blobs` say what came before the run.
 */
export async function orchestratorRun(
  deps: CycleDeps,
  input: StepInput,
  request: {
    step: TurnStep;
    worktree: string;
    database: string;
    lock: Lock | null;
    recheck?: { tree: string; failing: readonly string[] };
    fields: StepFields;
    blobs: Blob[];
  },
): Promise<{ run: ControlledRunResult; test: TestRunOutcome; fields: StepFields; blobs: Blob[] }> {
  const { step, worktree, fields, blobs } = request;
  deps.emit({ kind: 'runner.started', item: input.item, step, command: deps.settings.testCommand ?? '' });
  const test = await runSuite(deps, {
    worktree,
    database: request.database,
    locked: request.lock ? request.lock.set.files.map((f) => f.path) : [],
    item: input.item,
    ...(request.recheck ? { recheck: request.recheck } : {}),
  });
  const { run, second, migrations, ms } = test;
  const runFields: StepFields = {
    ...fields,
    cases: compact(run.report),
    totals: run.report.totals,
    exitCode: run.exitCode,
    runMs: run.ms,
    testRunMs: ms,
    secondRunMs: test.secondMs,
    recheckMs: test.recheckMs,
    runnerSandbox: run.sandbox || null,
    migrations: migrations ? (migrations as { applied: readonly string[] }).applied : [],
    // What makes the verdict trustworthy, or not: the tree run, the runner, the checks.
    tree: run.tree,
    runner: run.family,
    files: run.files,
    canaries: run.canaries,
    secondRun: second ? { exitCode: second.exitCode, totals: second.report.totals } : null,
    integrity: test.integrity,
    flaky: test.flaky,
    unexplained: test.unexplained,
    flags: test.flags,
  };
  return { run, test, fields: runFields, blobs: [...blobs, ...runBlobs(run), ...(second ? runBlobs(second, 'runner/second/') : [])] };
}

/**
 * The orchestrator's two runs (test-run.ts) as every step makes them: on a throwaway of `database`,
 * in this run's site, with the feature's dependencies and the hidden folders, the output streamed
 * live (the ledger keeps all of it). `tree`: a committed tree to run instead of the worktree's.
 */
export async function runSuite(
  deps: CycleDeps,
  request: {
    worktree: string;
    database: string;
    locked: readonly string[];
    item: string | null;
    tree?: string;
    recheck?: { tree: string; failing: readonly string[] };
  },
): Promise<TestRunOutcome> {
  const readOnly = await projectPackages(deps);
  const twice = () =>
    runTwice({
      provider: deps.provider,
      parentDatabase: request.database,
      settings: deps.settings,
      worktree: request.worktree,
      site: deps.runSite,
      locked: request.locked,
      hide: deps.hide,
      dependencies: dependenciesFor(deps),
      readOnly,
      ...(request.tree ? { tree: request.tree } : {}),
      ...(request.recheck ? { recheck: request.recheck } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
      onOutput: (chunk: string) => deps.emit({ kind: 'runner.output', item: request.item, chunk }),
    });
  // Lanes built at once: no agent turn of another lane runs while this run's databases are served.
  return deps.gate ? deps.gate.run(twice) : twice();
}

/**
 * BUILDING: one cycle machine per test-list item, in list order, each resumed from its persisted
 * snapshot. An escalated item does not stop the others; the lifecycle escalates after the build
 * when any item did. A person's decision on an escalation (in the ledger) says what the next build
 * does with the item: `retry` runs its next round from PLAN, `skip` sets it aside; undecided, it
 * stays escalated.
 */
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { fromPromise } from 'xstate';
import type { TestItem } from '../../shared/model';
import { CYCLE_VERSION, cycleMachine } from '../orchestrator/cycle-machine';
import type { CycleOutput } from '../orchestrator/cycle-types';
import type { CycleDeps } from './cycle-deps';
import { greenStep, refactorStep, reviewStep } from './green-steps';
import { commitWithEvidence, git, removeWorktree } from './git';
import { type CycleRecords } from './records';
import { lockStep, planStep, redStep } from './red-steps';
import type { StateStore } from './state-store';
import { runPersisted } from './persisted-machine';
import { cycleWorktree, recordsFor, setItemStatus } from './step-support';
import { cycleIdFor, escalationsOf, foldEscalations } from '../gates/escalations';
import type { StepInput } from '../orchestrator/cycle-types';
import { LaneGate } from './lane-gate';
import { laneDependenciesDir } from './dependencies';
import { detectBubblewrap } from '../process/sandbox';
import type { ProjectSettings } from '../project/settings';

export interface BuildResult {
  readonly outputs: readonly CycleOutput[];
  readonly escalated: number;
}

/**
 * An escalated item waits for a person; its locked tests leave the experiment branch (the lock
 * commit is reverted, by the orchestrator, with the evidence trailer) so the suite the next items
 * are judged against stays green. The tests stay in the ledger and in git history.
 */
async function parkEscalated(deps: CycleDeps, records: CycleRecords, input: StepInput, evidence: string): Promise<void> {
  const locked = await records.find(RECORD_TYPES.cycleLocked, 'lock');
  if (!locked) return;
  const pair = await deps.experiment(input.story);
  const lockCommit = await commitWithEvidence(deps.root, pair.gitBranch, locked.hash);
  if (!lockCommit || (await commitWithEvidence(deps.root, pair.gitBranch, evidence))) return;
  try {
    await git(pair.worktree, ['revert', '--no-commit', lockCommit]);
  } catch (error) {
    // Later commits touched the same files: leave the tests in place and say so in the ledger.
    await git(pair.worktree, ['revert', '--abort']).catch(() => undefined);
    await records.once(RECORD_TYPES.cycleFinished, 'parking-failed', {
      reason: `The locked tests could not be taken off ${pair.gitBranch}: ${(error as Error).message}`,
    });
    return;
  }
  // The commit names its evidence: that record is made durable first.
  await deps.ledger.sync();
  await git(pair.worktree, [
    '-c',
    'user.name=Baton',
    '-c',
    'user.email=orchestrator@baton.invalid',
    'commit',
    '--no-verify',
    '-q',
    '-m',
    `revert(${input.item}): escalated, its locked tests wait for a person\n\nBaton-Evidence: ${evidence}`,
  ]);
}

/** How a build runs its items: which stories may be built at once (lanes.ts), how many at once, where each slot's test runs happen. */
export interface BuildPlan {
  readonly repairBudget: number;
  /** Stories in lanes (an item whose story is in none is built in the first). Default: every story in one lane. */
  readonly lanes?: readonly (readonly string[])[];
  /** Lanes built at the same time (`parallel` in project.json). Default 1. */
  readonly parallel?: number;
  /** The run site of slot `n` (slot 0 is deps.runSite): each lane built at once runs its tests in its own folder. */
  readonly siteFor?: (slot: number) => CycleDeps['runSite'];
}

/**
 * Builds the items lane by lane, up to `parallel` lanes at once; inside a lane, in list order (each
 * story stacked on the ones before it). Lanes share nothing but the ledger, whose appends are one
 * ordered chain. A lane that fails stops the others (their snapshots resume them), then the build throws.
 */
export async function buildItems(deps: CycleDeps, store: StateStore, items: readonly TestItem[], plan: BuildPlan): Promise<BuildResult> {
  const storyOf = (item: TestItem) => item.storyId ?? 'unassigned';
  const lanes = plan.lanes ?? [[...new Set(items.map(storyOf))]];
  const laneOf = (item: TestItem) =>
    Math.max(
      0,
      lanes.findIndex((lane) => lane.includes(storyOf(item))),
    );
  const work = lanes.map((_, index) => items.filter((item) => laneOf(item) === index)).filter((lane) => lane.length > 0);
  const stop = new AbortController();
  const signal = deps.signal ? AbortSignal.any([deps.signal, stop.signal]) : stop.signal;
  const outputs = new Map<string, CycleOutput>();
  let next = 0;
  const slots = Math.max(1, Math.min(plan.parallel ?? 1, work.length));
  const gate = slots > 1 ? new LaneGate(await runsCannotReachNetwork(deps.settings)) : null;
  // Each lane installs and runs with its own packages while it is built apart (dependencies.ts).
  const merged = new Set(
    recordsOf((await deps.ledger.read()).records, RECORD_TYPES.storyMerged)
      .filter((r) => r.subject.feature === deps.feature)
      .map((r) => r.data.story),
  );
  const packagesOf = (items: readonly TestItem[]) => laneDependenciesDir(deps.dependenciesDir, lanes, lanes[laneOf(items[0]!)] ?? [], merged);
  const slot = async (n: number): Promise<void> => {
    const mine: CycleDeps = { ...deps, signal, runSite: n === 0 ? deps.runSite : (plan.siteFor?.(n) ?? deps.runSite), ...(gate ? { gate } : {}) };
    for (let lane = work[next++]; lane && !signal.aborted; lane = work[next++])
      await buildLane({ ...mine, dependenciesDir: packagesOf(lane) }, store, lane, plan.repairBudget, outputs);
  };
  const settled = await Promise.allSettled(
    Array.from({ length: slots }, (_, n) =>
      slot(n).catch((error: unknown) => {
        stop.abort();
        throw error;
      }),
    ),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const done = items.flatMap((item) => outputs.get(item.id) ?? []);
  return { outputs: done, escalated: done.filter((o) => o.status === 'escalated').length };
}

async function buildLane(
  deps: CycleDeps,
  store: StateStore,
  items: readonly TestItem[],
  repairBudget: number,
  outputs: Map<string, CycleOutput>,
): Promise<void> {
  // Every step first re-judges the gates it builds on: a test list edited mid-run builds nothing more.
  // A step's records are one group commit (one fsync of the ledger, ledger-group.ts), durable
  // before the step's outcome moves the machine and its snapshot is written.
  const guarded = <T>(step: string, run: (deps: CycleDeps, input: StepInput) => Promise<T>) =>
    fromPromise<T, StepInput>(async ({ input }) => {
      await deps.guard(step, input.item);
      return deps.ledger.group(() => run(deps, input));
    });
  const machine = cycleMachine.provide({
    actors: {
      plan: guarded('plan', planStep),
      red: guarded('red', redStep),
      lock: guarded('lock', lockStep),
      green: guarded('green', greenStep),
      refactor: guarded('refactor', refactorStep),
      review: guarded('review', reviewStep),
    },
  });
  const decisions = foldEscalations((await deps.ledger.read()).records);
  for (const item of items) {
    if (deps.signal?.aborted) break;
    const story = item.storyId ?? 'unassigned';
    const { round, decided, open } = escalationsOf(decisions, deps.feature, item.id);
    if (!open && decided?.decision === 'skip') {
      const step = { feature: deps.feature, story, item: item.id, repairBudget, round: decided.round, guidance: null, attempt: 1, failure: null };
      await setItemStatus(deps, recordsFor(deps, step), step, 'skipped', 'status:skipped');
      continue;
    }
    const name = round > 1 ? `cycle-${item.id}-r${round}` : `cycle-${item.id}`;
    const guidance = round > 1 && decided?.decision === 'retry' ? decided.note : null;
    // An approved test amendment: this round runs RED against the amended tests (amend-steps.ts).
    const amendment = round > 1 && decided?.decision === 'retry' ? decided.amendment : null;
    const input = { feature: deps.feature, story, item: item.id, repairBudget, round, guidance, ...(amendment ? { amendment } : {}) };
    const done = await runPersisted({
      machine,
      version: CYCLE_VERSION,
      store,
      name,
      input,
      signal: deps.signal,
      // Counts are the ledger's (shared/cycle-counts.ts): the machine's own are its repair budget.
      onState: (state) => deps.emit({ kind: 'cycle.state', feature: deps.feature, item: item.id, state: state as never }),
    });
    if (done.status !== 'done') break; // stopped: the snapshot on disk resumes it next time
    const output = done.output as CycleOutput;
    outputs.set(item.id, output);
    const step = { ...input, attempt: 1, failure: null };
    await removeWorktree(deps.root, cycleWorktree(deps, step));
    const records = recordsFor(deps, step);
    await deps.ledger.group(async () => {
      const finished = await records.once(RECORD_TYPES.cycleFinished, 'finished', { ...output, cycle: cycleIdFor(deps.feature, item.id, round), round });
      if (output.status === 'escalated') {
        await parkEscalated(deps, records, step, finished.hash);
        await setItemStatus(deps, records, step, 'escalated', 'status:escalated');
      }
    });
  }
}

/** Test runs in bubblewrap with the network cut (the default where bubblewrap can) cannot reach another lane's databases. */
async function runsCannotReachNetwork(settings: ProjectSettings): Promise<boolean> {
  if (settings.sandbox === 'off' || settings.testNetwork === 'shared') return false;
  const support = await detectBubblewrap();
  return support.ok && support.unshareNet;
}

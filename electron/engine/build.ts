/**
 * BUILDING: one cycle machine per test-list item, in list order, each resumed from its persisted
 * snapshot. An escalated item does not stop the others; the lifecycle escalates after the build
 * when any item did. A person's decision on an escalation (in the ledger) says what the next build
 * does with the item: `retry` runs its next round from PLAN, `skip` sets it aside; undecided, it
 * stays escalated.
 */
import { RECORD_TYPES } from '../../shared/records';
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

export async function buildItems(deps: CycleDeps, store: StateStore, items: readonly TestItem[], repairBudget: number): Promise<BuildResult> {
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
  const outputs: CycleOutput[] = [];
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
      onState: (state, snapshot) => {
        const c = snapshot.context;
        deps.emit({
          kind: 'cycle.state',
          feature: deps.feature,
          item: item.id,
          state: state as never,
          counters: { repairs: c.repairs, violations: c.violations, rejectedRed: c.rejectedRed, refactors: c.refactors },
        });
      },
    });
    if (done.status !== 'done') break; // stopped: the snapshot on disk resumes it next time
    const output = done.output as CycleOutput;
    outputs.push(output);
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
  return { outputs, escalated: outputs.filter((o) => o.status === 'escalated').length };
}

/**
 * PLAN, RED and LOCK. The Navigator writes tests in the cycle's worktree — under every earlier item's
 * lock: it may add test files, never change one; the orchestrator runs the tree twice on throwaway
 * databases and judges RED against the last accepted run; a RED is locked (hashes and contents in
 * the ledger) and exactly the tree that was run is committed on the experiment branch.
 */
import { RECORD_TYPES, recordOf, type RecordData } from '../../shared/records';
import { matchesAny } from '../../shared/glob';
import type { RedOutcome, StepInput } from '../orchestrator/cycle-types';
import { judgeRed } from '../orchestrator/judge';
import { takeLock } from '../runner/lock-set';
import type { CycleDeps, ExperimentPair } from './cycle-deps';
import { keepMigrated } from './feature-db';
import { earlierLock } from './feature-lock';
import { branchHead, commitTree, commitWithEvidence, fastForward, resetWorktree } from './git';
import { type CycleRecords } from './records';
import { casesOf, cycleWorktree, lockRulesFor, materialize, recordsFor, setItemStatus } from './step-support';
import { cycleIdFor } from '../gates/escalations';
import { trustOf } from './trust';
import { turnAndRun } from './turn-and-run';
import { amendedRedStep } from './amend-steps';

export async function planStep(deps: CycleDeps, input: StepInput): Promise<void> {
  const pair = await deps.experiment(input.story);
  const startCommit = await branchHead(deps.root, pair.gitBranch);
  await recordsFor(deps, input).once(RECORD_TYPES.cyclePlanned, 'plan', { experiment: pair.gitBranch, database: pair.database, startCommit });
}

export async function redStep(deps: CycleDeps, input: StepInput): Promise<RedOutcome> {
  if (input.amendment) return amendedRedStep(deps, { ...input, amendment: input.amendment });
  const records = recordsFor(deps, input);
  const key = `red:${input.attempt}`;
  const found = await records.find(RECORD_TYPES.cycleRed, key);
  if (found) return redOutcome(found.data, found.hash);
  const pair = await deps.experiment(input.story);
  // The cycle's one worktree, reset to the branch: an earlier rejected attempt leaves nothing in it.
  const worktree = cycleWorktree(deps, input);
  await resetWorktree(deps.root, worktree, pair.gitBranch);
  const earlier = await earlierLock(deps, cycleIdFor(input.feature, input.item, input.round), input.story);
  const { turn, run, test, fields, blobs } = await turnAndRun(deps, input, {
    role: 'navigator',
    step: 'red',
    worktree,
    database: pair.database,
    lock: earlier,
    newTests: true,
  });
  if (turn.violations.length) await recordViolation(deps, records, input, 'red', turn, earlier ? "an earlier item's lock" : 'the lock');
  const testFiles = turn.kept.filter((c) => matchesAny(c.path, deps.settings.testGlobs)).length;
  const trust = trustOf(test!);
  const judged = trust ?? judgeRed(await deps.baseline.get(input.story), run!.report, testFiles);
  const data = {
    ...fields,
    verdict: judged.verdict,
    detail:
      judged.verdict === 'red'
        ? `failing: ${judged.failing.join(', ')}`
        : // No agent took the turn (a scripted scenario with no turn for a rebuild): that, not "the Navigator wrote no test".
          judged.verdict === 'no-test' && turn.result.declined
          ? `the Navigator took no turn: ${turn.result.declined}`
          : judged.detail,
    failing: judged.verdict === 'red' ? judged.failing : [],
    worktree,
  };
  const record = await records.append(RECORD_TYPES.cycleRed, key, data, blobs);
  return redOutcome(data, record.hash);
}

/** A turn's changes to locked files (or to Baton's bookkeeping), restored: recorded once per attempt, with what was written. */
export async function recordViolation(
  deps: CycleDeps,
  records: CycleRecords,
  input: StepInput,
  step: string,
  turn: { violations: readonly { path: string; kind: string }[]; tampered: ReadonlyArray<{ path: string; content: Buffer | null }> },
  against: string,
): Promise<void> {
  const role = step === 'red' || step === 'review' ? 'navigator' : 'driver';
  await records.once(
    RECORD_TYPES.cycleViolation,
    `violation:${step}:${input.attempt}`,
    { attempt: input.attempt, step, files: turn.violations.map((v) => ({ path: v.path, kind: v.kind })), against },
    turn.tampered.map((t) => ({ name: `tampered/${t.path}`, content: t.content ?? '(deleted)' })),
    { kind: 'agent', id: `${role}:${deps.agent(role).name}` },
  );
}

function redOutcome(data: Pick<RecordData<typeof RECORD_TYPES.cycleRed>, 'verdict' | 'detail'>, record: string): RedOutcome {
  return data.verdict === 'red' ? { verdict: data.verdict, record } : { verdict: data.verdict, record, detail: data.detail ?? '' };
}

export async function lockStep(deps: CycleDeps, input: StepInput): Promise<{ record: string }> {
  const records = recordsFor(deps, input);
  const pair = await deps.experiment(input.story);
  const reds = (await records.all(RECORD_TYPES.cycleRed)).filter((r) => r.data.verdict === 'red');
  const red = reds.at(-1);
  if (!red) throw new Error(`No RED verdict recorded for ${input.item}: nothing to lock.`);
  const worktree = red.data.worktree;
  let locked = await records.find(RECORD_TYPES.cycleLocked, 'lock');
  if (!locked) {
    await materialize(deps, records, red, worktree, pair);
    const lock = await takeLock(worktree, lockRulesFor(deps));
    if (input.amendment) await checkAmended(deps, input.amendment, lock.set.files);
    locked = await records.append(
      RECORD_TYPES.cycleLocked,
      'lock',
      {
        files: lock.set.files,
        testCommand: lock.set.testCommand,
        testCommandSha256: lock.set.testCommandSha256,
        cases: casesOf(red).cases,
        red: red.hash,
        tree: red.data.tree ?? null,
        ...(input.amendment ? { amendment: input.amendment } : {}),
      },
      [...lock.snapshot].map(([path, state]) => ({ name: `locked/${path}`, content: state.content ?? Buffer.alloc(0) })),
    );
  }
  await commitTested(deps, locked.hash, treeOf(red), pair, `test(${input.item}): RED, tests locked`);
  await setItemStatus(deps, records, input, 'red', 'status:red');
  return { record: locked.hash };
}

/** An amendment round locks exactly the approved contents: fail closed if the tree holds anything else. */
async function checkAmended(deps: CycleDeps, amendment: string, files: readonly { path: string; sha256: string }[]): Promise<void> {
  const record = recordOf(
    (await deps.ledger.read()).records.find((r) => r.hash === amendment),
    RECORD_TYPES.testAmendment,
  );
  const wrong = (record?.data.files ?? []).filter((a) => files.find((f) => f.path === a.path)?.sha256 !== a.sha256).map((a) => a.path);
  if (!record || wrong.length)
    throw new Error(`The tests about to be locked are not the approved amendment's (${wrong.join(', ') || 'no such amendment'}): nothing was locked.`);
}

/** The tree a verdict's run tested. */
export const treeOf = (record: { readonly type: string; readonly seq: number; readonly data: { readonly tree?: string | null } }): string => {
  if (typeof record.data.tree !== 'string')
    throw new Error(`The ${record.type} record #${record.seq} names no tested tree: it was made by an older Baton. Reset the item's cycle to run it again.`);
  return record.data.tree;
};

/**
 * Commits exactly the tested tree on the experiment branch with the evidence trailer, unless that
 * commit exists already (a re-run), fast-forwards the branch's worktree to it, and brings the
 * feature database up to its migrations (feature-db.ts).
 */
export async function commitTested(deps: CycleDeps, evidence: string, tree: string, pair: ExperimentPair, subject: string): Promise<string> {
  const existing = await commitWithEvidence(deps.root, pair.gitBranch, evidence);
  if (existing) return existing;
  // The commit names its evidence: that record must be on disk before the commit is (ledger group commit).
  await deps.ledger.sync();
  const parent = await branchHead(deps.root, pair.gitBranch);
  const commit = await commitTree(deps.root, tree, parent, `${subject}\n\nBaton-Evidence: ${evidence}`);
  await fastForward(pair.worktree, commit);
  await keepMigrated(deps, pair, parent, commit);
  return commit;
}

/**
 * PLAN, RED and LOCK. The Navigator writes tests in a fresh worktree; the orchestrator runs the
 * suite itself on a throwaway database and judges RED against the last accepted run; a RED is
 * locked (hashes and contents in the ledger) and committed on the experiment branch.
 */
import { existsSync } from 'node:fs';
import { matchesAny } from '../../../shared/glob';
import type { RedOutcome, StepInput } from '../../orchestrator/cycle-types';
import { judgeRed } from '../../orchestrator/judge';
import { takeLock } from '../../runner/lock-set';
import type { CycleDeps } from './cycle-deps';
import { addWorktree, commitAll, commitWithEvidence, fastForward, git, removeWorktree } from './git';
import { CYCLE_RECORDS, type CycleRecords } from './records';
import { casesOf, lockRulesFor, materialize, recordsFor, setItemStatus, turnPath } from './step-support';
import { turnAndRun } from './turn-and-run';

export async function planStep(deps: CycleDeps, input: StepInput): Promise<void> {
  const pair = await deps.experiment(input.story);
  const startCommit = await git(deps.root, ['rev-parse', pair.gitBranch]);
  await recordsFor(deps, input).once(CYCLE_RECORDS.planned, 'plan', { experiment: pair.gitBranch, database: pair.database, startCommit });
}

export async function redStep(deps: CycleDeps, input: StepInput): Promise<RedOutcome> {
  const records = recordsFor(deps, input);
  const key = `red:${input.attempt}`;
  const found = await records.find(CYCLE_RECORDS.red, key);
  if (found) return redOutcome(found.data, found.hash);
  const pair = await deps.experiment(input.story);
  const worktree = turnPath(deps, input, `red-${input.attempt}`);
  await addWorktree(deps.root, worktree, pair.gitBranch);
  const { turn, run, fields, blobs } = await turnAndRun(deps, input, { role: 'navigator', step: 'red', worktree, database: pair.database, lock: null });
  const testFiles = turn.kept.filter((c) => matchesAny(c.path, deps.settings.testGlobs)).length;
  const judged = judgeRed(await deps.baseline.get(input.story), run!.report, testFiles);
  const data = {
    ...fields,
    verdict: judged.verdict,
    detail: judged.verdict === 'red' ? `failing: ${judged.failing.join(', ')}` : judged.detail,
    failing: judged.verdict === 'red' ? judged.failing : [],
    worktree,
  };
  const record = await records.append(CYCLE_RECORDS.red, key, data, blobs);
  if (judged.verdict !== 'red') await removeWorktree(deps.root, worktree);
  return redOutcome(data, record.hash);
}

function redOutcome(data: Record<string, unknown>, record: string): RedOutcome {
  const verdict = data.verdict as RedOutcome['verdict'];
  return verdict === 'red' ? { verdict, record } : { verdict, record, detail: String(data.detail ?? '') };
}

export async function lockStep(deps: CycleDeps, input: StepInput): Promise<{ record: string }> {
  const records = recordsFor(deps, input);
  const pair = await deps.experiment(input.story);
  const reds = (await records.all(CYCLE_RECORDS.red)).filter((r) => r.data.verdict === 'red');
  const red = reds.at(-1);
  if (!red) throw new Error(`No RED verdict recorded for ${input.item}: nothing to lock.`);
  const worktree = String(red.data.worktree);
  let locked = await records.find(CYCLE_RECORDS.locked, 'lock');
  if (!locked) {
    await materialize(deps, records, red, worktree, pair);
    const lock = await takeLock(worktree, lockRulesFor(deps));
    locked = await records.append(
      CYCLE_RECORDS.locked,
      'lock',
      { files: lock.set.files, testCommand: lock.set.testCommand, testCommandSha256: lock.set.testCommandSha256, cases: casesOf(red).cases, red: red.hash },
      [...lock.snapshot].map(([path, state]) => ({ name: `locked/${path}`, content: state.content ?? Buffer.alloc(0) })),
    );
  }
  await ensureCommitted(deps, records, locked.hash, worktree, pair, `test(${input.item}): RED, tests locked`, red);
  await setItemStatus(deps, records, input, 'red', 'status:red');
  return { record: locked.hash };
}

/** Commit the worktree with the evidence trailer unless that commit exists already (a re-run), then fast-forward the experiment branch. */
export async function ensureCommitted(
  deps: CycleDeps,
  records: CycleRecords,
  evidence: string,
  worktree: string,
  pair: { gitBranch: string; worktree: string },
  subject: string,
  source: Parameters<typeof materialize>[2] | null,
): Promise<string> {
  const existing = await commitWithEvidence(deps.root, pair.gitBranch, evidence);
  if (existing) {
    await removeWorktree(deps.root, worktree);
    return existing;
  }
  if (!existsSync(worktree) && source) await materialize(deps, records, source, worktree, { ...pair, database: '' });
  const commit = await commitAll(worktree, subject, evidence);
  await fastForward(pair.worktree, commit);
  await removeWorktree(deps.root, worktree);
  return commit;
}

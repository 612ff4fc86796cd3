/**
 * GREEN (with repair rounds), REFACTOR and REVIEW. Each Driver turn gets a fresh worktree; a
 * repair round's starts from the experiment branch plus what the earlier attempts kept (replayed
 * from their records); locked files it touches are restored and recorded as violations;
 * the orchestrator runs the suite on a fresh database and commits a GREEN itself, with the
 * verdict's record hash as the `Baton-Evidence` trailer.
 */
import { existsSync } from 'node:fs';
import type { LedgerRecord } from '../../../shared/ledger';
import type { GreenOutcome, RefactorOutcome, ReviewOutcome, StepInput } from '../../orchestrator/cycle-types';
import { judgeGreen } from '../../orchestrator/judge';
import type { Lock } from '../../runner/lock-set';
import type { FileState } from '../../agents/tree-snapshot';
import type { CycleDeps } from './cycle-deps';
import { addWorktree, commitWithEvidence, diffBetween, git, removeWorktree } from './git';
import { promptFor } from './prompts';
import { CYCLE_RECORDS, type CycleRecords } from './records';
import { ensureCommitted } from './red-steps';
import { applyKept, casesOf, compact, recordsFor, setItemStatus, turnPath } from './step-support';
import { enforcedTurn } from './turn';
import { turnAndRun } from './turn-and-run';

async function loadLock(records: CycleRecords): Promise<{ record: LedgerRecord; lock: Lock }> {
  const record = await records.find(CYCLE_RECORDS.locked, 'lock');
  if (!record) throw new Error('No LOCK recorded for this cycle: GREEN cannot run before the tests are locked.');
  const files = record.data.files as Array<{ path: string; sha256: string; bytes: number; mode: number }>;
  const snapshot = new Map<string, FileState>();
  for (const f of files) snapshot.set(f.path, { sha256: f.sha256, bytes: f.bytes, mode: f.mode, symlink: null, content: (await records.blobBytes(record, `locked/${f.path}`)) ?? Buffer.alloc(0) });
  return { record, lock: { set: { files, testCommand: String(record.data.testCommand), testCommandSha256: String(record.data.testCommandSha256) }, snapshot } };
}

export async function greenStep(deps: CycleDeps, input: StepInput): Promise<GreenOutcome> {
  const records = recordsFor(deps, input);
  const key = `green:${input.attempt}`;
  const pair = await deps.experiment(input.story);
  const worktree = turnPath(deps, input, `green-${input.attempt}`);
  const found = await records.find(CYCLE_RECORDS.green, key);
  if (found) {
    if (found.data.verdict === 'green') await finishGreen(deps, records, input, found, worktree, pair);
    return greenOutcome(found);
  }
  const { record: lockRecord, lock } = await loadLock(records);
  await greenWorktree(deps, records, worktree, pair.gitBranch, input.attempt - 1);
  const { turn, run, fields, blobs } = await turnAndRun(deps, input, { role: 'driver', step: 'green', worktree, database: pair.database, lock });
  if (turn.violations.length) {
    await records.append(
      CYCLE_RECORDS.violation,
      `violation:${input.attempt}`,
      { attempt: input.attempt, step: 'green', files: turn.violations.map((v) => ({ path: v.path, kind: v.kind })), restoredFrom: lockRecord.hash },
      turn.tampered.map((t) => ({ name: `tampered/${t.path}`, content: t.content ?? '(deleted)' })),
      { kind: 'agent', id: `driver:${deps.agent('driver').name}` },
    );
  }
  const judged = judgeGreen(casesOf(lockRecord), run!.report);
  const record = await records.append(
    CYCLE_RECORDS.green,
    key,
    { ...fields, verdict: judged.verdict, failure: judged.verdict === 'failing' ? judged.failure : null, lock: lockRecord.hash },
    blobs,
  );
  if (judged.verdict === 'green') await finishGreen(deps, records, input, record, worktree, pair);
  else {
    // The next repair round starts in a fresh worktree rebuilt from this record.
    await removeWorktree(deps.root, worktree);
    await setItemStatus(deps, records, input, 'red', `status:failing:${input.attempt}`);
  }
  return greenOutcome(record);
}

/** A fresh worktree at the experiment branch with the changes GREEN attempts 1..`through` kept. */
async function greenWorktree(deps: CycleDeps, records: CycleRecords, worktree: string, branch: string, through: number): Promise<void> {
  await addWorktree(deps.root, worktree, branch);
  for (let a = 1; a <= through; a += 1) {
    const earlier = await records.find(CYCLE_RECORDS.green, `green:${a}`);
    if (earlier) await applyKept(records, earlier, worktree);
  }
}

function greenOutcome(record: LedgerRecord): GreenOutcome {
  return { verdict: record.data.verdict as GreenOutcome['verdict'], violations: Number(record.data.violations ?? 0), record: record.hash, failure: (record.data.failure as string | null) ?? null };
}

/** Commit, attest, set the status and move the baseline; each part skips itself when already done. */
async function finishGreen(deps: CycleDeps, records: CycleRecords, input: StepInput, verdict: LedgerRecord, worktree: string, pair: { gitBranch: string; worktree: string }): Promise<void> {
  // A run killed between the verdict and the commit lost the worktree: rebuild it from the records.
  if (!existsSync(worktree) && !(await commitWithEvidence(deps.root, pair.gitBranch, verdict.hash))) await greenWorktree(deps, records, worktree, pair.gitBranch, input.attempt);
  const commit = await ensureCommitted(deps, records, verdict.hash, worktree, pair, `feat(${input.item}): GREEN`, null);
  const cases = casesOf(verdict).cases;
  await records.once(CYCLE_RECORDS.greened, 'greened', {
    commit,
    verdict: verdict.hash,
    command: deps.settings.testCommand,
    passedTests: cases.filter((c) => c.status === 'passed').map((c) => c.id),
    branch: pair.gitBranch,
  });
  await deps.baseline.set(input.story, { cases });
  await setItemStatus(deps, records, input, 'green', 'status:green');
}

export async function refactorStep(deps: CycleDeps, input: StepInput): Promise<RefactorOutcome> {
  const records = recordsFor(deps, input);
  const key = `refactor:${input.attempt}`;
  const found = await records.find(CYCLE_RECORDS.refactored, key);
  if (found) return { verdict: found.data.verdict as RefactorOutcome['verdict'], record: found.hash };
  const pair = await deps.experiment(input.story);
  const worktree = turnPath(deps, input, `refactor-${input.attempt}`);
  await addWorktree(deps.root, worktree, pair.gitBranch);
  const { record: lockRecord, lock } = await loadLock(records);
  const { turn, run, fields, blobs } = await turnAndRun(deps, input, { role: 'driver', step: 'refactor', worktree, database: pair.database, lock, runWhen: (t) => t.kept.length > 0 });
  if (!run) {
    await removeWorktree(deps.root, worktree);
    const record = await records.append(CYCLE_RECORDS.refactored, key, { ...fields, verdict: 'kept', detail: 'nothing to refactor' }, blobs);
    return { verdict: 'kept', record: record.hash };
  }
  const judged = judgeGreen(casesOf(lockRecord), run.report);
  // A refactor that touched the lock or broke the suite is undone as a whole.
  const verdict = judged.verdict === 'green' && turn.violations.length === 0 ? 'kept' : 'reverted';
  const detail = judged.verdict === 'failing' ? judged.failure : turn.violations.length ? 'locked files were changed' : 'suite stayed green';
  const record = await records.append(CYCLE_RECORDS.refactored, key, { ...fields, verdict, detail }, blobs);
  if (verdict === 'kept') {
    await ensureCommitted(deps, records, record.hash, worktree, pair, `refactor(${input.item}): suite stays green`, null);
    await deps.baseline.set(input.story, { cases: compact(run.report) });
    await setItemStatus(deps, records, input, 'refactored', `status:refactored`);
  } else await removeWorktree(deps.root, worktree);
  return { verdict, record: record.hash };
}

export async function reviewStep(deps: CycleDeps, input: StepInput): Promise<ReviewOutcome> {
  const records = recordsFor(deps, input);
  const key = `review:${input.attempt}`;
  const found = await records.find(CYCLE_RECORDS.reviewed, key);
  if (found) return { decision: found.data.decision as ReviewOutcome['decision'], note: (found.data.note as string | null) ?? null, record: found.hash };
  const pair = await deps.experiment(input.story);
  const planned = await records.find(CYCLE_RECORDS.planned, 'plan');
  const start = (planned?.data.startCommit as string | undefined) ?? null;
  const head = await git(deps.root, ['rev-parse', pair.gitBranch]);
  const diff = start ? await diffBetween(deps.root, start, head) : '';
  const worktree = turnPath(deps, input, `review-${input.attempt}`);
  await addWorktree(deps.root, worktree, pair.gitBranch);
  deps.emit({ kind: 'turn.started', item: input.item, role: 'navigator', step: 'review', attempt: input.attempt });
  // A reviewer writes nothing: an empty scope reverts whatever it changes.
  const turn = await enforcedTurn({
    agent: deps.agent('navigator'),
    role: 'navigator',
    step: 'review',
    item: input.item,
    attempt: input.attempt,
    round: input.round,
    worktree,
    failure: null,
    prompt: `${promptFor('navigator', 'review', input)}\n\n${diff}`,
    scope: { allowed: [], protected: [] },
    lock: null,
    ...(deps.signal ? { signal: deps.signal } : {}),
    onOutput: (chunk) => deps.emit({ kind: 'turn.output', item: input.item, chunk }),
  });
  await removeWorktree(deps.root, worktree);
  const review = turn.result.review ?? { decision: 'accept' as const, note: null };
  const record = await records.append(CYCLE_RECORDS.reviewed, key, { attempt: input.attempt, decision: review.decision, note: review.note, head, turnMs: turn.result.ms }, [
    { name: 'review/diff.patch', content: diff },
    { name: 'agent/transcript.txt', content: turn.result.transcript },
  ]);
  return { decision: review.decision, note: review.note, record: record.hash };
}

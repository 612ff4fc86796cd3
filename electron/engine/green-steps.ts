/**
 * GREEN (with repair rounds), REFACTOR and REVIEW. Each turn gets the cycle's worktree reset to
 * the experiment branch (nothing an earlier turn left survives it); a repair round's then gets what
 * the earlier attempts kept (replayed from their records); locked files it touches are restored and recorded as violations;
 * the orchestrator runs the suite on a fresh database and commits a GREEN itself, with the
 * verdict's record hash as the `Baton-Evidence` trailer.
 */
import { join } from 'node:path';
import { writeFileInside } from '../platform/contained-write';
import { RECORD_TYPES, type TypedRecord } from '../../shared/records';
import type { GreenOutcome, RefactorOutcome, ReviewOutcome, StepInput } from '../orchestrator/cycle-types';
import { judgeGreen } from '../orchestrator/judge';
import type { CycleDeps, ExperimentPair } from './cycle-deps';
import { branchHead, diffBetween, resetWorktree } from './git';
import { cycleLock } from './feature-lock';
import { trustOf } from './trust';
import { promptFor } from './prompts';
import { contextPack } from './context-pack';
import { agentTurn, turnBlobs } from './agent-turn';
import { type CycleRecords } from './records';
import { commitTested, recordViolation, treeOf } from './red-steps';
import { applyKept, casesOf, compact, cycleWorktree, recordsFor, setItemStatus } from './step-support';
import { turnAndRun } from './turn-and-run';
import { proposeFromReview } from './amend-steps';
import { cycleTells, keptBefore, recordTells, removeTells, tellsEscalation } from './cycle-tells';

export async function greenStep(deps: CycleDeps, input: StepInput): Promise<GreenOutcome> {
  const records = recordsFor(deps, input);
  const key = `green:${input.attempt}`;
  const pair = await deps.experiment(input.story);
  const worktree = cycleWorktree(deps, input);
  const found = await records.find(RECORD_TYPES.cycleGreen, key);
  if (found) {
    if (found.data.verdict === 'green') await finishGreen(deps, records, input, found, pair);
    return greenOutcome(input, found);
  }
  const { record: lockRecord, lock } = await cycleLock(deps, records);
  // The commit the attempt starts from: what the Driver's code is judged against for tells.
  const base = await branchHead(deps.root, pair.gitBranch);
  await greenWorktree(deps, records, worktree, pair.gitBranch, input.attempt - 1);
  const redTree = lockRecord.data.tree;
  const failingAtRed = casesOf(lockRecord)
    .cases.filter((c) => c.status === 'failed')
    .map((c) => c.id);
  const recheck = redTree ? { tree: redTree, failing: failingAtRed } : undefined;
  const { turn, run, test, fields, blobs } = await turnAndRun(deps, input, {
    role: 'driver',
    step: 'green',
    worktree,
    database: pair.database,
    lock,
    ...(recheck ? { recheck } : {}),
  });
  if (turn.violations.length) await recordViolation(deps, records, input, 'green', turn, 'the lock');
  const trust = trustOf(test!);
  // A run that cannot be trusted is a violation too: something the Driver wrote tampered with the verdict.
  if (trust?.verdict === 'compromised') await recordCompromised(deps, records, input, 'green', trust.detail);
  // Code that tells a test run apart, brought in by any attempt of this cycle, is no GREEN unless a person allowed it.
  const told = await cycleTells(deps, input, { worktree, base, kept: [...(await keptBefore(records, input.attempt)), ...turn.kept] });
  if (told.refused.length) await recordTells(deps, records, input, 'green', told.refused);
  const judged = trust ?? judgeGreen(casesOf(lockRecord), run!.report);
  const violations = turn.violations.length + (trust?.verdict === 'compromised' ? 1 : 0);
  const verdict = judged.verdict === 'green' && told.refused.length ? 'failing' : judged.verdict;
  const failure = judged.verdict === 'failing' ? judged.failure : trust ? trust.detail : null;
  const record = await records.append(
    RECORD_TYPES.cycleGreen,
    key,
    {
      ...fields,
      tells: told.tells,
      violations,
      verdict,
      failure: told.refused.length ? [failure, removeTells(told.refused)].filter(Boolean).join('\n\n') : failure,
      escalate:
        trust?.verdict === 'flaky'
          ? `The suite is flaky: ${trust.detail}.`
          : // No agent took the turn (a scripted scenario with no turn for it): no repair round can help, and "still failing" would mislead.
            verdict !== 'green' && turn.result.declined
            ? `The Driver took no turn: ${turn.result.declined}. Configure an agent for the Driver in Settings, or retry once one is.`
            : null,
      lock: lockRecord.hash,
    },
    blobs,
  );
  // A failing attempt: the next repair round resets the worktree and replays what this record kept.
  if (verdict === 'green') await finishGreen(deps, records, input, record, pair);
  else await setItemStatus(deps, records, input, 'red', `status:failing:${input.attempt}`);
  return greenOutcome(input, record);
}

/** A compromised run, recorded as a violation of the Driver's (the code under test is the Driver's). */
async function recordCompromised(deps: CycleDeps, records: CycleRecords, input: StepInput, step: string, detail: string): Promise<void> {
  await records.once(
    RECORD_TYPES.cycleViolation,
    `compromised:${step}:${input.attempt}`,
    { attempt: input.attempt, step, files: [], against: 'the test run', detail },
    [],
    {
      kind: 'agent',
      id: `driver:${deps.agent('driver').name}`,
    },
  );
}

/** The worktree reset to the experiment branch, with the changes GREEN attempts 1..`through` kept. */
async function greenWorktree(deps: CycleDeps, records: CycleRecords, worktree: string, branch: string, through: number): Promise<void> {
  await resetWorktree(deps.root, worktree, branch);
  for (let a = 1; a <= through; a += 1) {
    const earlier = await records.find(RECORD_TYPES.cycleGreen, `green:${a}`);
    if (earlier) await applyKept(records, earlier, worktree);
    // The manifest (and lockfile) the orchestrator rewrote for that attempt's dependency requests.
    const amended = await records.find(RECORD_TYPES.cycleDependencies, `dependencies:green:${a}`);
    for (const file of amended?.data.files ?? []) {
      const content = await records.blobBytes(amended!, `amended/${file.path}`);
      if (content) await writeFileInside(worktree, join(worktree, file.path), content);
    }
  }
}

function greenOutcome(input: StepInput, record: TypedRecord<typeof RECORD_TYPES.cycleGreen>): GreenOutcome {
  const refused = record.data.verdict === 'green' ? [] : record.data.tells.filter((t) => t.id && !t.allowed);
  return {
    verdict: record.data.verdict === 'green' ? 'green' : 'failing',
    violations: record.data.violations,
    record: record.hash,
    failure: record.data.failure ?? null,
    escalate: record.data.escalate ?? null,
    tells: refused.length ? tellsEscalation(input, refused) : null,
  };
}

/** Commit, attest, set the status and move the baseline; each part skips itself when already done. */
async function finishGreen(
  deps: CycleDeps,
  records: CycleRecords,
  input: StepInput,
  verdict: TypedRecord<typeof RECORD_TYPES.cycleGreen>,
  pair: ExperimentPair,
): Promise<void> {
  // Exactly the tree the runs tested is committed; the worktree is not needed for it.
  const commit = await commitTested(deps, verdict.hash, treeOf(verdict), pair, `feat(${input.item}): GREEN`);
  const cases = casesOf(verdict).cases;
  const greened = await records.once(RECORD_TYPES.cycleGreened, 'greened', {
    commit,
    verdict: verdict.hash,
    command: deps.settings.testCommand,
    passedTests: cases.filter((c) => c.status === 'passed').map((c) => c.id),
    branch: pair.gitBranch,
    tree: treeOf(verdict),
  });
  await deps.baseline.set(input.story, { cases });
  await setItemStatus(deps, records, input, 'green', 'status:green');
  // Its tests' strength is measured beside the next items' work (mutation/queue.ts); acceptance waits for it.
  deps.mutation?.after(deps, greened);
}

export async function refactorStep(deps: CycleDeps, input: StepInput): Promise<RefactorOutcome> {
  const records = recordsFor(deps, input);
  const key = `refactor:${input.attempt}`;
  const found = await records.find(RECORD_TYPES.cycleRefactored, key);
  if (found) return { verdict: found.data.verdict, record: found.hash };
  const pair = await deps.experiment(input.story);
  const worktree = cycleWorktree(deps, input);
  const base = await branchHead(deps.root, pair.gitBranch);
  await resetWorktree(deps.root, worktree, pair.gitBranch);
  const { record: lockRecord, lock } = await cycleLock(deps, records);
  const { turn, run, test, fields, blobs } = await turnAndRun(deps, input, {
    role: 'driver',
    step: 'refactor',
    worktree,
    database: pair.database,
    lock,
    runWhen: (t) => t.kept.length > 0,
  });
  if (turn.violations.length) await recordViolation(deps, records, input, 'refactor', turn, 'the lock');
  if (!run) {
    const record = await records.append(RECORD_TYPES.cycleRefactored, key, { ...fields, verdict: 'kept', detail: 'nothing to refactor' }, blobs);
    return { verdict: 'kept', record: record.hash };
  }
  const trust = trustOf(test!);
  if (trust?.verdict === 'compromised') await recordCompromised(deps, records, input, 'refactor', trust.detail);
  const told = await cycleTells(deps, input, { worktree, base, kept: turn.kept });
  if (told.refused.length) await recordTells(deps, records, input, 'refactor', told.refused);
  const judged = trust ?? judgeGreen(casesOf(lockRecord), run.report);
  // A refactor that touched the lock, broke the suite, could not be trusted or tells a test run apart is undone as a whole.
  const verdict = judged.verdict === 'green' && turn.violations.length === 0 && told.refused.length === 0 ? 'kept' : 'reverted';
  const detail = trust
    ? trust.detail
    : judged.verdict === 'failing'
      ? judged.failure
      : turn.violations.length
        ? 'locked files were changed'
        : told.refused.length
          ? removeTells(told.refused)
          : 'suite stayed green';
  const record = await records.append(RECORD_TYPES.cycleRefactored, key, { ...fields, tells: told.tells, verdict, detail }, blobs);
  if (verdict === 'kept') {
    await commitTested(deps, record.hash, treeOf(record), pair, `refactor(${input.item}): suite stays green`);
    await deps.baseline.set(input.story, { cases: compact(run.report) });
    await setItemStatus(deps, records, input, 'refactored', `status:refactored`);
  }
  return { verdict, record: record.hash };
}

export async function reviewStep(deps: CycleDeps, input: StepInput): Promise<ReviewOutcome> {
  const records = recordsFor(deps, input);
  const key = `review:${input.attempt}`;
  const found = await records.find(RECORD_TYPES.cycleReviewed, key);
  if (found) return { decision: found.data.decision, note: found.data.note, record: found.hash };
  const pair = await deps.experiment(input.story);
  const planned = await records.find(RECORD_TYPES.cyclePlanned, 'plan');
  const start = planned?.data.startCommit ?? null;
  const head = await branchHead(deps.root, pair.gitBranch);
  const diff = start ? await diffBetween(deps.root, start, head) : '';
  // The tells that went into the code (a person allowed them) go in front of the reviewer, and into the record.
  const flagged = [
    ...(await records.all(RECORD_TYPES.cycleGreen)).filter((r) => r.data.verdict === 'green'),
    ...(await records.all(RECORD_TYPES.cycleRefactored)).filter((r) => r.data.verdict === 'kept'),
  ].flatMap((r) => r.data.tells);
  const flagNote = flagged.length
    ? `\n\nFlagged for your review — code the Driver added that tells test runs apart${flagged.some((t) => t.allowed) ? ' (allowed by a person for this item)' : ''}:\n${flagged.map((t) => `- ${t.file}:${t.line} ${t.why}: ${t.text}`).join('\n')}`
    : '';
  const worktree = cycleWorktree(deps, input);
  await resetWorktree(deps.root, worktree, head);
  deps.emit({ kind: 'turn.started', item: input.item, role: 'navigator', step: 'review', attempt: input.attempt });
  // A reviewer writes nothing: an empty scope reverts whatever it changes. It sees the diff, never the Driver's account.
  const context = await contextPack(deps, input, 'navigator', 'review', { mayWrite: [], readOnly: [], diff });
  const turn = await agentTurn(deps, input, pair.database, {
    role: 'navigator',
    step: 'review',
    worktree,
    failure: null,
    context,
    prompt: promptFor(context, flagNote),
    scope: { allowed: [], protected: [] },
    lock: null,
  });
  await proposeFromReview(deps, input, turn);
  const review = turn.result.review ?? { decision: 'accept' as const, note: null };
  const record = await records.append(
    RECORD_TYPES.cycleReviewed,
    key,
    {
      attempt: input.attempt,
      decision: review.decision,
      note: review.note,
      head,
      turnMs: turn.result.ms,
      flagged,
      ...(turn.result.usage ? { agent: turn.result.usage } : {}),
    },
    [{ name: 'review/diff.patch', content: diff }, ...turnBlobs(turn)],
  );
  return { decision: review.decision, note: review.note, record: record.hash };
}

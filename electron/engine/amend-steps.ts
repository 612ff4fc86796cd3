/**
 * Test amendments in the cycle (gates/amendments.ts has the records and the rules).
 *
 * RED of an amendment round: no Navigator turn. The orchestrator writes the item's locked tests —
 * the approved amendment's new files, the rest as they were locked — on the experiment branch,
 * runs the suite twice like any RED and judges it against the last accepted run without the
 * item's old cases (they are what is being replaced). A failing amended test is a RED; LOCK then
 * takes the amended hashes and names the amendment, and GREEN, REFACTOR and REVIEW follow as in
 * any cycle. An amended test that passes at once proves nothing new and is not locked.
 *
 * REVIEW: the Navigator proposes an amendment by writing the new version of one of the item's
 * locked tests in its (throwaway) worktree and saying `BATON-AMEND: <path> <reason>`; the
 * orchestrator records the proposal for a person to decide, and reverts the file as it reverts
 * everything a reviewer writes.
 */
import { writeFileInside } from '../platform/contained-write';
import { join } from 'node:path';
import { RECORD_TYPES, recordOf } from '../../shared/records';
import type { RedOutcome, StepInput } from '../orchestrator/cycle-types';
import { judgeRed } from '../orchestrator/judge';
import { diffTrees } from '../platform/tree-diff';
import { snapshotTree } from '../platform/tree-snapshot';
import { itemLock, proposeAmendment } from '../gates/amendments';
import { cycleIdFor } from '../gates/escalations';
import { readProject } from '../project';
import type { CycleDeps } from './cycle-deps';
import { earlierLock } from './feature-lock';
import { resetWorktree } from './git';
import { cycleWorktree, keptBlobs, keptSummary, recordsFor } from './step-support';
import { trustOf } from './trust';
import type { EnforcedTurn } from './turn';
import { orchestratorRun } from './turn-and-run';

export async function amendedRedStep(deps: CycleDeps, input: StepInput & { amendment: string }): Promise<RedOutcome> {
  const records = recordsFor(deps, input);
  const key = `red:${input.attempt}`;
  const found = await records.find(RECORD_TYPES.cycleRed, key);
  if (found)
    return found.data.verdict === 'red'
      ? { verdict: 'red', record: found.hash }
      : { verdict: found.data.verdict, record: found.hash, detail: found.data.detail ?? '' };
  const all = (await deps.ledger.read()).records;
  const amendment = recordOf(
    all.find((r) => r.hash === input.amendment),
    RECORD_TYPES.testAmendment,
  );
  if (!amendment) throw new Error(`The approved amendment ${input.amendment} is not in the ledger: the ledger was changed; run \`baton verify\`.`);
  const current = itemLock(all, input.feature, input.item);
  if (!current || current.record.hash !== amendment.data.lock)
    throw new Error(`${input.item}'s tests were locked again after amendment #${amendment.seq} was approved: propose it again against the current lock.`);
  const pair = await deps.experiment(input.story);
  const worktree = cycleWorktree(deps, input);
  await resetWorktree(deps.root, worktree, pair.gitBranch);
  deps.emit({
    kind: 'turn.output',
    item: input.item,
    chunk: `[baton] writing ${input.item}'s amended tests (record #${amendment.seq}): ${amendment.data.reason}\n`,
  });
  const before = await snapshotTree(worktree, { content: true });
  for (const file of current.own) {
    const amended = amendment.data.files.some((f) => f.path === file.path);
    const content = await deps.ledger.readBlob(amended ? amendment.data.files.find((f) => f.path === file.path)!.sha256 : file.sha256);
    if (!content) throw new Error(`The ledger has no content for ${file.path} (${amended ? 'amended' : 'locked'} version): run \`baton verify\`.`);
    await writeFileInside(worktree, join(worktree, file.path), content);
  }
  const changes = diffTrees(before, await snapshotTree(worktree, { content: true }));
  const fields = { attempt: input.attempt, violations: 0, kept: keptSummary(changes), outOfScope: [], turnMs: 0, agentExitCode: null, tells: [] };
  const earlier = await earlierLock(deps, cycleIdFor(input.feature, input.item, input.round), input.story);
  const {
    run,
    test,
    fields: runFields,
    blobs,
  } = await orchestratorRun(deps, input, {
    step: 'red',
    worktree,
    database: pair.database,
    lock: earlier,
    fields,
    blobs: await keptBlobs(worktree, changes),
  });
  // The item's old cases are what the amendment replaces: judged as new, not as regressions.
  const replaced = new Set(current.record.data.cases.map((c) => c.id));
  const baseline = await deps.baseline.get(input.story);
  const judged = trustOf(test) ?? judgeRed({ cases: baseline.cases.filter((c) => !replaced.has(c.id)) }, run.report, changes.length);
  const detail =
    judged.verdict === 'red'
      ? `failing: ${judged.failing.join(', ')}`
      : judged.verdict === 'passed-at-once'
        ? `the amended tests pass on the code as it stands, so they prove nothing the code does not already do (${judged.detail})`
        : judged.detail;
  const data = { ...runFields, verdict: judged.verdict, detail, failing: judged.verdict === 'red' ? judged.failing : [], worktree, amendment: amendment.hash };
  const record = await records.append(RECORD_TYPES.cycleRed, key, data, blobs);
  return judged.verdict === 'red' ? { verdict: 'red', record: record.hash } : { verdict: judged.verdict, record: record.hash, detail };
}

const AMEND_LINE = /^\s*BATON-AMEND:\s*(\S+)\s+(.+)$/gim;

/** The `BATON-AMEND: <path> <reason>` lines a reviewer said, last one per path. */
export function amendmentsIn(said: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of said.matchAll(AMEND_LINE)) out.set(m[1]!, m[2]!.trim());
  return out;
}

/** Records each amendment the Navigator proposed in its review; what cannot be recorded is said in the live transcript. */
export async function proposeFromReview(deps: CycleDeps, input: StepInput, turn: EnforcedTurn): Promise<void> {
  const asked = amendmentsIn(turn.result.said ?? '');
  if (asked.size === 0) return;
  const say = (line: string) => deps.emit({ kind: 'turn.output', item: input.item, chunk: `[baton] ${line}\n` });
  const read = await readProject(deps.root);
  if (!read.ok) return say(`the Navigator's amendment was not recorded: ${read.error.message}`);
  for (const [path, reason] of asked) {
    const written = turn.outOfScope.find((o) => o.change.path === path && o.change.kind !== 'deleted')?.change;
    const content = written && written.kind !== 'deleted' ? written.after.content : undefined;
    if (!content) {
      say(`BATON-AMEND names ${path}, but the review wrote no new version of it: nothing to propose.`);
      continue;
    }
    const result = await proposeAmendment(read.value, deps.ledger, {
      feature: input.feature,
      item: input.item,
      files: [{ path, content }],
      reason,
      by: { kind: 'agent', id: `navigator:${deps.agent('navigator').name}` },
    });
    if (result.ok) deps.emit({ kind: 'recorded', type: result.value.type, hash: result.value.hash, item: input.item });
    say(
      result.ok
        ? `the Navigator proposed an amendment of ${path} (record #${result.value.seq}): it waits in the Inbox for a decision`
        : `the Navigator's amendment of ${path} was not recorded: ${result.error.message}`,
    );
  }
}

/** Shared by the cycle's steps: records for the cycle, scopes per role, compact reports, worktree paths. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { removeInside, writeFileInside } from '../platform/contained-write';
import { RECORD_TYPES, type TypedRecord } from '../../shared/records';
import type { TestStatus } from '../../shared/model';
import { recordedNote } from '../../shared/text-input';
import type { ScopeRules } from '../agents/scope';
import type { TreeChange } from '../platform/tree-diff';
import type { StepInput } from '../orchestrator/cycle-types';
import type { JudgedReport } from '../orchestrator/judge';
import type { LockRules } from '../runner/lock-set';
import { looksLikeTest } from '../runner/test-files';
import type { TestReport } from '../runner/report';
import type { CycleDeps, ExperimentPair } from './cycle-deps';
import { cycleIdFor } from '../gates/escalations';
import { addWorktree } from './git';
import { CycleRecords, type Blob } from './records';

export function recordsFor(deps: CycleDeps, input: StepInput): CycleRecords {
  return new CycleRecords(
    deps.ledger,
    { feature: input.feature, story: input.story, item: input.item, cycle: cycleIdFor(input.feature, input.item, input.round) },
    (r) => deps.emit({ kind: 'recorded', type: r.type, hash: r.hash, item: input.item }),
  );
}

export function scopeFor(deps: CycleDeps, role: 'navigator' | 'driver'): ScopeRules {
  const s = deps.settings;
  const fallback = role === 'navigator' ? s.testGlobs : [...s.sourceGlobs, ...(s.migrations ? [`${s.migrations.path}/**`] : [])];
  return {
    allowed: s.writeScopes[role] ?? fallback,
    protected: [...s.protectedPaths, ...s.runnerConfigFiles, ...(s.reportPath ? [s.reportPath] : [])],
    ...(role === 'driver' ? { noTests: (path: string) => looksLikeTest(path, s.testGlobs) } : {}),
  };
}

export function lockRulesFor(deps: CycleDeps): LockRules {
  return { testGlobs: deps.settings.testGlobs, runnerConfigFiles: deps.settings.runnerConfigFiles, testCommand: deps.settings.testCommand ?? '' };
}

/** A failing test's message in a record: enough to say why it failed, never the whole trace. */
export const RECORDED_MESSAGE_CHARS = 1000;
/** All messages of one record together: a suite that fails as a whole must not make one huge ledger line. */
export const RECORDED_MESSAGES_CHARS = 16_000;

/**
 * What the ledger keeps of a report for later verdicts: ids, statuses and why each failing test
 * failed (as a note is recorded: see recordedNote), up to a budget per record; the full report is a blob.
 */
export function compact(report: TestReport): JudgedReport['cases'] {
  let budget = RECORDED_MESSAGES_CHARS;
  return report.cases.map((c) => {
    if (c.status !== 'failed' && c.status !== 'errored') return { id: c.id, status: c.status, message: null };
    if (budget <= 0) return { id: c.id, status: c.status, message: `${c.status}: the message is in the runner/report blob` };
    const message = recordedNote(c.message ?? '', Math.min(RECORDED_MESSAGE_CHARS, budget)) ?? `${c.status}: the runner gave no message`;
    budget -= message.length;
    return { id: c.id, status: c.status, message };
  });
}

export function casesOf(record: { readonly data: { readonly cases?: JudgedReport['cases'] } }): JudgedReport {
  return { cases: record.data.cases ?? [] };
}

export function turnPath(deps: CycleDeps, input: StepInput, name: string): string {
  return join(deps.turnsDir, `${input.feature}-${input.item}${input.round > 1 ? `-r${input.round}` : ''}-${name}`.replace(/[^A-Za-z0-9._-]+/g, '_'));
}

/**
 * The one worktree a cycle's steps share (RED's attempts, LOCK, GREEN's, REFACTOR, REVIEW): each
 * step resets it to the experiment branch first (git.ts `resetWorktree`); the build removes it
 * when the cycle ends.
 */
export function cycleWorktree(deps: CycleDeps, input: StepInput): string {
  return turnPath(deps, input, 'work');
}

/** Blobs of what a turn kept (`kept/<path>`), so a worktree lost in a crash can be rebuilt. */
export async function keptBlobs(worktree: string, kept: readonly TreeChange[]): Promise<Blob[]> {
  const { readFile } = await import('node:fs/promises');
  const out: Blob[] = [];
  for (const c of kept) if (c.kind !== 'deleted') out.push({ name: `kept/${c.path}`, content: await readFile(join(worktree, c.path)) });
  return out;
}

/** Re-create a turn's worktree from the experiment branch plus the changes its record kept. */
/** A working step's verdict: it records what the turn kept. */
export type KeptRecord = TypedRecord<typeof RECORD_TYPES.cycleRed | typeof RECORD_TYPES.cycleGreen | typeof RECORD_TYPES.cycleRefactored>;

export async function materialize(deps: CycleDeps, records: CycleRecords, record: KeptRecord, worktree: string, pair: ExperimentPair): Promise<void> {
  if (existsSync(worktree)) return;
  await addWorktree(deps.root, worktree, pair.gitBranch);
  await applyKept(records, record, worktree);
}

/** Replay the changes a turn's record kept onto a worktree. */
export async function applyKept(records: CycleRecords, record: KeptRecord, worktree: string): Promise<void> {
  for (const change of record.data.kept) {
    const target = join(worktree, change.path);
    // Never through a link the agent left in the worktree (contained-write.ts).
    if (change.kind === 'renamed' && change.from) await removeInside(worktree, join(worktree, change.from));
    if (change.kind === 'deleted') {
      await removeInside(worktree, target);
      continue;
    }
    const content = await records.blobBytes(record, `kept/${change.path}`);
    if (content) await writeFileInside(worktree, target, content);
  }
}

export function keptSummary(kept: readonly TreeChange[]): Array<{ kind: string; path: string; from?: string }> {
  return kept.map((c) => (c.kind === 'renamed' ? { kind: c.kind, path: c.path, from: c.from } : { kind: c.kind, path: c.path }));
}

export async function setItemStatus(deps: CycleDeps, records: CycleRecords, input: StepInput, status: TestStatus | 'escalated', key: string): Promise<void> {
  await records.once(RECORD_TYPES.itemStatus, key, { item: input.item, status });
  deps.emit({ kind: 'item.status', feature: input.feature, item: input.item, status });
}

export function runBlobs(run: { stdout: string; stderr: string; reportText: string | null }, prefix = 'runner/'): Blob[] {
  return [
    { name: `${prefix}stdout.txt`, content: run.stdout },
    { name: `${prefix}stderr.txt`, content: run.stderr },
    ...(run.reportText !== null ? [{ name: `${prefix}report`, content: run.reportText }] : []),
  ];
}

/**
 * A strengthening round (issue 30): an item whose mutation score is below `mutation.minScore`
 * gets one more Navigator turn before the acceptance gate opens. The Navigator sees the surviving
 * mutants and may add test files (never change a locked one: that is a violation, restored). The
 * orchestrator then checks both halves itself, on the GREEN commit's tree with the added files:
 * every test of the item passes on the GREEN code (a run that can be trusted), and each survivor
 * is run again with the added tests, which must fail on it. The result is a second `cycle.mutated`
 * record for the same GREEN commit (key `strengthened:<commit>`) with the new score and what the
 * round did; the added tests are committed to the story's branch when they pass on the GREEN code
 * and kill at least one survivor. When the round cannot make the tests strong enough, the item
 * stays weak and the acceptance gate says so: the PO decides (approve with exceptions, or reject).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Subject } from '../../shared/ledger';
import { matchesAny } from '../../shared/glob';
import { RECORD_TYPES, type TypedRecord } from '../../shared/records';
import type { StepInput } from '../orchestrator/cycle-types';
import { agentTurn, turnBlobs } from '../engine/agent-turn';
import { contextPack } from '../engine/context-pack';
import type { CycleDeps } from '../engine/cycle-deps';
import { cycleLock } from '../engine/feature-lock';
import { branchHead, git, removeWorktree, resetWorktree } from '../engine/git';
import { promptFor } from '../engine/prompts';
import { CycleRecords, type Blob } from '../engine/records';
import { commitTested } from '../engine/red-steps';
import { lockRulesFor, runBlobs, scopeFor, turnPath } from '../engine/step-support';
import { fileAt, itemTestFiles, runMutants, type Mutated } from './mutate-item';
import { mutantsOf } from './mutants';
import { survivedLine } from '../../shared/mutation-words';
import { openTreeRuns, treeWith } from './tree-runs';
import { judgeAddedTests, refusedLine } from './added-tells';
import { keptFiles } from '../../shared/records-mutation';

type Greened = TypedRecord<typeof RECORD_TYPES.cycleGreened>;

/** The record key of the strengthening round of one GREEN commit: a resumed run finds it and runs nothing again. */
const keyOf = (commit: string) => `strengthened:${commit}`;

export const strengtheningEnabled = (deps: Pick<CycleDeps, 'settings'>): boolean => deps.settings.mutation?.strengthen !== false;

/** Weak, with survivors to kill, and not yet strengthened: the mutation record a round is for. */
export function needsStrengthening(mutated: Mutated | undefined): mutated is Mutated {
  return (
    !!mutated && !mutated.data.strengthened && mutated.data.score !== null && mutated.data.score < mutated.data.minScore && mutated.data.survived.length > 0
  );
}

/** The item's round: its records, the Navigator's turn, both checks, the record (and the commit of the added tests). */
export async function strengthenItem(deps: CycleDeps, greened: Greened, mutated: Mutated): Promise<Mutated> {
  const subject: Subject = greened.subject;
  const records = new CycleRecords(deps.ledger, subject, (r) => deps.emit({ kind: 'recorded', type: r.type, hash: r.hash, item: subject.item ?? null }));
  const { commit, tree } = greened.data;
  const item = subject.item ?? '';
  const story = subject.story ?? 'unassigned';
  const found = await records.find(RECORD_TYPES.cycleMutated, keyOf(commit));
  // A round recorded before a crash: its added tests are committed if they were to be kept.
  if (found) {
    await keepAdded(deps, found, story, item);
    return found;
  }
  const input: StepInput = { feature: deps.feature, story, item, repairBudget: 0, round: roundOf(subject.cycle), guidance: null, attempt: 1, failure: null };
  const planned = await records.find(RECORD_TYPES.cyclePlanned, 'plan');
  const locked = (await records.all(RECORD_TYPES.cycleLocked)).flatMap((r) => r.data.files.map((f) => f.path));
  const green = (await records.all(RECORD_TYPES.cycleGreen)).filter((r) => r.data.verdict === 'green').at(-1);
  const timeoutMs = Math.max(15_000, 4 * (green?.data.runMs ?? 0));
  const started = Date.now();

  // The Navigator's turn, on the GREEN commit: it sees the code the survivors mutate.
  const worktree = turnPath(deps, input, 'strengthen');
  await resetWorktree(deps.root, worktree, commit);
  const say = (text: string) => deps.emit({ kind: 'runner.output', item, chunk: `[baton] strengthening round for ${item}: ${text}\n` });
  say(
    `its tests let ${mutated.data.survived.length} mutant${mutated.data.survived.length === 1 ? '' : 's'} through (mutation ${Math.round((mutated.data.score ?? 0) * 100)}%, below ${Math.round(mutated.data.minScore * 100)}%); the Navigator may add tests that kill them`,
  );
  deps.emit({ kind: 'turn.started', item, role: 'navigator', step: 'strengthen', attempt: 1 });
  const survivors = mutated.data.survived.map(({ file, line, operator, original, replacement }) => ({ file, line, operator, original, replacement }));
  const context = await contextPack(deps, input, 'navigator', 'strengthen', { mayWrite: deps.settings.testGlobs, readOnly: locked, survivors });
  // The item's own lock: its locked tests are in this worktree (the GREEN commit), and changing one is a violation.
  const { lock } = await cycleLock(deps, records);
  const pair = await deps.experiment(story);
  const turn = await agentTurn(deps, input, pair.database, {
    role: 'navigator',
    step: 'strengthen',
    worktree,
    failure: null,
    context,
    prompt: promptFor(context, `\n\nSurviving mutants:\n${mutated.data.survived.map((s) => `- ${survivedLine(s)}`).join('\n')}`),
    scope: scopeFor(deps, 'navigator'),
    lock: { lock, rules: lockRulesFor(deps), newTests: true },
  });
  const added = turn.kept.filter((c) => c.kind === 'added' && matchesAny(c.path, deps.settings.testGlobs)).map((c) => c.path);
  const every = new Map<string, string>();
  for (const path of added) every.set(path, await readFile(join(worktree, path), 'utf8'));
  await removeWorktree(deps.root, worktree);
  // A test that reads the code as text, or tells a mutant's run from the GREEN run, kills mutants without testing: refused.
  const { accepted: files, refused } = judgeAddedTests(every);
  const refusedNote = refused.length ? refusedLine(refused) : null;

  const base = {
    turnMs: turn.result.ms,
    violations: turn.violations.map((v) => v.path),
    files: [...every].map(([path, content]) => ({ path, ...digest(content) })),
    tells: refused.map(({ file, line, why, id }) => ({ file, line, why, id })),
  };
  const done = (fields: { passedOnGreen: boolean; failing: string[]; killed: string[]; kept: boolean; why: string | null }, blobs: Blob[] = []) => {
    const why = [refusedNote, fields.why].filter(Boolean).join('; ') || null;
    say(why ?? `the added tests kill ${fields.killed.length} of ${mutated.data.survived.length}${fields.kept ? ' and are kept' : ''}`);
    return records.append(RECORD_TYPES.cycleMutated, keyOf(commit), strengthenedData(mutated, { ...base, ...fields, why }, started), [
      ...[...every].map(([path, content]) => ({ name: `strengthened/${path}`, content })),
      ...turnBlobs(turn),
      ...blobs,
    ]);
  };
  if (!every.size) return done({ passedOnGreen: false, failing: [], killed: [], kept: false, why: 'the Navigator added no test file' });
  if (!files.size) return done({ passedOnGreen: false, failing: [], killed: [], kept: false, why: null });
  const database = planned?.data.database;
  if (!database) return done({ passedOnGreen: false, failing: [], killed: [], kept: false, why: "the item's cycle recorded no database" });

  // First half: every test of the item, the added ones with them, passes on the GREEN code.
  const ownTests = await itemTestFiles(deps, planned.data.startCommit, commit);
  const testFiles = [...ownTests, ...files.keys()];
  const runs = await openTreeRuns(deps, { tree, database, locked, testFiles, timeoutMs }, 'strengthen');
  const run = await runs.run(files).finally(() => runs.close());
  const addedCases = run.report.cases.filter((c) => [...files.keys()].some((f) => c.id.startsWith(`${f} › `)));
  const failing = run.report.cases.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => c.id);
  const problem = run.integrity.length
    ? `the run on the GREEN code cannot be trusted: ${run.integrity.join('; ')}`
    : failing.length
      ? `the tests do not pass on the GREEN code: ${failing.slice(0, 5).join(', ')}`
      : !addedCases.some((c) => c.status === 'passed')
        ? 'no test of the added files ran and passed on the GREEN code'
        : null;
  const runEvidence = runBlobs(run, 'strengthen/runner/');
  if (problem) return done({ passedOnGreen: false, failing, killed: [], kept: false, why: problem }, runEvidence);

  // Second half: each survivor run again with the added tests, which must fail on it.
  const sources = new Map<string, string>();
  const lines = new Map<string, Set<number>>();
  for (const s of mutated.data.survived) lines.set(s.file, (lines.get(s.file) ?? new Set()).add(s.line));
  for (const file of lines.keys()) sources.set(file, await fileAt(deps.root, commit, file));
  const ids = new Set(mutated.data.survived.map((s) => s.id));
  const mutants = [...lines].flatMap(([file, at]) => mutantsOf(file, sources.get(file)!, at)).filter((m) => ids.has(m.id));
  const outcomes = await runMutants(deps, {
    tree,
    database,
    locked,
    passed: { ids: new Set(addedCases.filter((c) => c.status === 'passed').map((c) => c.id)), complete: true },
    testFiles,
    timeoutMs,
    mutants,
    sources,
    item,
    extra: files,
  });
  const killed = outcomes.filter((o) => o.outcome === 'killed' || o.outcome === 'timed-out').map((o) => o.mutant.id);
  const data = strengthenedData(mutated, { ...base, passedOnGreen: true, failing: [], killed, kept: false, why: null }, started);
  const why =
    killed.length === 0
      ? 'the added tests kill none of the surviving mutants'
      : data.score !== null && data.score < data.minScore
        ? `the added tests kill ${killed.length} of ${ids.size} survivors: the score is still below ${Math.round(data.minScore * 100)}%`
        : null;
  // Kept when they pass on the GREEN code and kill at least one survivor (tests the item is better
  // for) and no file of that name is on the branch already; committed under the round's record.
  const clash = killed.length ? await onBranch(deps, pair.gitBranch, [...files.keys()]) : null;
  const record = await done(
    { passedOnGreen: true, failing: [], killed, kept: killed.length > 0 && !clash, why: why ?? (clash ? `${clash} is on the branch already` : null) },
    runEvidence,
  );
  await keepAdded(deps, record, story, item);
  return record;
}

/** The record's data: the first record's figures with the survivors the round killed counted as killed. */
function strengthenedData(
  mutated: Mutated,
  round: {
    files: Array<{ path: string; sha256: string; bytes: number }>;
    turnMs: number;
    violations: string[];
    tells: Array<{ file: string; line: number; why: string; id: string }>;
    passedOnGreen: boolean;
    failing: string[];
    killed: string[];
    kept: boolean;
    why: string | null;
  },
  started: number,
) {
  const killed = new Set(round.killed);
  const survived = mutated.data.survived.filter((s) => !killed.has(s.id));
  const total = mutated.data.killed + killed.size;
  const judged = total + survived.length;
  const { key: _key, ms: _ms, strengthened: _s, ...rest } = mutated.data;
  return {
    ...rest,
    killed: total,
    survived,
    score: judged === 0 ? null : total / judged,
    ms: Date.now() - started,
    strengthened: { of: mutated.hash, ...round },
  };
}

/** The first of `paths` already on `branch`'s head, or null. */
async function onBranch(deps: CycleDeps, branch: string, paths: readonly string[]): Promise<string | null> {
  const head = await branchHead(deps.root, branch);
  for (const path of paths) if ((await git(deps.root, ['ls-tree', '--name-only', head, '--', path])).trim()) return path;
  return null;
}

/**
 * A kept round's added tests on the story's branch, on top of whatever was built after the item,
 * in a commit whose trailer names the round's record (once: a resumed run finds the commit).
 */
async function keepAdded(deps: CycleDeps, record: Mutated, story: string, item: string): Promise<void> {
  const round = record.data.strengthened;
  if (!round?.kept) return;
  const pair = await deps.experiment(story);
  const files = new Map<string, string>();
  for (const f of keptFiles(round)) {
    const blob = record.blobs.find((b) => b.name === `strengthened/${f.path}`);
    const content = blob ? await deps.ledger.readBlob(blob.sha256) : null;
    if (!content) throw new Error(`The ledger has no content for ${f.path} (record #${record.seq}): run \`baton verify\`.`);
    files.set(f.path, content.toString('utf8'));
  }
  const scratch = join(deps.turnsDir, `strengthen-index-${item}`.replace(/[^A-Za-z0-9._-]+/g, '_'));
  await mkdir(scratch, { recursive: true });
  const head = await branchHead(deps.root, pair.gitBranch);
  const tree = await treeWith(deps.root, `${head}^{tree}`, files, scratch);
  await commitTested(deps, record.hash, tree, pair, `test(${item}): tests that kill surviving mutants`);
  await rm(scratch, { recursive: true, force: true });
}

const digest = (content: string) => ({ sha256: createHash('sha256').update(content).digest('hex'), bytes: Buffer.byteLength(content) });

const roundOf = (cycle: string | null | undefined): number => Number(/-r(\d+)$/.exec(cycle ?? '')?.[1] ?? 1);

/**
 * Mutation testing of an item's GREEN (issue 30): are its tests strong enough to fail? The lines
 * the item's commits changed in the project's code (test files, locked files and migrations left
 * out) are mutated one mutant at a time (mutants.ts) on the GREEN commit's tree; each mutant's tree
 * is written as a git tree object and run once by the orchestrator's own test run (test-run.ts
 * runTree: a fresh throwaway database, the sandbox, canaries, integrity checks) in a run folder of
 * its own, so it never shares one with the cycle's runs. A mutant is killed when a test that passed
 * at GREEN fails or errors, or when the run outlives its time limit (an endless loop is detected);
 * it survived when every such test still passes on a run that can be trusted; a run that cannot be
 * trusted is counted neither way and said. The result is the item's `cycle.mutated` record.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Subject } from '../../shared/ledger';
import { matchesAny } from '../../shared/glob';
import { RECORD_TYPES, type TypedRecord } from '../../shared/records';
import type { CycleDeps } from '../engine/cycle-deps';
import { git } from '../engine/git';
import { CycleRecords } from '../engine/records';
import { applyMutant, mutable, mutantsOf, pickMutants, type Mutant } from './mutants';
import { openTreeRuns } from './tree-runs';

const execFileAsync = promisify(execFile);

export const DEFAULT_MIN_SCORE = 0.6;
export const DEFAULT_MAX_MUTANTS = 16;
/** A mutant's run may take this many times the GREEN run's, and never less than the floor. */
const TIME_FACTOR = 4;
const TIME_FLOOR_MS = 15_000;

export type Mutated = TypedRecord<typeof RECORD_TYPES.cycleMutated>;

export const mutationEnabled = (deps: Pick<CycleDeps, 'settings'>): boolean => deps.settings.mutation?.enabled !== false;

/** The record key of the mutation of one GREEN commit: a resumed run finds it and runs nothing again. */
const keyOf = (commit: string) => `mutated:${commit}`;

/**
 * Mutates the item's GREEN (`greened`, with its cycle's subject) and records what its tests
 * killed, or returns the record already made for that commit.
 */
export async function mutateItem(deps: CycleDeps, greened: TypedRecord<typeof RECORD_TYPES.cycleGreened>): Promise<Mutated> {
  const subject: Subject = greened.subject;
  const records = new CycleRecords(deps.ledger, subject, (r) => deps.emit({ kind: 'recorded', type: r.type, hash: r.hash, item: subject.item ?? null }));
  const key = keyOf(greened.data.commit);
  const found = await records.find(RECORD_TYPES.cycleMutated, key);
  if (found) return found;
  const started = Date.now();
  const planned = await records.find(RECORD_TYPES.cyclePlanned, 'plan');
  const locked = (await records.all(RECORD_TYPES.cycleLocked)).flatMap((r) => r.data.files.map((f) => f.path));
  const green = (await records.all(RECORD_TYPES.cycleGreen)).filter((r) => r.data.verdict === 'green').at(-1);
  const { commit, tree } = greened.data;
  const changed = planned ? await changedLines(deps, planned.data.startCommit, commit, locked) : new Map<string, Set<number>>();
  // The item's own tests (the files its cycle wrote) are what must kill its mutants: only they run.
  const testFiles = planned ? await itemTestFiles(deps, planned.data.startCommit, commit) : [];
  const sources = new Map<string, string>();
  const all: Mutant[] = [];
  for (const [file, lines] of changed) {
    const source = await fileAt(deps.root, commit, file);
    sources.set(file, source);
    all.push(...mutantsOf(file, source, lines));
  }
  const minScore = deps.settings.mutation?.minScore ?? DEFAULT_MIN_SCORE;
  const chosen = pickMutants(all, deps.settings.mutation?.maxMutants ?? DEFAULT_MAX_MUTANTS);
  const item = subject.item ?? null;
  deps.emit({
    kind: 'runner.output',
    item,
    chunk: `[baton] mutation testing ${item ?? 'the item'}: ${chosen.length} of ${all.length} mutant${all.length === 1 ? '' : 's'} of ${changed.size} changed file${changed.size === 1 ? '' : 's'}\n`,
  });
  const outcomes = await runMutants(deps, {
    tree,
    database: planned?.data.database ?? null,
    locked,
    passed: expectedTests(greened.data.passedTests, testFiles),
    testFiles,
    timeoutMs: Math.max(TIME_FLOOR_MS, TIME_FACTOR * (green?.data.runMs ?? 0)),
    mutants: chosen,
    sources,
    item,
  });
  const killed = outcomes.filter((o) => o.outcome === 'killed' || o.outcome === 'timed-out');
  const survived = outcomes.filter((o) => o.outcome === 'survived').map((o) => survivedOf(o.mutant));
  const judged = killed.length + survived.length;
  return records.append(RECORD_TYPES.cycleMutated, key, {
    commit,
    tree,
    files: [...changed.keys()],
    found: all.length,
    tested: chosen.length,
    killed: killed.length,
    timedOut: outcomes.filter((o) => o.outcome === 'timed-out').length,
    survived,
    errors: outcomes.filter((o) => o.outcome === 'error').map((o) => ({ id: o.mutant.id, why: o.why ?? 'the run could not be judged' })),
    score: judged === 0 ? null : killed.length / judged,
    minScore,
    ms: Date.now() - started,
  });
}

const survivedOf = (m: Mutant) => ({
  id: m.id,
  file: m.file,
  line: m.line,
  column: m.column,
  operator: m.operator,
  original: m.original.slice(0, 200),
  replacement: m.replacement.slice(0, 200),
});

/**
 * The project's code the item changed, file by file with the changed lines of its GREEN commit:
 * test files (testGlobs), locked files and migrations are the item's tests and schema, not its code.
 */
async function changedLines(deps: CycleDeps, from: string, to: string, locked: readonly string[]): Promise<Map<string, Set<number>>> {
  const migrations = deps.settings.migrations?.path.replace(/\/+$/, '');
  const lockedSet = new Set(locked);
  const names = (await git(deps.root, ['diff', '--name-only', '--diff-filter=AM', from, to]))
    .split('\n')
    .filter(Boolean)
    .filter((p) => mutable(p) && !lockedSet.has(p) && !matchesAny(p, deps.settings.testGlobs) && !(migrations && p.startsWith(`${migrations}/`)));
  const out = new Map<string, Set<number>>();
  for (const file of names) {
    const lines = hunkLines(await git(deps.root, ['diff', '--unified=0', '--no-color', from, to, '--', file]));
    if (lines.size) out.set(file, lines);
  }
  return out;
}

/**
 * The tests that passed at GREEN and run again for each mutant: those of the item's own files when
 * the runner's ids name their file (node:test's do: `test/a.test.js › suite › name`), else every one
 * that passed (a runner whose ids do not say their file: a test of another file simply is not there).
 */
export function expectedTests(passed: readonly string[], files: readonly string[]): { readonly ids: ReadonlySet<string>; readonly complete: boolean } {
  const own = passed.filter((id) => files.some((f) => id.startsWith(`${f} › `)));
  return own.length > 0 ? { ids: new Set(own), complete: true } : { ids: new Set(passed), complete: false };
}

/** The test files the item's cycle changed between its start and its GREEN commit. */
export async function itemTestFiles(deps: CycleDeps, from: string, to: string): Promise<string[]> {
  const names = await git(deps.root, ['diff', '--name-only', '--diff-filter=AM', from, to]);
  return names.split('\n').filter((p) => p && matchesAny(p, deps.settings.testGlobs));
}

/** The new side's line numbers of every hunk of a `--unified=0` diff. */
export function hunkLines(diff: string): Set<number> {
  const lines = new Set<number>();
  for (const m of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    for (let i = 0; i < count; i += 1) lines.add(start + i);
  }
  return lines;
}

export type Outcome = { mutant: Mutant; outcome: 'killed' | 'timed-out' | 'survived' | 'error'; why?: string };

/**
 * Each mutant run once on the GREEN tree, with `extra` files (a strengthening round's new tests)
 * written over every mutant's tree, and judged against the tests that must fail (`passed`).
 */
export async function runMutants(
  deps: CycleDeps,
  job: {
    tree: string;
    database: string | null;
    locked: readonly string[];
    passed: { readonly ids: ReadonlySet<string>; readonly complete: boolean };
    testFiles: readonly string[];
    timeoutMs: number;
    mutants: readonly Mutant[];
    sources: ReadonlyMap<string, string>;
    item: string | null;
    extra?: ReadonlyMap<string, string>;
  },
): Promise<Outcome[]> {
  if (job.mutants.length === 0) return [];
  const database = job.database;
  if (!database) return job.mutants.map((mutant) => ({ mutant, outcome: 'error', why: "the item's cycle recorded no database" }));
  const runs = await openTreeRuns(deps, { ...job, database }, 'mutation');
  const outcomes: Outcome[] = [];
  try {
    for (const mutant of job.mutants) {
      const began = Date.now();
      const run = await runs.run(new Map([...(job.extra ?? []), [mutant.file, applyMutant(job.sources.get(mutant.file)!, mutant)]]));
      const judged = judgeMutant(mutant, run, job.passed, job.timeoutMs);
      outcomes.push(judged);
      deps.emit({
        kind: 'runner.output',
        item: job.item,
        chunk: `[baton] mutant ${outcomes.length}/${job.mutants.length} ${mutant.file}:${mutant.line} ${mutant.operator} ${mutant.original} → ${mutant.replacement}: ${judged.outcome} (${((Date.now() - began) / 1000).toFixed(1)} s, tests ${(run.ms / 1000).toFixed(1)} s)\n`,
      });
    }
  } finally {
    await runs.close();
  }
  return outcomes;
}

/**
 * Killed, timed out, survived, or (a run that cannot be trusted) not judged. `passed`: the tests
 * that passed at GREEN and ran again; `complete` when all of them must have run (then one that did
 * not run was stopped by the mutant: detected).
 */
export function judgeMutant(
  mutant: Mutant,
  run: { ms: number; exitCode: number | null; integrity: readonly string[]; report: { cases: readonly { id: string; status: string }[] } },
  passed: { readonly ids: ReadonlySet<string>; readonly complete: boolean },
  timeoutMs: number,
): Outcome {
  if (run.exitCode === null && run.ms >= timeoutMs - 1000) return { mutant, outcome: 'timed-out' };
  const failing = run.report.cases.filter((c) => passed.ids.has(c.id) && (c.status === 'failed' || c.status === 'errored'));
  // A test file that no longer loads reports one errored case for the file: the mutant broke what the tests import.
  const unloaded = run.report.cases.some((c) => c.status === 'errored' && /\(load\)$/.test(c.id));
  if (failing.length || unloaded) return { mutant, outcome: 'killed' };
  if (run.integrity.length) return { mutant, outcome: 'error', why: run.integrity.join('; ') };
  const ran = new Set(run.report.cases.filter((c) => c.status === 'passed').map((c) => c.id));
  if (passed.complete && [...passed.ids].some((id) => !ran.has(id))) return { mutant, outcome: 'killed' };
  return { mutant, outcome: 'survived' };
}

/** A file's content at a commit, byte for byte (the git helper trims its output; a leading blank line must stay). */
export async function fileAt(root: string, commit: string, file: string): Promise<string> {
  const { stdout } = await execFileAsync('git', ['show', `${commit}:${file}`], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

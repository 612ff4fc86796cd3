/**
 * Merged lanes are tested together (issue 30). Stories declared independent are built in separate
 * lanes, each GREEN on its own branch; acceptance merges them into the feature branch and migrates
 * the feature database in merge order. Two migrations that both redefine one function then pass
 * there and fail on a fresh database. So once the stories are merged, the orchestrator runs the
 * feature branch's whole suite with its own test run (turn-and-run.ts runSuite: twice, the second in
 * the opposite order) on a fresh throwaway of the database the feature was cut from, with every
 * migration of the merged tree applied in file order, and records `feature.verified`. A failure
 * names the failing tests and the stories that wrote them and those merged beside them, and stops
 * the run before the deploy (the deploy gate refuses it too: gates/feature-verified.ts).
 *
 * Nothing runs again when a GREEN (or kept refactor) of this feature already tested this very tree
 * and the feature's own migrations, if any, were only added and came in file order (so every
 * database of the build applied them in file order): a single stacked lane's last GREEN is the
 * merged tree. A resumed run finds its own record for the tree and repeats nothing.
 */
import { basename } from 'node:path';
import { featureBranch } from '../../shared/branches';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordOf, recordsOf, type TypedRecord } from '../../shared/records';
import { naturalCompare } from '../branches/migrations';
import type { BranchService } from '../branches/service-api';
import { verificationFailure, type FeatureVerified } from '../gates/feature-verified';
import type { ControlledRunResult } from '../runner/controlled-run';
import type { CycleDeps } from './cycle-deps';
import type { Blob } from './records';
import { git } from './git';
import { runBlobs } from './step-support';
import { runSuite } from './turn-and-run';

/** The case test-run.ts reports when the tree's migrations fail to apply. */
const MIGRATIONS_CASE = '(migrations)';

/** The merged feature failed its verification: the run stops here, before the deploy. */
export class MergedSuiteFailed extends Error {}

/**
 * Verifies the feature branch's head once its stories are merged: the record made (or found for
 * this tree), or null when no story was merged into it. Throws MergedSuiteFailed when it failed.
 */
export async function verifyMergedFeature(deps: CycleDeps, branches: BranchService): Promise<FeatureVerified | null> {
  const branch = featureBranch(deps.feature);
  const pairs = (await branches.list()).pairs;
  const pair = pairs.find((p) => p.gitBranch === branch && p.worktree && p.database);
  const records = (await deps.ledger.read()).records;
  const merged = recordsOf(records, RECORD_TYPES.storyMerged).filter((r) => r.subject.feature === deps.feature);
  if (merged.length === 0) return null;
  // Stories were merged into a pair that is not all there: nothing to verify on, said rather than passed over.
  if (!pair?.worktree)
    throw new Error(
      `The merged feature ${branch} cannot be verified: its branch pair has no ${pairs.some((p) => p.gitBranch === branch && p.worktree) ? 'database' : 'worktree'} (baton branch list shows what remains). Make the pair again (\`baton branch ${branch}\`), then run again.`,
    );
  const commit = await git(deps.root, ['rev-parse', `refs/heads/${branch}`]);
  const tree = await git(deps.root, ['rev-parse', `${commit}^{tree}`]);
  let record =
    recordsOf(records, RECORD_TYPES.featureVerified)
      .filter((r) => r.data.feature === deps.feature && r.data.tree === tree)
      .at(-1) ?? null;
  if (!record) {
    const base = { feature: deps.feature, branch, commit, tree, worktree: pair.worktree };
    const mine = records.filter((r) => r.subject.feature === deps.feature);
    const tested = await alreadyTested(deps, mine, commit, tree);
    const parent = pairs.find((p) => p.name === pair.parent)?.database?.name;
    if (!tested && !parent)
      throw new Error(
        `The merged feature ${branch} cannot be verified: the database it was cut from (${pair.parent ?? 'none'}) is gone, and the fresh database its suite runs on is a copy of that one. Make the ${deps.settings.defaultBranch} branch pair again (\`baton branch\`), then run again.`,
      );
    const data = tested ? passedBy(base, tested) : await runMerged(deps, base, parent!, mine, merged);
    const made = await deps.ledger.append({
      type: RECORD_TYPES.featureVerified,
      actor: { kind: 'orchestrator', id: 'baton' },
      subject: { feature: deps.feature },
      data: data.data,
      blobs: data.blobs,
    });
    deps.emit({ kind: 'recorded', type: RECORD_TYPES.featureVerified, hash: made.hash, item: null });
    record = recordOf(made, RECORD_TYPES.featureVerified);
  }
  if (record?.data.verdict === 'failed') throw new MergedSuiteFailed(verificationFailure(record));
  return record;
}

type VerifiedData = FeatureVerified['data'];
type Base = Pick<VerifiedData, 'feature' | 'branch' | 'commit' | 'tree' | 'worktree'>;

/** The GREEN or kept refactor that already ran this tree, when no database it ran on can have applied a migration out of order. */
async function alreadyTested(deps: CycleDeps, mine: readonly LedgerRecord[], commit: string, tree: string): Promise<LedgerRecord | null> {
  const proof = [...recordsOf(mine, RECORD_TYPES.cycleGreened), ...recordsOf(mine, RECORD_TYPES.cycleRefactored).filter((r) => r.data.verdict === 'kept')]
    .filter((r) => r.data.tree === tree)
    .sort((a, b) => a.seq - b.seq)
    .at(-1);
  if (!proof) return null;
  const migrations = deps.settings.migrations;
  if (!migrations) return proof;
  const base = await git(deps.root, ['merge-base', `refs/heads/${deps.settings.defaultBranch}`, commit]).catch(() => null);
  if (!base) return null;
  // Every database of the build was migrated commit by commit, in the order the commits came (merges list no files).
  const changes = (await git(deps.root, ['log', '--topo-order', '--reverse', '--name-status', '--format=', `${base}..${commit}`, '--', migrations.path]))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
  if (changes.length === 0) return proof;
  // A SQL folder's files only ever added, each sorting after the one before: commit order was file order.
  if (migrations.tool !== 'sql' || changes.some(([status]) => status !== 'A')) return null;
  const added = changes.map(([, path]) => basename(path ?? '')).filter((name) => name.endsWith('.sql') && !name.endsWith('.down.sql'));
  return added.every((name, i) => i === 0 || naturalCompare(added[i - 1]!, name) < 0) ? proof : null;
}

const passedBy = (base: Base, tested: LedgerRecord): { data: VerifiedData; blobs: [] } => ({
  data: {
    ...base,
    verdict: 'passed',
    tested: tested.hash,
    failing: [],
    stories: [],
    lanes: [],
    integrity: [],
    flaky: [],
    totals: null,
    migrations: [],
    testRunMs: 0,
  },
  blobs: [],
});

/** The whole suite of the merged tree, twice, on a fresh throwaway of `parent` with every migration applied in file order. */
async function runMerged(
  deps: CycleDeps,
  base: Base,
  parent: string,
  mine: readonly LedgerRecord[],
  merged: readonly TypedRecord<typeof RECORD_TYPES.storyMerged>[],
): Promise<{ data: VerifiedData; blobs: Blob[] }> {
  deps.emit({
    kind: 'runner.output',
    item: null,
    chunk: `[baton] verifying the merged feature ${base.branch} at ${base.commit.slice(0, 12)}: its whole suite, twice, on a fresh database with every migration in file order\n`,
  });
  // Every test file any item locked stays as it was while the suite runs.
  const locked = [...new Set(recordsOf(mine, RECORD_TYPES.cycleLocked).flatMap((r) => r.data.files.map((f) => f.path)))];
  const test = await runSuite(deps, { worktree: base.worktree, database: parent, locked, item: null, tree: base.tree });
  const runs: ControlledRunResult[] = [test.run, ...(test.second ? [test.second] : [])];
  const fileOf = new Map(runs.flatMap((r) => r.report.cases.map((c) => [c.id, c.file] as const)));
  const failingIds = [
    ...new Set([...runs.flatMap((r) => r.report.cases.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id)), ...test.flaky]),
  ];
  const blame = await storiesBehind(deps, mine, merged);
  const failing = failingIds.map((id) => ({ test: id, file: fileOf.get(id) ?? null, stories: blame.owners(id, fileOf.get(id) ?? null) }));
  const verdict = test.integrity.length === 0 && failing.length === 0 ? 'passed' : 'failed';
  const stories = verdict === 'failed' ? blame.named(failing.flatMap((f) => f.stories)) : [];
  // Without lanes every story is in one (cycle-deps.ts).
  const laneOf = async (story: string) => [...(deps.lane ? await deps.lane(story) : stories)];
  const lanes = [...new Map((await Promise.all(stories.map(laneOf))).map((lane) => [JSON.stringify(lane), lane])).values()];
  return {
    data: {
      ...base,
      verdict,
      tested: null,
      failing,
      stories,
      lanes,
      integrity: [...test.integrity],
      flaky: [...test.flaky],
      totals: test.run.report.totals,
      migrations: test.migrations ? [...test.migrations.applied] : [],
      testRunMs: test.ms,
    },
    blobs: [...runBlobs(test.run), ...(test.second ? runBlobs(test.second, 'runner/second/') : [])],
  };
}

/**
 * Who is behind a failing test. Its owners: the stories whose merged changes wrote its file, or whose
 * RED named it. The stories named with them: those whose merged changes share a file with an owner's
 * or, like an owner's, change the migrations (the database every test shares); when none does, every
 * other merged story, as nothing narrows it down.
 */
async function storiesBehind(deps: CycleDeps, mine: readonly LedgerRecord[], merged: readonly TypedRecord<typeof RECORD_TYPES.storyMerged>[]) {
  const changes = new Map<string, Set<string>>();
  for (const r of merged) {
    // What the story's merge brought into the feature branch: its first parent is the branch before it.
    const names = await git(deps.root, ['diff', '--name-only', `${r.data.merge}^1`, r.data.merge]).catch(() => '');
    const set = changes.get(r.data.story) ?? new Set<string>();
    for (const name of names.split('\n').filter(Boolean)) set.add(name);
    changes.set(r.data.story, set);
  }
  const redOf = new Map<string, Set<string>>();
  for (const r of recordsOf(mine, RECORD_TYPES.cycleRed))
    if (r.data.verdict === 'red' && r.subject.story) for (const id of r.data.failing ?? []) redOf.set(id, (redOf.get(id) ?? new Set()).add(r.subject.story));
  const migrations = deps.settings.migrations?.path.replace(/\/+$/, '');
  const inMigrations = (path: string) => migrations !== undefined && path.startsWith(`${migrations}/`);
  const touchesMigrations = (story: string) => [...(changes.get(story) ?? [])].some(inMigrations);
  const owners = (id: string, file: string | null): string[] => {
    // Migrations that fail to apply are one errored case (test-run.ts): the stories that changed them wrote it.
    const wrote = [...changes.keys()].filter((s) => (file !== null && changes.get(s)!.has(file)) || (id === MIGRATIONS_CASE && touchesMigrations(s)));
    return [...new Set([...wrote, ...(redOf.get(id) ?? [])])].sort();
  };
  const named = (owned: readonly string[]): string[] => {
    const mineSet = new Set(owned);
    const others = [...changes.keys()].filter((s) => !mineSet.has(s));
    const near = others.filter((s) =>
      owned.some((o) => (touchesMigrations(o) && touchesMigrations(s)) || [...(changes.get(s) ?? [])].some((p) => changes.get(o)?.has(p))),
    );
    return [...new Set([...owned, ...(near.length ? near : others)])].sort();
  };
  return { owners, named };
}

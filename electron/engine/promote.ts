/**
 * Promote, atomic and reversible: a feature's branch merged into its tier (the default branch)
 * with the tier's database migrated to match, or neither.
 *
 *   1. plan: the merge is computed without touching anything (`git merge-tree`); conflicts, a
 *      feature already promoted, or local changes the merge would overwrite refuse here;
 *   2. snapshot: the tier database is copied to a pair of its own (`baton/snapshots/<tier>-<time>`
 *      at the tier's commit, database `snap-<tier>-<time>`), kept `promote.snapshotHours` (default
 *      168) and then collected by `baton branch gc`;
 *   3. merge: a merge commit made by Baton moves the tier's git branch (the main checkout follows
 *      with `--ff-only` when it is on the tier);
 *   4. migrate: the merged tree's migrations are applied to the tier database;
 *   5. verify: `promote.verify` (optional) runs against the tier database, and a SQL-folder tier
 *      must have nothing left pending;
 * any failure in 3–5 rolls back: the tier's git branch goes back to its commit and its database is
 * restored from the snapshot; recorded as `promote.rolledback`. Success is `promote.done`. Before
 * step 2, `promote.started` records the intent: a promotion stopped anywhere after it (a kill) is
 * rolled back by the next promote or run before anything else (promote-recover.ts).
 * `dryRun` stops after the plan and says exactly what would happen.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RECORD_TYPES } from '../../shared/records';
import { applyMigrations, planMigrations, type MigrationPlan } from '../branches/migrations';
import { deleteGitBranch, gitBranchExists } from '../branches/git-pair';
import { plainDatabaseName } from '../branches/names';
import { putEntry, removeEntry } from '../branches/registry';
import { checkoutTree } from '../runner/run-tree';
import { featureBranch } from './deploy';
import { mergeLocally, mergeMessage, mergePullRequest, openPullRequest, promoteRoute, undoMerge, waitForChecks } from './promote-merge';
import { git } from './git';
import { openPromoteIntent, recoverPromote, type PromoteRecovery } from './promote-recover';
import { failpoint } from '../platform/failpoint';
import { migrationsPlan, runVerify } from './promote-tier';
import type { ShipRequest } from './ship-request';

const exec = promisify(execFile);
const DEFAULT_SNAPSHOT_HOURS = 168;

export interface PromoteRequest extends ShipRequest {
  readonly now?: () => Date;
}

export interface PromotePlan {
  readonly feature: string;
  readonly featureBranch: string;
  readonly featureCommit: string;
  readonly tier: string;
  readonly tierCommit: string;
  readonly tierDatabase: string;
  /** The merged tree, or null when the merge conflicts. */
  readonly mergeTree: string | null;
  readonly conflicts: readonly string[];
  /** The feature's commit is already in the tier: nothing to promote. */
  readonly alreadyPromoted: boolean;
  /** Tracked files changed in the main checkout that the merge would overwrite (it is on the tier). */
  readonly overwrites: readonly string[];
  readonly checkoutOnTier: boolean;
  readonly snapshot: { readonly database: string; readonly gitBranch: string; readonly keepHours: number };
  readonly migrations: { readonly tool: MigrationPlan['tool']; readonly pending: readonly string[] | null; readonly command: string | null };
  readonly verify: string | null;
  /** A Baton merge commit made here, or a pull request on `remote` merged by gh once its checks pass (promote-pr.ts). */
  readonly mode: 'local' | 'pull-request';
  readonly remote: string | null;
  /** Why it cannot go ahead (conflicts, already promoted, local changes); null when it can. */
  readonly refusal: string | null;
  /** What would happen, step by step, in words. */
  readonly steps: readonly string[];
}

export interface PromoteOutcome {
  readonly plan: PromotePlan;
  /** An interrupted promotion of the feature found and rolled back before this one, or null. */
  readonly recovered: PromoteRecovery | null;
  readonly outcome: 'promoted' | 'rolled-back' | 'planned';
  /** The tier's new commit (promoted), else null. */
  readonly mergeCommit: string | null;
  readonly applied: readonly string[];
  readonly record: string | null;
  /** Why it rolled back. */
  readonly error: string | null;
}

export async function planPromote(request: PromoteRequest): Promise<PromotePlan> {
  const { root, settings, feature, branches } = request;
  const tier = settings.defaultBranch;
  const branch = featureBranch(feature);
  const featureCommit = await git(root, ['rev-parse', '--verify', `refs/heads/${branch}`]).catch(() => {
    throw new Error(`${feature} has no branch ${branch}: build it first (baton run), then promote.`);
  });
  const tierCommit = await git(root, ['rev-parse', '--verify', `refs/heads/${tier}`]);
  const alreadyPromoted = await exec('git', ['merge-base', '--is-ancestor', featureCommit, tierCommit], { cwd: root }).then(
    () => true,
    () => false,
  );
  const merged = await exec('git', ['merge-tree', '--write-tree', '--name-only', '--no-messages', tierCommit, featureCommit], { cwd: root }).then(
    ({ stdout }) => ({ tree: stdout.split('\n')[0]!.trim(), conflicts: [] as string[] }),
    (error: { stdout?: string; code?: number }) => {
      if (error.code !== 1 || !error.stdout) throw new Error(`git merge-tree failed in ${root}: ${String(error)}`);
      const [, ...files] = error.stdout.trim().split('\n');
      return { tree: null, conflicts: files.filter(Boolean) };
    },
  );
  const checkoutOnTier = (await git(root, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')) === `refs/heads/${tier}`;
  const touched = merged.tree ? (await git(root, ['diff', '--name-only', tierCommit, merged.tree])).split('\n').filter(Boolean) : [];
  const dirty = checkoutOnTier ? (await git(root, ['diff', '--name-only', 'HEAD'])).split('\n').filter(Boolean) : [];
  const overwrites = touched.filter((file) => dirty.includes(file));
  const tierDatabase = (await branches.list()).pairs.find((p) => p.gitBranch === tier && p.parent === null)?.name;
  if (!tierDatabase) throw new Error(`The tier ${tier} has no database yet: run \`baton branch list\` to pair it, then promote.`);
  const time = (request.now?.() ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').toLowerCase();
  // Two promotions in one second (a retry right after a rollback) get two snapshots.
  const taken = new Set((await branches.list()).pairs.flatMap((p) => [p.name, p.gitBranch ?? '']));
  let stamp = time;
  for (let n = 2; taken.has(`baton/snapshots/${tier}-${stamp}`) || (await gitBranchExists(root, `baton/snapshots/${tier}-${stamp}`)); n++)
    stamp = `${time}-${n}`;
  const snapshot = {
    database: plainDatabaseName(`snap/${tier}/${stamp}`, branches.prefix),
    gitBranch: `baton/snapshots/${tier}-${stamp}`,
    keepHours: settings.promote?.snapshotHours ?? DEFAULT_SNAPSHOT_HOURS,
  };
  const migrations = merged.tree ? await migrationsPlan(request, merged.tree, tierDatabase) : { tool: 'none' as const, pending: [], command: null };
  const verify = settings.promote?.verify ?? null;
  const route = await promoteRoute(root, settings.promote?.via);
  const refusal = alreadyPromoted
    ? `${branch} (${featureCommit.slice(0, 12)}) is already in ${tier}: there is nothing to promote.`
    : merged.conflicts.length
      ? `Merging ${branch} into ${tier} conflicts in ${merged.conflicts.join(', ')}. Merge ${tier} into ${branch} and resolve them (then build again), and promote after.`
      : overwrites.length
        ? `The main checkout has changes to ${overwrites.join(', ')}, which the merge would overwrite. Commit or stash them, then promote.`
        : null;
  const pending = migrations.pending === null ? `run \`${migrations.command}\`` : migrations.pending.length ? migrations.pending.join(', ') : 'nothing pending';
  const steps = [
    `snapshot the ${tier} database ${tierDatabase} as ${snapshot.database} (git branch ${snapshot.gitBranch} at ${tierCommit.slice(0, 12)}), kept ${snapshot.keepHours} h`,
    ...(route
      ? [`push ${branch} to ${route.remote} and open a pull request into ${tier} (or reuse the open one); wait for its checks`]
      : [
          `merge ${branch} (${featureCommit.slice(0, 12)}) into ${tier} (${tierCommit.slice(0, 12)}) with a merge commit made by Baton${checkoutOnTier ? '; the main checkout follows (fast-forward)' : ''}`,
        ]),
    `apply the merged tree's migrations to ${tierDatabase}: ${pending}`,
    verify ? `run \`${verify}\` against ${tierDatabase}` : `check that ${tierDatabase} has no migration left pending`,
    ...(route ? [`merge the pull request (gh pr merge --merge) and bring ${tier} to ${route.remote}'s`] : []),
    route
      ? `on any failure: leave the pull request unmerged and restore ${tierDatabase} from ${snapshot.database}`
      : `on any failure: move ${tier} back to ${tierCommit.slice(0, 12)} and restore ${tierDatabase} from ${snapshot.database}`,
  ];
  return {
    feature,
    featureBranch: branch,
    featureCommit,
    tier,
    tierCommit,
    tierDatabase,
    mergeTree: merged.tree,
    conflicts: merged.conflicts,
    alreadyPromoted,
    overwrites,
    checkoutOnTier,
    snapshot,
    migrations,
    verify,
    mode: route ? 'pull-request' : 'local',
    remote: route?.remote ?? null,
    refusal,
    steps,
  };
}

export async function promoteFeature(request: PromoteRequest & { readonly dryRun?: boolean }): Promise<PromoteOutcome> {
  const say = (text: string) => request.onOutput?.(`[promote] ${text}\n`);
  if (request.dryRun) {
    const plan = await planPromote(request);
    const open = openPromoteIntent((await request.ledger.read()).records, request.feature);
    const first = open ? [`first roll back the promotion of ${request.feature} that was interrupted (promote.started #${open.seq})`] : [];
    return {
      plan: { ...plan, steps: [...first, ...plan.steps] },
      recovered: null,
      outcome: 'planned',
      mergeCommit: null,
      applied: [],
      record: null,
      error: null,
    };
  }
  const recovered = await recoverPromote(request, say);
  const plan = await planPromote(request);
  if (plan.refusal) throw new Error(plan.refusal);
  const { root, branches, ledger } = request;
  const provider = branches.provider;
  const actor = { kind: 'orchestrator' as const, id: 'baton' };
  const started = performance.now();

  // The intent, before anything moves: a promotion stopped from here on is rolled back on the next try (promote-recover.ts).
  // The merge commit names it (Baton-Evidence): every approval and deploy before it is anchored in git.
  const intent = await ledger.append({
    type: RECORD_TYPES.promoteStarted,
    actor,
    subject: { feature: plan.feature },
    data: {
      feature: plan.feature,
      tier: plan.tier,
      tierCommit: plan.tierCommit,
      featureCommit: plan.featureCommit,
      tierDatabase: plan.tierDatabase,
      snapshot: plan.snapshot.database,
      snapshotBranch: plan.snapshot.gitBranch,
    },
  });
  failpoint('promote:started');
  say(`snapshot ${plan.tierDatabase} → ${plan.snapshot.database}`);
  await git(root, ['branch', plan.snapshot.gitBranch, plan.tierCommit]);
  try {
    await provider.create(plan.snapshot.database, plan.tierDatabase, request.signal ? { signal: request.signal } : {});
  } catch (error) {
    await deleteGitBranch(root, plan.snapshot.gitBranch).catch(() => undefined);
    throw error;
  }
  await putEntry(request.dataDir, {
    name: plan.snapshot.database,
    gitBranch: plan.snapshot.gitBranch,
    parent: plan.tierDatabase,
    worktree: null,
    createdAt: new Date().toISOString(),
    ttlHours: plan.snapshot.keepHours,
    masked: false,
  }).catch(async (error: unknown) => {
    await removeEntry(request.dataDir, plan.snapshot.database).catch(() => undefined);
    throw error;
  });
  failpoint('promote:snapshot');

  let failedAt = 'merging';
  let mergeCommit: string | null = null;
  const route = plan.remote ? { remote: plan.remote } : null;
  let pullRequest: { url: string; checks: 'pending' | 'passed' | 'none' } | null = null;
  let applied: string[] = [];
  let verifyOutput = '';
  /** The SQL files the tier now has applied, by version: `baton verify` checks the code still has them as they were. */
  let hashes: Record<string, string> = {};
  try {
    if (route) {
      failedAt = 'opening the pull request';
      const url = await openPullRequest(root, route, plan, mergeMessage({ ...plan, evidence: intent.hash }));
      pullRequest = { url, checks: 'pending' };
      say(`pull request ${url}; waiting for its checks`);
      failedAt = 'waiting for the pull request checks';
      const checked = await waitForChecks(root, url, request.settings.promote?.checksTimeoutMinutes, request.signal);
      pullRequest = { url, checks: checked.checks };
      say(checked.checks === 'none' ? `no checks reported on ${url}` : `the checks of ${url} passed`);
    } else {
      mergeCommit = await mergeLocally(root, { ...plan, evidence: intent.hash });
      say(`merge ${plan.featureBranch} into ${plan.tier}: ${mergeCommit.slice(0, 12)}`);
    }
    failpoint('promote:merged');

    failedAt = 'migrating the tier database';
    const site = join(request.dataDir, 'promote', 'tree');
    const scratch = join(request.dataDir, 'promote', 'scratch');
    await mkdir(scratch, { recursive: true });
    await checkoutTree(root, plan.mergeTree!, site, scratch, join(root, 'node_modules'));
    const url = await branches.connectionUrl(plan.tierDatabase, request.signal ? { signal: request.signal } : {});
    const migrationPlan = await planMigrations(site, request.settings);
    if (migrationPlan.tool === 'sql') hashes = Object.fromEntries(migrationPlan.files.map((f) => [f.version, f.sha256]));
    const report = await applyMigrations(url, migrationPlan, {
      cwd: site,
      branch: plan.tierDatabase,
      ...(request.signal ? { signal: request.signal } : {}),
    });
    applied = [...report.applied];
    failpoint('promote:migrated');
    say(`migrated ${plan.tierDatabase}: ${applied.length ? applied.join(', ') : 'nothing to apply'}`);

    failedAt = 'verifying the tier';
    if (plan.verify) verifyOutput = await runVerify(request, plan.verify, site, scratch, url);
    const left = await migrationsPlan(request, plan.mergeTree!, plan.tierDatabase);
    if (left.pending && left.pending.length) throw new Error(`${plan.tierDatabase} still has migrations pending after promoting: ${left.pending.join(', ')}.`);
    if (route && pullRequest) {
      // Merged last: until here nothing reached the tier's branch, so a failure leaves the pull request open.
      failedAt = 'merging the pull request';
      mergeCommit = await mergePullRequest(root, route, pullRequest.url, plan);
      say(`merged ${pullRequest.url}: ${plan.tier} is at ${mergeCommit.slice(0, 12)}`);
    }
  } catch (cause) {
    const error = cause instanceof Error ? cause.message : String(cause);
    say(`${failedAt} failed: ${error}`);
    const undone = mergeCommit && !route ? await undoMerge(root, plan, mergeCommit) : true;
    const restored = await provider
      .reset(plan.tierDatabase, { from: plan.snapshot.database })
      .then(() => true)
      .catch((e: unknown) => (say(`restoring ${plan.tierDatabase} failed: ${e instanceof Error ? e.message : String(e)}`), false));
    const record = await ledger.append({
      type: RECORD_TYPES.promoteRolledBack,
      actor,
      subject: { feature: plan.feature },
      data: {
        ...facts(plan, mergeCommit, applied, started),
        failedAt,
        error,
        snapshot: plan.snapshot.database,
        mergeUndone: undone,
        databaseRestored: restored,
        ...(pullRequest ? { pullRequest: pullRequest.url } : {}),
      },
      ...(verifyOutput ? { blobs: [{ name: 'verify-output', content: verifyOutput }] } : {}),
    });
    return { plan, recovered, outcome: 'rolled-back', mergeCommit: null, applied, record: record.hash, error };
  }
  failpoint('promote:verified');
  const record = await ledger.append({
    type: RECORD_TYPES.promoteDone,
    actor,
    subject: { feature: plan.feature },
    data: {
      ...facts(plan, mergeCommit!, applied, started),
      tierDatabase: plan.tierDatabase,
      snapshotBranch: plan.snapshot.gitBranch,
      migrationHashes: hashes,
      verify: plan.verify,
      ...(pullRequest ? { pullRequest: pullRequest.url, checks: pullRequest.checks } : {}),
    },
    ...(verifyOutput ? { blobs: [{ name: 'verify-output', content: verifyOutput }] } : {}),
  });
  return { plan, recovered, outcome: 'promoted', mergeCommit, applied, record: record.hash, error: null };
}

/** What both promote records say: which feature, which tier from which commit, the merge, the snapshot, what was applied, how long. */
const facts = <M extends string | null>(plan: PromotePlan, mergeCommit: M, applied: readonly string[], started: number) => ({
  feature: plan.feature,
  tier: plan.tier,
  tierCommit: plan.tierCommit,
  featureCommit: plan.featureCommit,
  mergeCommit,
  snapshot: plan.snapshot.database,
  applied,
  ms: Math.round(performance.now() - started),
});

/**
 * The feature database follows the feature branch: when a commit the orchestrator makes on it
 * changes the migrations, they are applied to the feature's own database at once (recorded as
 * `branch.migrated`), so its schema — and `baton branch diff` — is the branch head's. A failure is
 * recorded with its words and does not undo the commit (its tests passed on a fresh copy with these
 * migrations): the pair then shows as code ahead of its database.
 */
import { describeMigrationState } from '../../shared/branches';
import { RECORD_TYPES } from '../../shared/records';
import { applyMigrations, planMigrations } from '../branches/migrations';
import type { BranchService } from '../branches/service-api';
import type { Ledger } from '../ledger';
import type { CycleDeps, ExperimentPair } from './cycle-deps';
import { featureBranch } from './deploy';
import { git } from './git';

export async function keepMigrated(deps: CycleDeps, pair: ExperimentPair, from: string, to: string): Promise<void> {
  const migrations = deps.settings.migrations;
  if (!migrations) return;
  const changed = await git(deps.root, ['diff', '--name-only', from, to, '--', migrations.path]);
  if (!changed) return;
  const signal = deps.signal ? { signal: deps.signal } : {};
  let applied: readonly string[] = [];
  let error: string | null = null;
  try {
    const url = await deps.provider.connectionUrl(pair.database, signal);
    applied = (await applyMigrations(url, await planMigrations(pair.worktree, deps.settings), { cwd: pair.worktree, branch: pair.database, ...signal }))
      .applied;
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
    deps.emit({
      kind: 'runner.output',
      item: null,
      chunk: `[baton] the feature database ${pair.database} could not be migrated to ${to.slice(0, 12)}: ${error}\n`,
    });
  }
  await deps.ledger.append({
    type: RECORD_TYPES.branchMigrated,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature: deps.feature },
    data: { name: pair.database, gitBranch: pair.gitBranch, commit: to, provider: deps.provider.kind, applied, error },
  });
}

/**
 * Before a run builds on the feature's database: migrated to the branch head when the code is ahead
 * (recorded), and refused — with what to do — when the database is ahead of the code or an applied
 * migration was edited since (nothing built on it could be trusted).
 */
export async function alignFeatureDatabase(root: string, branches: BranchService, feature: string, ledger: Ledger): Promise<void> {
  const gitBranch = featureBranch(feature);
  const pair = (await branches.list()).pairs.find((p) => p.gitBranch === gitBranch && p.database);
  if (!pair) return;
  const state = await branches.migrationStatus(pair.name);
  if (state.state === 'database-ahead' || state.state === 'diverged')
    throw new Error(
      `${describeMigrationState(pair.name, state)}. The run does not build on a database that does not match its code: fork it again from its parent with the code's migrations (\`baton branch reset ${pair.name} --yes\`), then run again.`,
    );
  if (state.state !== 'code-ahead') return;
  const report = await branches.migrate(pair.name);
  await ledger.append({
    type: RECORD_TYPES.branchMigrated,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature },
    data: {
      name: pair.name,
      gitBranch,
      commit: await git(root, ['rev-parse', `refs/heads/${gitBranch}`]),
      provider: branches.kind,
      applied: report.applied,
      error: null,
    },
  });
}

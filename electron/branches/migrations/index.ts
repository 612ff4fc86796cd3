/**
 * A project's migrations, applied to a database branch: a plain SQL folder (sql-folder.ts) or a
 * tool run as a command with DATABASE_URL (node-pg-migrate, Knex, or anything configured).
 */
import { performance } from 'node:perf_hooks';
import type { MigrationReport, MigrationState } from '../../../shared/branches';
import { asBranchError, throwIfCancelled, type CallOptions } from '../provider';
import { runCommand, secretScrubber } from '../../process/run-command';
import { MigrationError } from './migration-error';
import type { MigrationPlan } from './plan';
import { applySqlFolder, readAppliedVersions } from './sql-folder';

export { MigrationError } from './migration-error';
export { naturalCompare, planMigrations, type MigrationPlan, type SqlMigrationFile } from './plan';

export interface ApplyMigrationsOptions extends CallOptions {
  /** Where a command tool runs: the pair's worktree. */
  readonly cwd: string;
  /** The environment a command tool starts from (DATABASE_URL is set on top); default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** For a command tool; default 10 minutes. */
  readonly timeoutMs?: number;
  /** The branch's name for messages and progress; default the database name in the URL. */
  readonly branch?: string;
}

/**
 * Applies `plan` to the database at `connectionUrl`. Throws `MigrationError` (carrying what was
 * applied so far) when a migration fails or an applied file changed, `BranchError` `cancelled`
 * between files when the signal aborts.
 */
export async function applyMigrations(connectionUrl: string, plan: MigrationPlan, options: ApplyMigrationsOptions): Promise<MigrationReport> {
  const branch = options.branch ?? databaseName(connectionUrl);
  if (plan.tool === 'none') return { tool: 'none', applied: [], skipped: [] };
  if (plan.tool === 'sql') return applySqlFolder(connectionUrl, plan.files, branch, options);

  throwIfCancelled(options.signal, `Migrating "${branch}"`);
  const started = performance.now();
  const shown = secretScrubber({ DATABASE_URL: connectionUrl })(plan.command);
  options.onProgress?.({ kind: 'branch.step', op: 'migrate', name: branch, step: `running ${shown}` });
  const result = await runCommand(plan.command, {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), DATABASE_URL: connectionUrl },
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((error: unknown) => {
    throw asBranchError(error);
  });
  const report: MigrationReport = { tool: plan.tool, applied: [], skipped: [] };
  if (result.code !== 0) {
    const ended = result.code === null ? `was ended by ${result.signal}` : `exited with code ${result.code}`;
    throw new MigrationError(
      'failed',
      `Migrations for branch "${branch}" failed: \`${shown}\` ${ended} in ${options.cwd}.\n${lastLines(result.stderr || result.stdout, 20)}\n` +
        'Whatever the tool committed before failing stays on the branch for inspection. Fix the migration, then apply the migrations again.',
      report,
      { file: null, line: null },
    );
  }
  options.onProgress?.({ kind: 'branch.done', op: 'migrate', name: branch, ms: Math.round(performance.now() - started) });
  return report;
}

/** Where the database at `connectionUrl` stands against `plan` (shared/branches.ts MigrationState); changes nothing. */
export async function migrationState(connectionUrl: string, plan: MigrationPlan): Promise<MigrationState> {
  if (plan.tool === 'none') return { state: 'current', codeAhead: [], databaseAhead: [], changed: [] };
  if (plan.tool !== 'sql') return { state: 'unknown', codeAhead: [], databaseAhead: [], changed: [] };
  const recorded = await readAppliedVersions(connectionUrl);
  const files = new Map(plan.files.map((f) => [f.version, f.sha256]));
  const codeAhead = plan.files.filter((f) => !recorded.has(f.version)).map((f) => f.version);
  const databaseAhead = [...recorded.keys()].filter((v) => !files.has(v));
  const changed = [...recorded].filter(([v, sha]) => files.has(v) && files.get(v) !== sha).map(([v]) => v);
  const state = databaseAhead.length || changed.length ? (codeAhead.length ? 'diverged' : 'database-ahead') : codeAhead.length ? 'code-ahead' : 'current';
  return { state, codeAhead, databaseAhead, changed };
}

function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-count).join('\n') || '(no output)';
}

function databaseName(connectionUrl: string): string {
  try {
    return decodeURIComponent(new URL(connectionUrl).pathname.slice(1)) || 'database';
  } catch {
    return 'database';
  }
}

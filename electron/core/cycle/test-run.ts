/**
 * One run of the project's tests on a fresh throwaway database branch, forked from the story's
 * experiment branch with the worktree's migrations applied, then deleted. A migration that fails
 * is a suite that did not load: reported as an errored case with the migration's message.
 */
import { randomBytes } from 'node:crypto';
import type { MigrationReport } from '../../../shared/branches';
import { applyMigrations, planMigrations } from '../../branches/migrations';
import type { BranchProvider } from '../../branches/provider';
import type { ProjectSettings } from '../../project/settings';
import { runTests, type RunResult } from '../../runner/run-tests';

export const THROWAWAY_PREFIX = 'tmp-';
const DEFAULT_TIMEOUT_S = 600;

export interface TestRunOutcome {
  readonly run: RunResult;
  readonly migrations: MigrationReport | null;
  readonly database: string;
  /** Wall time of the whole run: the throwaway branch, migrations, the command, the clean-up. */
  readonly ms: number;
}

export async function runOnFreshBranch(
  provider: BranchProvider,
  parentDatabase: string,
  settings: ProjectSettings,
  worktree: string,
  signal?: AbortSignal,
  onOutput?: (text: string) => void,
): Promise<TestRunOutcome> {
  if (!settings.testCommand) throw new Error('No testCommand in .baton/project.json: Baton cannot run the tests itself. Set it (for example "npm test") and run again.');
  const started = Date.now();
  const database = `${THROWAWAY_PREFIX}${randomBytes(5).toString('hex')}`;
  let migrations: MigrationReport | null = null;
  let migrationError: string | null = null;
  await provider.create(database, parentDatabase, {
    ...(signal ? { signal } : {}),
    prepare: async (url) => {
      try {
        migrations = await applyMigrations(url, await planMigrations(worktree, settings), { cwd: worktree, branch: database, ...(signal ? { signal } : {}) });
      } catch (error) {
        // Keep the branch: the run below reports the failure as a suite that did not load.
        migrationError = error instanceof Error ? error.message : String(error);
      }
    },
  });
  let outcome: Omit<TestRunOutcome, 'ms'>;
  try {
    if (migrationError !== null) {
      const message = `Migrations failed, so the suite did not run: ${migrationError}`;
      const run: RunResult = {
        exitCode: null,
        stdout: '',
        stderr: message,
        reportText: null,
        report: { format: settings.reportFormat, cases: [{ id: '(migrations)', name: '(migrations)', suite: [], file: null, status: 'errored', durationMs: null, message }], totals: { passed: 0, failed: 0, errored: 1, skipped: 0 } },
        ms: 0,
      };
      outcome = { run, migrations, database };
    } else {
      const url = await provider.connectionUrl(database, signal ? { signal } : {});
      const run = await runTests({
        worktree,
        command: settings.testCommand,
        format: settings.reportFormat,
        reportPath: settings.reportPath ?? 'reports/junit.xml',
        env: { DATABASE_URL: url, PGSSLMODE: 'disable' },
        timeoutMs: (settings.testTimeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000,
        sandbox: settings.sandbox,
        ...(signal ? { signal } : {}),
        ...(onOutput ? { onOutput } : {}),
      });
      outcome = { run, migrations, database };
    }
  } finally {
    await provider.delete(database).catch(() => undefined);
  }
  return { ...outcome, ms: Date.now() - started };
}

/** Throwaway branches a killed run left behind; removed when the next run starts. */
export async function removeLeftoverThrowaways(provider: BranchProvider): Promise<string[]> {
  const leftovers = (await provider.list()).filter((b) => b.name.startsWith(THROWAWAY_PREFIX));
  for (const b of leftovers) await provider.delete(b.name).catch(() => undefined);
  return leftovers.map((b) => b.name);
}

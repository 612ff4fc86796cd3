/**
 * Applies a plain SQL folder: each file not yet recorded in `public.baton_migrations` runs in its
 * own transaction together with the row that records it, so a file is either wholly applied and
 * recorded or not at all. A failure stops there and keeps the earlier files: the branch stays
 * usable for inspection.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { redactUrl, type MigrationReport } from '../../../shared/branches';
import { BranchError, throwIfCancelled, type CallOptions } from '../provider';
import { secretScrubber } from '../../process/run-command';
import type { SqlMigrationFile } from './plan';
import { describeSqlError, whereInScript } from './sql-error';
import { MigrationError } from './migration-error';

const VERSIONS_TABLE = 'public.baton_migrations';
const CREATE_VERSIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (
  version text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;

/** Version → sha256 of every file applied to the database (none when it has no versions table). */
export async function readAppliedVersions(connectionUrl: string): Promise<Map<string, string>> {
  const client = await connect(connectionUrl, databaseOf(connectionUrl));
  try {
    const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('${VERSIONS_TABLE}')::text AS t`);
    if (!exists.rows[0]?.t) return new Map();
    const { rows } = await client.query<{ version: string; sha256: string }>(`SELECT version, sha256 FROM ${VERSIONS_TABLE}`);
    return new Map(rows.map((r) => [r.version, r.sha256]));
  } finally {
    await client.end().catch(() => undefined);
  }
}

const databaseOf = (url: string): string => {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || 'database';
  } catch {
    return 'database';
  }
};

export async function applySqlFolder(
  connectionUrl: string,
  files: readonly SqlMigrationFile[],
  branch: string,
  options: CallOptions,
): Promise<MigrationReport> {
  const started = performance.now();
  const applied: string[] = [];
  const skipped: string[] = [];
  const report = (): MigrationReport => ({ tool: 'sql', applied: [...applied], skipped: [...skipped] });

  const client = await connect(connectionUrl, branch);
  try {
    await client.query(CREATE_VERSIONS_TABLE);
    const recorded = new Map(
      (await client.query<{ version: string; sha256: string }>(`SELECT version, sha256 FROM ${VERSIONS_TABLE}`)).rows.map((r) => [r.version, r.sha256]),
    );
    // Refuse before applying anything: a changed history means this branch no longer matches the files.
    for (const file of files) {
      const sha = recorded.get(file.version);
      if (sha !== undefined && sha !== file.sha256) {
        throw new MigrationError(
          'invalid',
          `${file.path} was changed after it was applied to branch "${branch}" (applied sha256 ${sha.slice(0, 12)}…, the file is now ${file.sha256.slice(0, 12)}…). ` +
            'An applied migration must stay as it was: restore it and put the change in a new migration file, or reset the branch to apply every migration from scratch.',
          report(),
          { file: file.path, line: null },
        );
      }
    }
    for (const file of files) {
      if (recorded.has(file.version)) {
        skipped.push(file.version);
        continue;
      }
      throwIfCancelled(options.signal, `Migrating "${branch}" (before ${file.path}; ${applied.length} applied)`);
      options.onProgress?.({ kind: 'branch.step', op: 'migrate', name: branch, step: `applying ${file.path}` });
      await applyOne(client, file, branch, report, applied, [...recorded.keys()]);
      applied.push(file.version);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  options.onProgress?.({ kind: 'branch.done', op: 'migrate', name: branch, ms: Math.round(performance.now() - started) });
  return report();
}

async function applyOne(
  client: pg.Client,
  file: SqlMigrationFile,
  branch: string,
  report: () => MigrationReport,
  applied: readonly string[],
  recorded: readonly string[],
): Promise<void> {
  await client.query('BEGIN');
  try {
    // No parameters: the simple query protocol, so a file may hold many statements.
    await client.query(file.sql);
    await client.query(`INSERT INTO ${VERSIONS_TABLE} (version, sha256) VALUES ($1, $2)`, [file.version, file.sha256]);
    // The bookkeeping must still hold every migration applied before this one, and this one: a file
    // that deletes or rewrites it could make applied migrations run again, or hide one.
    const expected = [...new Set([...recorded, ...applied, file.version])];
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${VERSIONS_TABLE} WHERE version = ANY($1::text[])`, [expected]);
    if (rows[0]?.n !== expected.length) {
      await client.query('ROLLBACK');
      throw new MigrationError(
        'invalid',
        `Migration ${file.path} changed Baton's own bookkeeping (${VERSIONS_TABLE}) on branch "${branch}": ${expected.length - (rows[0]?.n ?? 0)} of the ${expected.length} recorded migrations vanished. ` +
          'It was rolled back. A migration must not touch baton_migrations: remove that part of the file.',
        report(),
        { file: file.path, line: null },
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    await client.query('ROLLBACK').catch(() => undefined);
    const info = describeSqlError(error, file.sql);
    const kept =
      applied.length > 0 ? `The ${applied.length} migration(s) before it (${applied.join(', ')}) stay applied` : 'No earlier migration was applied in this run';
    throw new MigrationError(
      'failed',
      `Migration ${file.path} failed${whereInScript(info)} on branch "${branch}": ${info.message}. ` +
        `It was rolled back. ${kept}, and the branch is left as it is for inspection. Fix the file, then apply the migrations again.`,
      report(),
      { file: file.path, line: info.line, cause: error },
    );
  }
}

async function connect(connectionUrl: string, branch: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: connectionUrl, connectionTimeoutMillis: 15_000 });
  // A dropped connection is reported by the failing query; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    const scrub = secretScrubber({ DATABASE_URL: connectionUrl });
    throw new BranchError(
      'unreachable',
      `Could not connect to branch "${branch}" at ${redactUrl(connectionUrl)} to apply migrations: ${scrub((error as Error).message)}. Check that the branch exists and its server is running.`,
    );
  }
}

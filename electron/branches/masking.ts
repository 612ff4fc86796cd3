/**
 * Masking: the project's SQL file or command that runs on every new branch before anything else
 * connects (for example scrubbing emails when the parent holds real data). SQL runs in one
 * transaction, so a branch is either wholly masked or the failure stops its creation.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import pg from 'pg';
import { redactUrl } from '../../shared/branches';
import type { ProjectSettings } from '../project/settings';
import { describeSqlError, whereInScript } from './migrations/sql-error';
import { asBranchError, BranchError, throwIfCancelled, type CallOptions } from './provider';
import { runCommand, secretScrubber } from '../process/run-command';

export type MaskingSetting = ProjectSettings['masking'];

export interface MaskingOptions extends CallOptions {
  /** The environment a masking command starts from (DATABASE_URL is set on top); default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

/**
 * Masks the branch at `connectionUrl`; true when something ran, false for no masking. `masking` is
 * a path to a `.sql` file relative to `root`, `{ sql }` (the same, or the SQL itself when it does
 * not look like a file name), or `{ command }` run in `root` with DATABASE_URL.
 */
export async function applyMasking(connectionUrl: string, masking: MaskingSetting, root: string, options: MaskingOptions = {}): Promise<boolean> {
  if (masking === null) return false;
  throwIfCancelled(options.signal, 'Masking');
  if (typeof masking === 'object' && 'command' in masking) {
    await maskWithCommand(connectionUrl, masking.command, root, options);
    return true;
  }
  const setting = typeof masking === 'string' ? masking : masking.sql;
  const inline = typeof masking === 'object' && !looksLikeFile(setting);
  const script = inline ? { label: 'the masking SQL in .baton/project.json', sql: setting } : await readMaskingFile(root, setting);
  throwIfCancelled(options.signal, 'Masking');
  await runInTransaction(connectionUrl, script.label, script.sql);
  return true;
}

/** `{ sql: 'masking/scrub.sql' }` names a file; `{ sql: 'UPDATE users SET …' }` is the SQL. */
function looksLikeFile(value: string): boolean {
  return /^[^\s;]+\.sql$/i.test(value.trim());
}

async function readMaskingFile(root: string, path: string): Promise<{ label: string; sql: string }> {
  try {
    return { label: path, sql: await readFile(resolve(root, path), 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'was not found' : `could not be read (${code ?? (error as Error).message})`;
    throw new BranchError('invalid', `The masking file "${path}" ${why} in ${root}. Create it, or change "masking" in .baton/project.json (null for none).`);
  }
}

async function runInTransaction(connectionUrl: string, label: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: connectionUrl, connectionTimeoutMillis: 15_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    const scrub = secretScrubber({ DATABASE_URL: connectionUrl });
    throw new BranchError(
      'unreachable',
      `Could not connect to ${redactUrl(connectionUrl)} to run masking: ${scrub((error as Error).message)}. Check that the branch's server is running.`,
    );
  }
  try {
    await client.query('BEGIN');
    await client.query(sql);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const info = describeSqlError(error, sql);
    throw new BranchError(
      'failed',
      `Masking with ${label} failed${whereInScript(info)}: ${info.message}. It was rolled back, so nothing was masked. Fix the masking SQL and try again.`,
      {
        cause: error,
      },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function maskWithCommand(connectionUrl: string, command: string, root: string, options: MaskingOptions): Promise<void> {
  const env = { ...(options.env ?? process.env), DATABASE_URL: connectionUrl };
  const shown = secretScrubber(env)(command);
  const result = await runCommand(command, {
    cwd: root,
    env,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }).catch((error: unknown) => {
    throw asBranchError(error);
  });
  if (result.code !== 0) {
    const ended = result.code === null ? `was ended by ${result.signal}` : `exited with code ${result.code}`;
    const output = (result.stderr || result.stdout).trimEnd().split('\n').slice(-20).join('\n') || '(no output)';
    throw new BranchError('failed', `The masking command \`${shown}\` ${ended} in ${root}.\n${output}\nFix the command and try again.`);
  }
}

/**
 * The evaluation drives Baton the way a person does: `baton run`, `baton metrics` as child
 * processes, each run with its own data and config folders (BATON_DATA_DIR, BATON_CONFIG_DIR),
 * so runs in parallel lanes share nothing and a killed evaluation leaves each run resumable.
 */
import { join } from 'node:path';
import { packageRoot } from '../platform/package-root';
import { quoteArg, runCommand } from '../process/run-command';

export const BATON_BIN = join(packageRoot(import.meta.url), 'bin', 'baton.mjs');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export async function batonCli(
  args: readonly string[],
  options: { readonly folder: string; readonly timeoutMs: number; readonly signal?: AbortSignal },
): Promise<CliResult> {
  const started = Date.now();
  const command = [process.execPath, BATON_BIN, ...args].map(quoteArg).join(' ');
  const env = { ...process.env, BATON_DATA_DIR: join(options.folder, 'data'), BATON_CONFIG_DIR: join(options.folder, 'config') };
  const result = await runCommand(command, {
    cwd: options.folder,
    env,
    timeoutMs: options.timeoutMs,
    maxOutputChars: 8 * 1024 * 1024,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

/** The JSON a `--json` command printed (its stdout), or null with why. */
export function jsonOf<T>(result: CliResult): T | null {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    return null;
  }
}

/** The last non-empty line of a command's output (where its error is), at most 300 characters. */
export const lastLine = (text: string): string => text.trim().split('\n').filter(Boolean).slice(-1)[0]?.slice(0, 300) ?? '(no output)';

/**
 * Commands that act on a project open it exactly as the UI does: a host session on a Workbench,
 * `project:open` and every later call through dispatch (electron/core/host-session.ts).
 */
import type { HostSession } from '../core/host-session';
import { hostSessions } from './core';
import type { WorkbenchOptions } from '../core/workbench';
import type { ProjectView } from '../../shared/model';
import { writableProject, type ReadOnlyAction } from '../../shared/read-only';
import type { AppError } from '../../shared/result';
import { EXIT, type ExitCode } from './exit-codes';
import { printError, type Io } from './io';

/** What the CLI adds to its Workbench beyond the defaults: the run's and the branches' overrides. */
export type CliOptions = Partial<Pick<WorkbenchOptions, 'run' | 'branches'>>;

/**
 * `shows` names what a command would change when it prints something from the project before the
 * write (approve lists the hashes, restore the files): on a read-only project (a Consort project, a
 * review bundle) it says why it cannot — with the words every channel uses — and exits 1 before
 * printing anything else. Commands that only dispatch leave that refusal to the channel.
 */
export async function withProject(
  path: string,
  json: boolean,
  io: Io,
  fn: (session: HostSession, view: ProjectView) => Promise<ExitCode>,
  shows?: ReadOnlyAction,
  options: CliOptions = {},
): Promise<ExitCode> {
  const { hostDefaults, openHostSession } = await hostSessions();
  const opened = await openHostSession(path, { ...hostDefaults('cli'), ...options });
  if (!opened.ok) return failed(io, opened.error, json);
  const { session, project } = opened.value;
  try {
    const writable = shows ? writableProject(project, shows) : null;
    if (writable && !writable.ok) return failed(io, writable.error, json);
    return await fn(session, project);
  } finally {
    await closeSession(session, io);
  }
}

/** How long a command waits for its project to close after its work is done. */
export const CLOSE_WAIT_MS = 30_000;

/**
 * Closes a command's session once its work is done. A failure, or a close still going after
 * `waitMs`, must not hide the command's own outcome (or keep the command from exiting): it is one
 * more line on stderr, and the command returns.
 */
export async function closeSession(session: HostSession, io: Io, waitMs = CLOSE_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), waitMs)));
  try {
    const closed = await Promise.race([session.close().then(() => 'closed' as const), late]);
    if (closed === 'late') io.err(`baton: warning: closing the project took over ${waitMs / 1000} s; the command ends without waiting for it.`);
  } catch (cause) {
    io.err(`baton: warning: closing the project failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Prints the error (stderr; with --json also as `{ok:false, error}` on stdout) and returns exit 1. */
export function failed(io: Io, error: AppError, json: boolean): ExitCode {
  printError(io, error, json);
  return EXIT.problems;
}

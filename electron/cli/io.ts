/** Output for commands: plain text for people, one JSON document for machines. */
import type { AppError } from '../../shared/result';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : text + '\n'),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : text + '\n'),
};

export const printJson = (io: Io, value: unknown): void => io.out(JSON.stringify(value, null, 2));

/** An error: to stderr for people; with --json also as `{ok:false, error}` on stdout. */
export function printError(io: Io, error: AppError, json: boolean): void {
  if (json) printJson(io, { ok: false, error });
  io.err(`baton: ${error.message}`);
}

/** One line of an unexpected error's message: the first line, clipped, so stderr shows no dump. */
const oneLine = (cause: unknown): string => {
  let text: string;
  try {
    const message = (cause as { message?: unknown } | null | undefined)?.message;
    text = typeof message === 'string' ? message : String(cause);
  } catch {
    text = typeof cause;
  }
  const first = text.split('\n').find((line) => line.trim() !== '') ?? '(no message)';
  return first.length > 500 ? `${first.slice(0, 500)}…` : first.trim();
};

/**
 * The last resort for an error no command expected (a bug, not a refusal): one clear line on stderr
 * (the stack trace only with BATON_DEBUG=1), and with --json the same as `{ok:false, error}` on stdout
 * (code `internal`), so a script always gets one JSON document and never a stack trace.
 */
export function printUnexpected(io: Io, cause: unknown, json: boolean, env: NodeJS.ProcessEnv = process.env): void {
  const error: AppError = { code: 'internal', message: `an unexpected error stopped the command: ${oneLine(cause)}` };
  if (json) {
    try {
      printJson(io, { ok: false, error });
    } catch {
      // stdout is gone (a closed pipe): stderr still says what happened.
    }
  }
  const debug = env['BATON_DEBUG'] === '1';
  io.err(`baton: ${error.message}${debug ? '' : ' (run with BATON_DEBUG=1 for the stack trace, and please report it)'}`);
  if (debug && cause instanceof Error && cause.stack) io.err(cause.stack);
}

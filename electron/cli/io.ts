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

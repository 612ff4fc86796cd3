/** What every `baton` command declares: its name, its options and how it runs. */
import type { ParseArgsConfig } from 'node:util';
import type { ExitCode } from './exit-codes';
import { UsageError } from './exit-codes';
import type { Io } from './io';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | string[] | undefined>;

export interface Command {
  readonly name: string;
  /** One usage line, e.g. `inspect <dir> [--json]`. */
  readonly synopsis: string;
  readonly summary: string;
  readonly options: Options;
  run(positionals: string[], values: Values, io: Io): Promise<ExitCode>;
}

export const flag = (values: Values, name: string): boolean => values[name] === true;

export function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

export function required(values: Values, name: string, synopsis: string): string {
  const value = text(values, name);
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required: baton ${synopsis}`);
  return value;
}

/**
 * A flag the command cannot do without: only its presence is the command line's business; what it
 * holds (empty, too long, the wrong shape) is the contract's to refuse, in every host's words.
 */
export function given(values: Values, name: string, synopsis: string): string {
  const value = text(values, name);
  if (value === undefined) throw new UsageError(`--${name} is required: baton ${synopsis}`);
  return value;
}

export function list(values: Values, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** Exactly one folder (or file) argument. */
export function onePath(positionals: string[], synopsis: string): string {
  const [path, ...extra] = positionals;
  const name = synopsis.split(' ')[0];
  if (!path || extra.length) throw new UsageError(`${name} takes one folder: baton ${synopsis}`);
  return path;
}

export const JSON_OPTION = { json: { type: 'boolean', default: false } } as const satisfies Options;

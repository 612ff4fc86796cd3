/** The Ledger's public shapes, and the checks an append's input must pass before anything is written. */
import type { Actor, LedgerRecord, Subject, VerifyProblem } from '../../shared/ledger';
import { recordDataProblem, type RecordData, type RecordType } from '../../shared/records';

interface AppendBase<T extends string> {
  readonly type: T;
  readonly actor: Actor;
  readonly subject?: Subject;
  readonly blobs?: readonly { readonly name: string; readonly content: string | Uint8Array }[];
}

/**
 * What an append takes: a catalogued type (shared/records.ts) with data of its schema, or any other
 * type (a test's, an importer's) with any object.
 */
export type AppendInput<T extends string = string> = AppendBase<T> &
  (T extends RecordType ? { readonly data: RecordData<T> } : { readonly data?: Readonly<Record<string, unknown>> });

export interface LedgerSnapshot {
  readonly records: LedgerRecord[];
  readonly problems: VerifyProblem[];
  /** A final line without `\n` that does not parse (a write cut short); `baton verify --repair-tail` drops it. */
  readonly tornTail: { readonly offset: number; readonly bytes: number } | null;
}

export interface LedgerTx {
  /** Every record on disk when the transaction started, plus those it appended. */
  readonly records: readonly LedgerRecord[];
  append<T extends string>(input: AppendInput<T>): Promise<LedgerRecord>;
}

const ACTOR_KINDS: readonly string[] = ['orchestrator', 'agent', 'person'];

const isPlainObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Throws (before anything is written) when `input` would make a record the reader rejects. */
export const checkAppendInput = (input: AppendBase<string> & { readonly data?: unknown }): void => {
  const problem = appendInputProblem(input);
  if (problem !== null) throw new Error(`Cannot append to the ledger: ${problem}.`);
};

const appendInputProblem = (input: AppendBase<string> & { readonly data?: unknown }): string | null => {
  if (typeof input.type !== 'string' || input.type.trim() === '') return 'the record has no type';
  const actor = input.actor as Partial<Actor> | undefined;
  if (!actor || !ACTOR_KINDS.includes(actor.kind as string)) return 'the actor kind must be orchestrator, agent or person';
  if (typeof actor.id !== 'string' || actor.id.trim() === '') return 'the actor has no id (who did this?)';
  if (input.subject !== undefined && !isPlainObject(input.subject)) return 'the subject must be an object';
  if (input.data !== undefined && !isPlainObject(input.data)) return 'data must be an object';
  const malformed = recordDataProblem({ type: input.type, data: input.data ?? {} });
  if (malformed !== null) return `the ${input.type} record's data does not match its schema (shared/records.ts): ${malformed}`;
  for (const blob of input.blobs ?? []) {
    if (typeof blob.name !== 'string' || blob.name === '') return 'every blob needs a name';
    if (typeof blob.content !== 'string' && !(blob.content instanceof Uint8Array)) return `blob "${blob.name}" has no text or bytes`;
  }
  return null;
};

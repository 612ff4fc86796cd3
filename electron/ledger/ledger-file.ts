/**
 * Parsing `events.jsonl`: one JSON record a line, `\n`-terminated. Tolerant by design — a damaged
 * line becomes a located entry and the lines around it still load — because the reader must show a
 * broken ledger, not refuse it; verify-chain decides what the damage means.
 */
import path from 'node:path';
import { describeJsonHazard, jsonHazard } from '../../shared/json-safety';
import type { LedgerRecord } from '../../shared/ledger';

export const EVENTS_FILE = 'events.jsonl';
export const BLOBS_DIR = 'blobs';
export const LOCK_FILE = '.lock';
export const SIGNATURE_FILE = 'head.sig.json';

const SHA256 = /^[0-9a-f]{64}$/;
const ACTOR_KINDS: readonly string[] = ['orchestrator', 'agent', 'person'];
const LF = 0x0a;

export const isSha256 = (value: unknown): value is string => typeof value === 'string' && SHA256.test(value);

/** One line of the file: a record, or what is wrong with it. `line` counts from 1. */
export type LedgerEntry = { readonly line: number; readonly record: LedgerRecord } | { readonly line: number; readonly seq?: number; readonly problem: string };

export interface ParsedLedger {
  readonly entries: LedgerEntry[];
  /** A final line without `\n` that does not parse: a write cut short (offset = where it starts). */
  readonly tornTail: { readonly offset: number; readonly bytes: number; readonly line: number } | null;
  /** The final line has no `\n` but is a whole record: the next append must start a new line. */
  readonly unterminated: boolean;
  /** Byte offset just after the last `\n` (end of the complete lines). */
  readonly complete: number;
  /** Number of lines seen, the torn tail included. */
  readonly lines: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Why `value` is not a ledger record, or null when it is one. Extra fields are allowed: the hash covers them. */
export const recordShapeProblem = (value: unknown): string | null => {
  if (!isObject(value)) return 'it is not a JSON object';
  const v = value;
  if (!Number.isInteger(v['seq']) || (v['seq'] as number) < 1) return '`seq` is not a whole number from 1 up';
  if (typeof v['at'] !== 'string') return '`at` is missing';
  if (typeof v['type'] !== 'string' || v['type'] === '') return '`type` is missing';
  const actor = v['actor'];
  if (!isObject(actor) || !ACTOR_KINDS.includes(actor['kind'] as string) || typeof actor['id'] !== 'string') {
    return '`actor` is not {kind: orchestrator|agent|person, id}';
  }
  if (!isObject(v['subject'])) return '`subject` is not an object';
  if (!isObject(v['data'])) return '`data` is not an object';
  const blobs = v['blobs'];
  if (!Array.isArray(blobs)) return '`blobs` is not a list';
  for (const blob of blobs) {
    if (!isObject(blob) || typeof blob['name'] !== 'string' || !isSha256(blob['sha256'])) {
      return 'a blob reference is not {name, sha256 (64 hex digits), bytes}';
    }
    if (!Number.isInteger(blob['bytes']) || (blob['bytes'] as number) < 0) return `blob "${blob['name']}" has no valid byte count`;
  }
  if (!isSha256(v['prev'])) return '`prev` is not a SHA-256 (64 hex digits)';
  if (!isSha256(v['hash'])) return '`hash` is not a SHA-256 (64 hex digits)';
  return null;
};

const readableSeq = (value: unknown): number | undefined => (isObject(value) && Number.isInteger(value['seq']) ? (value['seq'] as number) : undefined);

const parseLine = (text: string, line: number): LedgerEntry => {
  if (text.trim() === '') return { line, problem: `line ${line} is empty; a ledger line must hold one record` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { line, problem: `line ${line} is not valid JSON (${reason}); the record there cannot be read` };
  }
  const shape = recordShapeProblem(value);
  const seq = readableSeq(value);
  if (shape !== null) return { line, ...(seq !== undefined ? { seq } : {}), problem: `line ${line} is not a ledger record: ${shape}` };
  // A record must hash (RFC 8785) and be safe to walk: 1e999, a lone surrogate or 100,000-deep data
  // would make every later reader throw, so the line is damage, located here, like any other.
  const hazard = jsonHazard(value, text);
  if (hazard !== null)
    return {
      line,
      ...(seq !== undefined ? { seq } : {}),
      problem: `line ${line} holds a record that cannot be hashed: it contains ${describeJsonHazard(hazard)}`,
    };
  return { line, record: value as unknown as LedgerRecord };
};

/**
 * Parses `bytes` (the whole file, or its end from `baseOffset` when reading incrementally, with
 * `firstLine` the number of its first line).
 */
export const parseLedger = (bytes: Buffer, firstLine = 1, baseOffset = 0): ParsedLedger => {
  // One decode for the whole file: LF never occurs inside a UTF-8 sequence, so splitting the text
  // gives the same lines as splitting the bytes, at a fraction of the cost of decoding each line.
  const text = bytes.toString('utf8');
  const complete = baseOffset + bytes.lastIndexOf(LF) + 1;
  const entries: LedgerEntry[] = [];
  let start = 0;
  let line = firstLine;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    entries.push(parseLine(text.slice(start, end), line));
    line++;
    start = end + 1;
  }
  if (start === text.length) return { entries, tornTail: null, unterminated: false, complete, lines: line - 1 };
  const rest = text.slice(start);
  const tail = parseLine(rest, line);
  if ('record' in tail) return { entries: [...entries, tail], tornTail: null, unterminated: true, complete, lines: line };
  let parses = true;
  try {
    JSON.parse(rest);
  } catch {
    parses = false;
  }
  // JSON that is simply not a record is damage, not a cut-short write: report it like any bad line.
  if (parses) return { entries: [...entries, tail], tornTail: null, unterminated: true, complete, lines: line };
  const tornBytes = baseOffset + bytes.length - complete;
  return { entries, tornTail: { offset: complete, bytes: tornBytes, line }, unterminated: false, complete, lines: line };
};

/**
 * How a problem names a file: relative to `displayRoot` (default: the folder holding the artifact
 * root, so paths read `.baton/ledger/events.jsonl`), always `/`-separated.
 */
export const displayPath = (ledgerDir: string, displayRoot: string | undefined, ...parts: string[]): string => {
  const root = displayRoot ?? path.dirname(path.dirname(path.resolve(ledgerDir)));
  return path
    .relative(root, path.join(path.resolve(ledgerDir), ...parts))
    .split(path.sep)
    .join('/');
};

export const tornTailMessage = (torn: { offset: number; bytes: number; line: number }): string =>
  `the file ends with an incomplete line (line ${torn.line}: ${torn.bytes} bytes from byte ${torn.offset}), ` +
  'left by a write that was cut short (a crash or power loss). Run `baton verify --repair-tail` to drop it; ' +
  'the repair is itself recorded in the ledger.';

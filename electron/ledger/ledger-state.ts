/**
 * What a Ledger knows about its events file, kept between reads. Appends are the common case, so a
 * later load reads only the bytes added since — after checking that the last line it knew is still
 * there, byte for byte — instead of re-parsing the whole file (10,000 appends would otherwise parse
 * 50 million lines). Anything unexpected (another inode, a shorter file, a changed join) falls
 * back to a full read.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LedgerRecord, VerifyProblem } from '../../shared/ledger';
import { isMissing } from '../platform/fs-facts';
import { openRegularFile, readRegularFile, SafeReadError } from '../platform/safe-read';
import { parseLedger, tornTailMessage, type ParsedLedger } from './ledger-file';

/**
 * events.jsonl is read whole; past this it is not read at all (a ledger that large is not one
 * Baton wrote in any real project, and the text could not be held as one string anyway).
 */
export const MAX_EVENTS_BYTES = 1024 * 1024 * 1024;

/** The whole events file; a SafeReadError when it is a symlink, a FIFO, a device or over MAX_EVENTS_BYTES. */
export const readEventsFile = async (file: string): Promise<Buffer> => {
  await refuseLinkedFolders(file);
  return readRegularFile(file, { maxBytes: MAX_EVENTS_BYTES });
};

/**
 * A ledger file is read only from real folders: the ledger folder and the artifact folder above it
 * (`.baton/ledger/`) may not be symbolic links, which would lead every read (events, checkpoints)
 * to a folder outside the project while the file itself looks local. Refused as a SafeReadError.
 */
export async function refuseLinkedFolders(file: string): Promise<void> {
  const ledgerDir = path.dirname(file);
  for (const dir of [ledgerDir, path.dirname(ledgerDir)]) {
    const stat = await fs.lstat(dir).catch(() => null);
    if (stat?.isSymbolicLink())
      throw new SafeReadError(
        file,
        'symlink',
        `is inside ${dir}, a symbolic link: Baton reads a ledger only from the project's own folders. Replace the link with the folder it points to.`,
      );
  }
}

export interface LedgerState {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly records: LedgerRecord[];
  readonly problems: VerifyProblem[];
  readonly tornTail: { readonly offset: number; readonly bytes: number; readonly line: number } | null;
  readonly unterminated: boolean;
  /** Lines seen so far (a torn tail included). */
  readonly lines: number;
  /** The final complete line's bytes, `\n` included; null when there is none. */
  readonly lastLine: Buffer | null;
  /** The final line holds a record (not damage): only then may a new record follow it. */
  readonly lastLineIsRecord: boolean;
}

/** A new object each time: appends grow `records` in place, so it must never be shared. */
export const emptyState = (): LedgerState => ({
  ino: 0,
  size: 0,
  mtimeMs: 0,
  records: [],
  problems: [],
  tornTail: null,
  unterminated: false,
  lines: 0,
  lastLine: null,
  lastLineIsRecord: false,
});

const build = (
  base: Pick<LedgerState, 'records' | 'problems'>,
  parsed: ParsedLedger,
  bytes: Buffer,
  bytesOffset: number,
  stat: { ino: number; mtimeMs: number },
  file: string,
  hadLines: { lastLine: Buffer | null; lastLineIsRecord: boolean },
): LedgerState => {
  const records = [...base.records];
  const problems = [...base.problems];
  for (const entry of parsed.entries) {
    if ('record' in entry) records.push(entry.record);
    else problems.push({ file, ...(entry.seq !== undefined ? { seq: entry.seq } : {}), message: entry.problem });
  }
  if (parsed.tornTail) problems.push({ file, message: tornTailMessage(parsed.tornTail) });
  const lastEntry = parsed.entries.at(-1);
  // The last complete line ends at `parsed.complete`; find where it starts.
  const localEnd = parsed.complete - bytesOffset;
  // (A negative offset would make lastIndexOf count from the end, hence the guard.)
  const localStart = localEnd >= 2 ? bytes.lastIndexOf(0x0a, localEnd - 2) + 1 : 0;
  const lastLine = localEnd > 0 ? Buffer.from(bytes.subarray(localStart, localEnd)) : hadLines.lastLine;
  return {
    ino: stat.ino,
    size: bytesOffset + bytes.length,
    mtimeMs: stat.mtimeMs,
    records,
    problems,
    tornTail: parsed.tornTail,
    unterminated: parsed.unterminated,
    lines: parsed.lines,
    lastLine,
    lastLineIsRecord: lastEntry ? 'record' in lastEntry : hadLines.lastLineIsRecord,
  };
};

const readFrom = async (file: string, offset: number): Promise<Buffer> => {
  await refuseLinkedFolders(file);
  const { handle, size } = await openRegularFile(file, { maxBytes: MAX_EVENTS_BYTES });
  try {
    const buffer = Buffer.alloc(Math.max(0, size - offset));
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await handle.read(buffer, read, buffer.length - read, offset + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await handle.close();
  }
};

/** Loads the events file at `eventsPath`, reusing `cached` when the file only grew. */
export const loadState = async (eventsPath: string, file: string, cached: LedgerState | null): Promise<LedgerState> => {
  // lstat: a symlink in its place is not the file, and the read below refuses it.
  const stat = await fs.lstat(eventsPath).catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));
  if (stat === null) return emptyState();
  const c = cached;
  if (c && c.ino === stat.ino && c.size === stat.size && c.mtimeMs === stat.mtimeMs) return c;
  if (c && c.ino === stat.ino && stat.size > c.size && c.lastLine && !c.tornTail && !c.unterminated) {
    const joinAt = c.size - c.lastLine.length;
    const bytes = await readFrom(eventsPath, joinAt);
    if (bytes.subarray(0, c.lastLine.length).equals(c.lastLine)) {
      const added = bytes.subarray(c.lastLine.length);
      const parsed = parseLedger(added, c.lines + 1, c.size);
      return build(c, parsed, added, c.size, stat, file, c);
    }
  }
  const bytes = await readEventsFile(eventsPath);
  return build({ records: [], problems: [] }, parseLedger(bytes), bytes, 0, stat, file, emptyState());
};

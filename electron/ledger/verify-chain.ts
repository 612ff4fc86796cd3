/**
 * Verifies a ledger from the disk alone: every record's hash (recomputed), every `prev`, `seq`
 * continuity, and every referenced blob (present, its content hashes to its name, its size as
 * recorded). The file is read once and each blob at most once. Each record is checked against the
 * record before it on disk, so one changed record is reported once instead of breaking every
 * record after it.
 */
import path from 'node:path';
import { GENESIS_HASH, type LedgerRecord, type VerifyProblem } from '../../shared/ledger';
import { recordDataProblem } from '../../shared/records';
import { isMissing } from '../platform/fs-facts';
import { isSafeReadError } from '../platform/safe-read';
import { decodeBlob, hashGzipped, isGzip, readFileQuickSync, STREAM_HASH_ABOVE } from './blob-store';
import { sha256Hex, tryRecordHash } from './hashing';
import { BLOBS_DIR, displayPath, EVENTS_FILE, parseLedger, tornTailMessage } from './ledger-file';
import { readEventsFile } from './ledger-state';

export interface ChainReport {
  readonly records: number;
  readonly head: string | null;
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number };
  readonly problems: VerifyProblem[];
}

export interface VerifyOptions {
  /** Problems name files relative to this folder (default: the folder holding the artifact root). */
  readonly displayRoot?: string;
}

const BLOBS_PER_BATCH = 256;
const short = (hash: string) => `${hash.slice(0, 12)}…`;

/** Finds the earliest damage in file order: `at` is the seq to report (or the line, when no seq). */
class Breaks {
  private first: { line: number; at: number } | null = null;
  note(line: number, at: number): void {
    if (this.first === null || line < this.first.line) this.first = { line, at };
  }
  get brokenAt(): number | undefined {
    return this.first?.at;
  }
}

const linkProblems = (record: LedgerRecord, before: LedgerRecord | null | undefined): string[] => {
  if (before === undefined) return []; // the line before was unreadable and is reported already
  const reasons: string[] = [];
  const expectedSeq = before === null ? 1 : before.seq + 1;
  const expectedPrev = before === null ? GENESIS_HASH : before.hash;
  if (record.seq !== expectedSeq) {
    reasons.push(
      before === null
        ? `it should be record #1 (the first line)`
        : record.seq > expectedSeq
          ? `it follows record #${before.seq}, so record${record.seq - expectedSeq > 1 ? `s #${expectedSeq}–#${record.seq - 1} are` : ` #${expectedSeq} is`} missing`
          : `it follows record #${before.seq}: records are out of order or repeated`,
    );
  }
  if (record.prev !== expectedPrev) {
    reasons.push(
      `its prev (${short(record.prev)}) is not the hash of the ${before === null ? 'genesis value' : `record before it (#${before.seq}, ${short(before.hash)})`}` +
        ' — a record was removed, inserted or reordered here',
    );
  }
  return reasons;
};

/** Checks every record line of `bytes` (an events.jsonl) and the blobs in `blobsDir`. */
export const verifyLedgerBytes = async (
  bytes: Buffer,
  blobsDir: string,
  files: { events: string; blob: (sha256: string) => string },
): Promise<ChainReport & { recordList: LedgerRecord[] }> => {
  const parsed = parseLedger(bytes);
  const problems: { line: number; problem: VerifyProblem }[] = [];
  const breaks = new Breaks();
  const records: LedgerRecord[] = [];
  const lines: number[] = [];
  // null: nothing before (expect genesis); undefined: an unreadable line came just before.
  let before: LedgerRecord | null | undefined = null;
  for (const entry of parsed.entries) {
    if (!('record' in entry)) {
      problems.push({ line: entry.line, problem: { file: files.events, ...(entry.seq !== undefined ? { seq: entry.seq } : {}), message: entry.problem } });
      breaks.note(entry.line, entry.seq ?? entry.line);
      before = undefined;
      continue;
    }
    const { record, line } = entry;
    records.push(record);
    lines.push(line);
    const reasons = linkProblems(record, before);
    // parseLedger already refuses records that cannot be hashed; should one get here, it is this record's problem, not a throw.
    const computed = tryRecordHash(record);
    if (!computed.ok) reasons.unshift(`it cannot be hashed (${computed.error})`);
    else if (computed.hash !== record.hash) {
      reasons.unshift(`its content was changed after it was written (it hashes to ${short(computed.hash)}, but its hash says ${short(record.hash)})`);
    }
    if (reasons.length > 0) {
      problems.push({ line, problem: { file: files.events, seq: record.seq, message: `record #${record.seq} (line ${line}): ${reasons.join('; ')}` } });
      breaks.note(line, record.seq);
    }
    // A record can hash and chain correctly and still not say what its type says: written that way by
    // a faulty or foreign tool. Its readers ignore it; verify names it (the chain itself is intact).
    const malformed = recordDataProblem(record);
    if (malformed !== null) {
      problems.push({
        line,
        problem: {
          file: files.events,
          seq: record.seq,
          message: `record #${record.seq} (line ${line}): its ${record.type} data does not match the record's schema (${malformed}); Baton's screens ignore it`,
        },
      });
    }
    before = record;
  }
  if (parsed.tornTail) {
    problems.push({ line: parsed.tornTail.line, problem: { file: files.events, message: tornTailMessage(parsed.tornTail) } });
    breaks.note(parsed.tornTail.line, parsed.tornTail.line);
  }
  for (const found of await checkBlobs(records, blobsDir, files.blob)) {
    const line = lines[found.index]!;
    problems.push({ line, problem: found.problem });
    breaks.note(line, records[found.index]!.seq);
  }
  problems.sort((a, b) => a.line - b.line);
  const brokenAt = breaks.brokenAt;
  return {
    records: records.length,
    head: records.at(-1)?.hash ?? null,
    chain: brokenAt === undefined ? { ok: true } : { ok: false, brokenAt },
    problems: problems.map((p) => p.problem),
    recordList: records,
  };
};

type BlobVerdict = { state: 'ok'; bytes: number; sha256: string } | { state: 'missing' } | { state: 'bad'; reason: string };

const inflateProblem = (error: unknown): BlobVerdict => ({
  state: 'bad',
  reason: `is stored compressed but does not decompress within its recorded size (${(error as Error).message})`,
});

const streamVerdict = (stored: Buffer, maxBytes: number): Promise<BlobVerdict> =>
  hashGzipped(stored, maxBytes).then((hashed): BlobVerdict => ({ state: 'ok', ...hashed }), inflateProblem);

const readVerdict = (blobsDir: string, sha256: string, maxBytes: number): BlobVerdict | { state: 'stream'; stored: Buffer; maxBytes: number } => {
  let stored: Buffer;
  try {
    stored = readFileQuickSync(path.join(blobsDir, sha256));
  } catch (error) {
    // A symlink, FIFO, device or oversized file in blobs/ is refused unread: "is a symbolic link, not a regular file; …".
    if (isSafeReadError(error) && !isMissing(error)) return { state: 'bad', reason: error.detail };
    return isMissing(error) ? { state: 'missing' } : { state: 'bad', reason: `cannot be read (${(error as Error).message})` };
  }
  // A large gzip'd blob is hashed as it inflates (readVerdicts): a bomb never sits whole in memory.
  if (isGzip(stored) && maxBytes > STREAM_HASH_ABOVE) return { state: 'stream', stored, maxBytes };
  try {
    const content = decodeBlob(stored, maxBytes + 1);
    return { state: 'ok', bytes: content.length, sha256: sha256Hex(content) };
  } catch (error) {
    return inflateProblem(error);
  }
};

/**
 * Blobs are many small files. Promise-based reads cost four thread-pool round trips each (about
 * 6x slower here than a synchronous read: 10,000 blobs took 1.5 s), so they are read synchronously,
 * in batches that yield to the event loop so a host stays responsive while a large ledger verifies.
 */
const readVerdicts = async (blobsDir: string, largest: ReadonlyMap<string, number>): Promise<Map<string, BlobVerdict>> => {
  const verdicts = new Map<string, BlobVerdict>();
  let sinceYield = 0;
  for (const [sha, maxBytes] of largest) {
    const verdict = readVerdict(blobsDir, sha, maxBytes);
    verdicts.set(sha, verdict.state === 'stream' ? await streamVerdict(verdict.stored, verdict.maxBytes) : verdict);
    if (++sinceYield === BLOBS_PER_BATCH) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return verdicts;
};

/** Reads each distinct blob once and reports against the records that name it. */
const checkBlobs = async (
  records: readonly LedgerRecord[],
  blobsDir: string,
  fileOf: (sha256: string) => string,
): Promise<{ index: number; problem: VerifyProblem }[]> => {
  const largest = new Map<string, number>();
  for (const record of records) for (const ref of record.blobs) largest.set(ref.sha256, Math.max(largest.get(ref.sha256) ?? 0, ref.bytes));
  const verdicts = await readVerdicts(blobsDir, largest);

  const found: { index: number; problem: VerifyProblem }[] = [];
  const reported = new Set<string>();
  for (const [index, record] of records.entries()) {
    for (const ref of record.blobs) {
      const verdict = verdicts.get(ref.sha256)!;
      if (verdict.state === 'ok' && verdict.sha256 === ref.sha256 && verdict.bytes === ref.bytes) continue;
      const what = `blob "${ref.name}" of record #${record.seq} (${fileOf(ref.sha256)})`;
      const report = (message: string) => found.push({ index, problem: { file: fileOf(ref.sha256), seq: record.seq, message } });
      // A damaged blob is reported once, at the first record that names it.
      if (verdict.state !== 'ok' || verdict.sha256 !== ref.sha256) {
        if (reported.has(ref.sha256)) continue;
        reported.add(ref.sha256);
        if (verdict.state === 'missing') report(`${what} is missing: the evidence it held is gone`);
        else if (verdict.state === 'bad') report(`${what} ${verdict.reason}`);
        else report(`${what} was changed: its content hashes to ${short(verdict.sha256)}, not to its name`);
      } else if (verdict.bytes !== ref.bytes) {
        report(`${what} has ${verdict.bytes} bytes, but the record says ${ref.bytes}`);
      }
    }
  }
  return found;
};

export const verifyChain = async (ledgerDir: string, options: VerifyOptions = {}): Promise<ChainReport> => {
  const files = {
    events: displayPath(ledgerDir, options.displayRoot, EVENTS_FILE),
    blob: (sha256: string) => displayPath(ledgerDir, options.displayRoot, BLOBS_DIR, sha256),
  };
  let bytes: Buffer;
  try {
    bytes = await readEventsFile(path.join(ledgerDir, EVENTS_FILE));
  } catch (error) {
    if (isMissing(error)) return { records: 0, head: null, chain: { ok: true }, problems: [] };
    return {
      records: 0,
      head: null,
      chain: { ok: false, brokenAt: 1 },
      problems: [
        { file: files.events, message: isSafeReadError(error) ? error.detail : `cannot be read (${(error as Error).message}); check its permissions` },
      ],
    };
  }
  const { recordList: _records, ...report } = await verifyLedgerBytes(bytes, path.join(ledgerDir, BLOBS_DIR), files);
  return report;
};

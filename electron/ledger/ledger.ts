/**
 * The ledger: `events.jsonl` (one hash-chained JSON record a line) and `blobs/<sha256>`.
 * Every append is atomic and durable: blobs first (temp file, fsync, rename, folder fsync), then the
 * record as ONE write to the file opened for appending, then fsync. A crash leaves at worst an
 * unreferenced blob or an incomplete final line, which `repairTail` drops and records.
 * Nothing here reads the environment: a record holds only what the caller passed in.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import { GENESIS_HASH, type Actor, type BlobRef, type LedgerRecord, type Subject } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { fsyncDir } from '../platform/atomic-write';
import { APPEND_FLAGS, mkdirInside } from '../platform/contained-write';
import { isSafeReadError } from '../platform/safe-read';
import { decodeBlob, readBlobPage, readStoredBlob, writeBlob, type BlobPage } from './blob-store';
import { recordHash, sha256Hex } from './hashing';
import { BLOBS_DIR, displayPath, EVENTS_FILE, LOCK_FILE } from './ledger-file';
import { loadState, refuseLinkedFolders, type LedgerState } from './ledger-state';
import { serialize, withFileLock } from '../platform/file-lock';
import { checkAppendInput, type AppendInput, type LedgerSnapshot, type LedgerTx } from './ledger-types';
import { inGroup, openGroup } from './ledger-group';
import { signPersonRecord } from './person-signing';
import type { SigningKey } from './signing';

export type { AppendInput, LedgerSnapshot, LedgerTx } from './ledger-types';

const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

export class Ledger {
  readonly dir: string;
  private readonly now: () => Date;
  private readonly lockTimeoutMs: number;
  private cache: LedgerState | null = null;
  /** Signs every record whose actor is a person (person-signing.ts); null: they are recorded unsigned. */
  readonly signer: SigningKey | null;

  constructor(ledgerDir: string, options: { now?: () => Date; lockTimeoutMs?: number; signer?: SigningKey | null } = {}) {
    this.dir = path.resolve(ledgerDir);
    this.now = options.now ?? (() => new Date());
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.signer = options.signer ?? null;
  }

  /** The same ledger, with the decisions of people appended through it signed by `signer`. */
  signedBy(signer: SigningKey | null): Ledger {
    return signer === this.signer ? this : new Ledger(this.dir, { now: this.now, lockTimeoutMs: this.lockTimeoutMs, signer });
  }

  static forArtifactRoot(artifactRoot: string): Ledger {
    return new Ledger(path.join(artifactRoot, 'ledger'));
  }

  private get eventsPath(): string {
    return path.join(this.dir, EVENTS_FILE);
  }

  /** Tolerant: damage becomes problems and a torn tail, never an exception. */
  async read(): Promise<LedgerSnapshot> {
    let state: LedgerState;
    try {
      state = await this.load();
    } catch (error) {
      const file = displayPath(this.dir, undefined, EVENTS_FILE);
      // A FIFO, symlink, device or oversized events file is refused unread, with what to do about it.
      const message = isSafeReadError(error) ? error.detail : `cannot be read (${(error as Error).message}); check the file's permissions`;
      return { records: [], problems: [{ file, message }], tornTail: null };
    }
    return {
      records: [...state.records],
      problems: [...state.problems],
      tornTail: state.tornTail && { offset: state.tornTail.offset, bytes: state.tornTail.bytes },
    };
  }

  append<T extends string>(input: AppendInput<T>): Promise<LedgerRecord> {
    return this.transaction((tx) => tx.append(input));
  }

  /**
   * Runs `fn` holding the single-writer lock: what it reads from `tx.records` cannot change before
   * its `tx.append` lands (gate approvals rely on this to let exactly one of two approvals win).
   */
  transaction<T>(fn: (tx: LedgerTx) => Promise<T>): Promise<T> {
    return this.locked(async (state) => {
      this.refuseDamagedEnd(state);
      let open = true;
      let snapshot: readonly LedgerRecord[] | null = null;
      // Appends within one transaction run one after another even if fn does not await each one:
      // two computing their seq from the same state would fork the chain.
      let queue: Promise<unknown> = Promise.resolve();
      const appendOne = async (input: AppendInput<string>) => {
        if (!open) throw new Error('This ledger transaction has ended; start a new one to append.');
        const record = await this.write(state, input);
        state = await this.load();
        snapshot = null;
        return record;
      };
      const tx: LedgerTx = {
        get records() {
          snapshot ??= Object.freeze([...state.records]);
          return snapshot;
        },
        append: <T extends string>(input: AppendInput<T>) => {
          const run = queue.then(() => appendOne(input));
          queue = run.catch(() => undefined);
          return run;
        },
      };
      try {
        return await fn(tx);
      } finally {
        await queue; // an append fn did not await still finishes under the lock
        open = false;
      }
    });
  }

  /**
   * Runs `fn` as one group commit (ledger-group.ts): its appends are written as they come and made
   * durable by one fsync when it ends, however it ends. A group inside a group joins the outer one.
   */
  group<T>(fn: () => Promise<T>): Promise<T> {
    return inGroup(this.dir, fn, () => this.syncEvents());
  }

  /** Makes every record this context's group has written durable now (before something outside the ledger names one). */
  async sync(): Promise<void> {
    const group = openGroup(this.dir);
    if (!group?.unsynced) return;
    group.unsynced = false;
    await this.syncEvents();
  }

  private async syncEvents(): Promise<void> {
    const handle = await fs.open(this.eventsPath, APPEND_FLAGS, 0o666);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async readBlob(sha256: string): Promise<Buffer | null> {
    const stored = await readStoredBlob(path.join(this.dir, BLOBS_DIR), sha256);
    return stored === null ? null : decodeBlob(stored);
  }

  /** At most `limit` bytes of a blob's content from `offset`, inflated as a stream (bounded memory); null when there is no such blob. */
  readBlobPage(sha256: string, offset: number, limit: number): Promise<BlobPage | null> {
    return readBlobPage(path.join(this.dir, BLOBS_DIR), sha256, offset, limit);
  }

  /** Drops an incomplete final line (only that) and records what was dropped, keeping its bytes as a blob. */
  repairTail(actor: Actor): Promise<{ droppedBytes: number; record: LedgerRecord | null }> {
    return this.locked(async (state) => {
      const torn = state.tornTail;
      if (torn === null) return { droppedBytes: 0, record: null };
      this.refuseDamagedEnd(state, { tornTailAllowed: true });
      const handle = await fs.open(this.eventsPath, fsConstants.O_RDWR | (fsConstants.O_NOFOLLOW ?? 0));
      let dropped: Buffer;
      try {
        dropped = Buffer.alloc(torn.bytes);
        await handle.read(dropped, 0, torn.bytes, torn.offset);
        await handle.truncate(torn.offset);
        await handle.sync();
      } finally {
        await handle.close();
      }
      this.cache = null;
      const record = await this.write(await this.load(), {
        type: RECORD_TYPES.ledgerRepaired,
        actor,
        data: {
          droppedBytes: torn.bytes,
          droppedSha256: sha256Hex(dropped),
          offset: torn.offset,
          line: torn.line,
          reason: 'an incomplete final line (a write cut short by a crash) was dropped; its bytes are kept in the blob',
        },
        blobs: [{ name: 'dropped-tail', content: dropped }],
      });
      return { droppedBytes: torn.bytes, record };
    });
  }

  private async load(): Promise<LedgerState> {
    this.cache = await loadState(this.eventsPath, displayPath(this.dir, undefined, EVENTS_FILE), this.cache);
    return this.cache;
  }

  private locked<T>(fn: (state: LedgerState) => Promise<T>): Promise<T> {
    return serialize(this.dir, async () => {
      await this.ensureDir();
      return withFileLock(path.join(this.dir, LOCK_FILE), this.lockTimeoutMs, async () => fn(await this.load()));
    });
  }

  private async ensureDir(): Promise<void> {
    // `.baton/` or `.baton/ledger/` as a link would take the ledger (and its mkdir) outside the project.
    await refuseLinkedFolders(this.eventsPath);
    const existed = await fs.stat(this.dir).then(
      () => true,
      () => false,
    );
    if (existed) return;
    await fs.mkdir(this.dir, { recursive: true });
    await fsyncDir(path.dirname(this.dir));
  }

  /** A new record may only follow a good one: appending after damage would bury it. */
  private refuseDamagedEnd(state: LedgerState, options: { tornTailAllowed?: boolean } = {}): void {
    const file = displayPath(this.dir, undefined, EVENTS_FILE);
    if (state.tornTail && !options.tornTailAllowed) {
      throw new Error(
        `Cannot write to the ledger: ${file} ends with an incomplete line (${state.tornTail.bytes} bytes at byte ${state.tornTail.offset}), ` +
          'left by a write that was cut short. Run `baton verify --repair-tail` to drop it (the repair is recorded), then try again.',
      );
    }
    const completeLines = state.lines - (state.tornTail ? 1 : 0);
    if (completeLines === 0) return;
    const last = state.records.at(-1);
    if (!state.lastLineIsRecord || last === undefined || recordHash(last) !== last.hash) {
      throw new Error(
        `Cannot write to the ledger: the chain in ${file} is broken at its end (line ${completeLines} is not an intact record), ` +
          'so a new record would have no trustworthy predecessor. Run `baton verify` to see what is wrong.',
      );
    }
  }

  private async write(state: LedgerState, input: AppendInput<string>): Promise<LedgerRecord> {
    checkAppendInput(input);
    const contents = (input.blobs ?? []).map((blob) => (typeof blob.content === 'string' ? Buffer.from(blob.content, 'utf8') : blob.content));
    const blobs: BlobRef[] = (input.blobs ?? []).map((blob, i) => ({ name: blob.name, sha256: sha256Hex(contents[i]!), bytes: contents[i]!.length }));
    const last = state.records.at(-1);
    const body = {
      seq: (last?.seq ?? 0) + 1,
      at: this.now().toISOString(),
      type: input.type,
      actor: { kind: input.actor.kind, id: input.actor.id },
      subject: input.subject ?? ({} as Subject),
      data: input.data ?? {},
      blobs,
      prev: last?.hash ?? GENESIS_HASH,
    };
    // Hash exactly what will be read back: JSON drops undefined, turns Dates into strings, and so on.
    // Done before any write, so a value JSON cannot carry fails the append with nothing on disk.
    const read = JSON.parse(JSON.stringify(body)) as Omit<LedgerRecord, 'hash'>;
    const plain = this.signer && read.actor.kind === 'person' ? signPersonRecord(read, this.signer) : read;
    const record: LedgerRecord = { ...plain, hash: recordHash(plain) };
    const line = Buffer.from(`${state.unterminated ? '\n' : ''}${JSON.stringify(record)}\n`, 'utf8');

    await this.writeBlobs(contents);
    const created = state.size === 0;
    // O_NOFOLLOW: a link put in place of events.jsonl since it was read is refused, never written through.
    const handle = await fs.open(this.eventsPath, APPEND_FLAGS, 0o666);
    let stat: { ino: number; mtimeMs: number; size: number };
    try {
      const { bytesWritten } = await handle.write(line);
      // One write keeps a record whole; a short one (disk full) leaves a torn tail that verify reports.
      if (bytesWritten !== line.length)
        throw new Error(`only ${bytesWritten} of ${line.length} bytes of record #${record.seq} reached ${this.eventsPath} (is the disk full?)`);
      // In a group the fsync waits for the group's end (one for all its records); a new file is synced at once.
      const group = created ? null : openGroup(this.dir);
      if (group) group.unsynced = true;
      else await handle.sync();
      stat = await handle.stat();
    } finally {
      await handle.close();
    }
    if (created) await fsyncDir(this.dir);
    this.cache = state.unterminated || stat.size !== state.size + line.length ? null : this.appended(state, record, line, stat);
    return record;
  }

  /** The record must never reach the disk before the blobs it names. */
  private async writeBlobs(contents: readonly Uint8Array[]): Promise<void> {
    if (contents.length === 0) return;
    const blobsDir = path.join(this.dir, BLOBS_DIR);
    // `blobs/` as a link to a folder elsewhere is refused: blobs are written only inside the ledger.
    await mkdirInside(this.dir, blobsDir);
    // Side by side: each blob's own fsync overlaps the others' (issue 17); the folder is fsynced once after all.
    const written = await Promise.all(contents.map((content) => writeBlob(blobsDir, content)));
    if (written.some((w) => w.written)) await fsyncDir(blobsDir);
  }

  private appended(state: LedgerState, record: LedgerRecord, line: Buffer, stat: { ino: number; mtimeMs: number; size: number }): LedgerState {
    return {
      ...state,
      ino: stat.ino,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      // In place: copying the list on every append would make 10,000 appends quadratic.
      records: (state.records.push(record), state.records),
      lines: state.lines + 1,
      lastLine: line,
      lastLineIsRecord: true,
    };
  }
}

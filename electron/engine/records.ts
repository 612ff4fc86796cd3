/**
 * The cycle's ledger records. Every step first looks for its own record (by cycle and key): a step
 * re-run after a crash finds it and returns the recorded verdict instead of doing the work twice.
 */
import { RECORD_TYPES, type Actor, type LedgerRecord, type RecordType, type Subject } from '../../shared/ledger';
import type { Ledger } from '../ledger';

/** The cycle's record types, by step (spelled once, in shared/ledger.ts). */
export const CYCLE_RECORDS = {
  planned: RECORD_TYPES.cyclePlanned,
  red: RECORD_TYPES.cycleRed,
  locked: RECORD_TYPES.cycleLocked,
  green: RECORD_TYPES.cycleGreen,
  greened: RECORD_TYPES.cycleGreened,
  violation: RECORD_TYPES.cycleViolation,
  outOfScope: RECORD_TYPES.cycleOutOfScope,
  refactored: RECORD_TYPES.cycleRefactored,
  reviewed: RECORD_TYPES.cycleReviewed,
  finished: RECORD_TYPES.cycleFinished,
  itemStatus: RECORD_TYPES.itemStatus,
  runStarted: RECORD_TYPES.runStarted,
  runFinished: RECORD_TYPES.runFinished,
} as const;

export const ORCHESTRATOR: Actor = { kind: 'orchestrator', id: 'baton' };

export interface Blob {
  readonly name: string;
  readonly content: string | Uint8Array;
}

export class CycleRecords {
  constructor(
    private readonly ledger: Ledger,
    private readonly subject: Subject,
    private readonly onRecorded: (record: LedgerRecord) => void = () => undefined,
  ) {}

  async find(type: RecordType, key: string): Promise<LedgerRecord | null> {
    const { records } = await this.ledger.read();
    for (let i = records.length - 1; i >= 0; i -= 1) {
      const r = records[i]!;
      if (r.type === type && r.subject.cycle === this.subject.cycle && r.data.key === key) return r;
    }
    return null;
  }

  async all(type: RecordType): Promise<LedgerRecord[]> {
    const { records } = await this.ledger.read();
    return records.filter((r) => r.type === type && r.subject.cycle === this.subject.cycle);
  }

  async append(type: RecordType, key: string, data: Record<string, unknown>, blobs: readonly Blob[] = [], actor: Actor = ORCHESTRATOR): Promise<LedgerRecord> {
    const record = await this.ledger.append({ type, actor, subject: this.subject, data: { key, ...data }, blobs });
    this.onRecorded(record);
    return record;
  }

  /** Appends unless a record with this type and key exists; returns whichever. */
  async once(type: RecordType, key: string, data: Record<string, unknown>, blobs: readonly Blob[] = [], actor: Actor = ORCHESTRATOR): Promise<LedgerRecord> {
    return (await this.find(type, key)) ?? this.append(type, key, data, blobs, actor);
  }

  async blobText(record: LedgerRecord, name: string): Promise<string | null> {
    const ref = record.blobs.find((b) => b.name === name);
    if (!ref) return null;
    const content = await this.ledger.readBlob(ref.sha256);
    return content ? content.toString('utf8') : null;
  }

  async blobBytes(record: LedgerRecord, name: string): Promise<Buffer | null> {
    const ref = record.blobs.find((b) => b.name === name);
    return ref ? this.ledger.readBlob(ref.sha256) : null;
  }
}

/**
 * The cycle's ledger records. Every step first looks for its own record (by cycle and key): a step
 * re-run after a crash finds it and returns the recorded verdict instead of doing the work twice.
 */
import type { Actor, LedgerRecord, Subject } from '../../shared/ledger';
import { recordOf, recordsOf, type RecordData, type RecordType, type TypedRecord } from '../../shared/records';
import type { AppendInput, Ledger } from '../ledger';

/** The cycle's record types: those keyed by step (`data.key`). */
type CycleType = {
  [T in RecordType]: RecordData<T> extends { key: string } ? T : never;
}[RecordType];
/** A cycle record's data as a step writes it: the key is the step's own. */
type CycleData<T extends CycleType> = Omit<RecordData<T>, 'key'>;

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

  async find<T extends CycleType>(type: T, key: string): Promise<TypedRecord<T> | null> {
    const { records } = await this.ledger.read();
    for (let i = records.length - 1; i >= 0; i -= 1) {
      const r = recordOf(records[i], type);
      if (r && r.subject.cycle === this.subject.cycle && r.data.key === key) return r;
    }
    return null;
  }

  async all<T extends CycleType>(type: T): Promise<TypedRecord<T>[]> {
    const { records } = await this.ledger.read();
    return recordsOf(records, type).filter((r) => r.subject.cycle === this.subject.cycle);
  }

  async append<T extends CycleType>(
    type: T,
    key: string,
    data: CycleData<T>,
    blobs: readonly Blob[] = [],
    actor: Actor = ORCHESTRATOR,
  ): Promise<TypedRecord<T>> {
    // The ledger holds the data to the type's schema (it throws before writing otherwise).
    const input: AppendInput = { type, actor, subject: this.subject, data: { ...data, key }, blobs };
    const record = await this.ledger.append(input);
    this.onRecorded(record);
    const typed = recordOf(record, type);
    if (!typed) throw new Error(`The ${type} record #${record.seq} just written does not read back as one.`);
    return typed;
  }

  /** Appends unless a record with this type and key exists; returns whichever. */
  async once<T extends CycleType>(type: T, key: string, data: CycleData<T>, blobs: readonly Blob[] = [], actor: Actor = ORCHESTRATOR): Promise<TypedRecord<T>> {
    return (await this.find(type, key)) ?? this.append(type, key, data, blobs, actor);
  }

  async blobText(record: Pick<LedgerRecord, 'blobs'>, name: string): Promise<string | null> {
    const ref = record.blobs.find((b) => b.name === name);
    if (!ref) return null;
    const content = await this.ledger.readBlob(ref.sha256);
    return content ? content.toString('utf8') : null;
  }

  async blobBytes(record: Pick<LedgerRecord, 'blobs'>, name: string): Promise<Buffer | null> {
    const ref = record.blobs.find((b) => b.name === name);
    return ref ? this.ledger.readBlob(ref.sha256) : null;
  }
}

/**
 * Locks from the ledger. A cycle's own lock (its `cycle.locked` record) holds the Driver from
 * GREEN on; every earlier item's lock holds every role — so at a later item's RED the Navigator may
 * add test files, never change or delete a locked one. An escalated item's tests were taken off
 * the branch (build.ts parks them), so its lock no longer binds.
 */
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import type { FileState } from '../platform/tree-snapshot';
import type { Lock, LockedFile } from '../runner/lock-set';
import type { CycleDeps } from './cycle-deps';
import type { CycleRecords } from './records';

type LockRecord = TypedRecord<typeof RECORD_TYPES.cycleLocked>;

async function lockOf(
  deps: CycleDeps,
  entries: ReadonlyMap<string, { file: LockedFile; record: LockRecord }>,
  command: { testCommand: string; testCommandSha256: string },
): Promise<Lock> {
  const snapshot = new Map<string, FileState>();
  const files: LockedFile[] = [];
  for (const [path, { file, record }] of entries) {
    const blob = record.blobs.find((b) => b.name === `locked/${path}`);
    const content = (blob ? await deps.ledger.readBlob(blob.sha256) : null) ?? Buffer.alloc(0);
    snapshot.set(path, { sha256: file.sha256, bytes: file.bytes, mode: file.mode, symlink: null, content });
    files.push(file);
  }
  return { set: { files, ...command }, snapshot };
}

/** The cycle's own lock (GREEN, REFACTOR). */
export async function cycleLock(deps: CycleDeps, records: CycleRecords): Promise<{ record: LockRecord; lock: Lock }> {
  const record = await records.find(RECORD_TYPES.cycleLocked, 'lock');
  if (!record) throw new Error('No LOCK recorded for this cycle: GREEN cannot run before the tests are locked.');
  const entries = new Map(record.data.files.map((file) => [file.path, { file, record }]));
  return { record, lock: await lockOf(deps, entries, record.data) };
}

/** Every earlier item's locked files, as last locked (null before the first lock): what a later RED may not touch. */
export async function earlierLock(deps: CycleDeps, cycle: string): Promise<Lock | null> {
  const { records } = await deps.ledger.read();
  const mine = records.filter((r) => r.subject.feature === deps.feature);
  const escalated = new Set(
    recordsOf(mine, RECORD_TYPES.cycleFinished)
      .filter((r) => r.data.status === 'escalated')
      .map((r) => r.subject.cycle),
  );
  const locks = recordsOf(mine, RECORD_TYPES.cycleLocked).filter((r) => r.subject.cycle !== cycle && !escalated.has(r.subject.cycle));
  const last = locks.at(-1);
  if (!last) return null;
  const entries = new Map<string, { file: LockedFile; record: LockRecord }>();
  for (const record of locks) for (const file of record.data.files) entries.set(file.path, { file, record });
  return lockOf(deps, entries, last.data);
}

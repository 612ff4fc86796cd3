/**
 * Locks from the ledger. A cycle's own lock (its `cycle.locked` record) holds the Driver from
 * GREEN on; every earlier item's lock holds every role — so at a later item's RED the Navigator may
 * add test files, never change or delete a locked one. An escalated item's tests were taken off
 * the branch (build.ts parks them), so its lock no longer binds.
 * A `cycle.dependencies` record amends a lock: the manifest the orchestrator rewrote for a Driver's
 * dependency request (dependencies.ts) is what the lock holds from then on.
 */
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import type { FileState } from '../platform/tree-snapshot';
import type { Lock, LockedFile } from '../runner/lock-set';
import type { CycleDeps } from './cycle-deps';
import type { CycleRecords } from './records';

type LockRecord = TypedRecord<typeof RECORD_TYPES.cycleLocked>;
type AmendRecord = TypedRecord<typeof RECORD_TYPES.cycleDependencies>;
/** A locked file and the record whose blob (`locked/` or `amended/<path>`) holds its content. */
type Entry = { file: LockedFile; record: LockRecord | AmendRecord };

/** Each amendment, in ledger order, replaces the locked files it rewrote (files it adds are not locked). */
function amend(entries: Map<string, Entry>, amendments: readonly AmendRecord[]): void {
  for (const record of amendments)
    for (const { path, sha256, bytes, mode } of record.data.files) if (entries.has(path)) entries.set(path, { file: { path, sha256, bytes, mode }, record });
}

async function lockOf(deps: CycleDeps, entries: ReadonlyMap<string, Entry>, command: { testCommand: string; testCommandSha256: string }): Promise<Lock> {
  const snapshot = new Map<string, FileState>();
  const files: LockedFile[] = [];
  for (const [path, { file, record }] of entries) {
    const blob = record.blobs.find((b) => b.name === `locked/${path}` || b.name === `amended/${path}`);
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
  const entries = new Map<string, Entry>(record.data.files.map((file) => [file.path, { file, record }]));
  amend(entries, await records.all(RECORD_TYPES.cycleDependencies));
  return { record, lock: await lockOf(deps, entries, record.data) };
}

/**
 * Every earlier item's locked files, as last locked (null before the first lock): what a later RED
 * may not touch. Only the locks whose tests are on the branch `story` builds on bind: its own lane's
 * (lanes.ts; every story's when lanes are not known) and those of stories already merged into the
 * feature branch — a story built beside it in another lane has other tests, not missing ones.
 */
export async function earlierLock(deps: CycleDeps, cycle: string, story: string): Promise<Lock | null> {
  const { records } = await deps.ledger.read();
  const mine = records.filter((r) => r.subject.feature === deps.feature);
  const escalated = new Set(
    recordsOf(mine, RECORD_TYPES.cycleFinished)
      .filter((r) => r.data.status === 'escalated')
      .map((r) => r.subject.cycle),
  );
  const lane = deps.lane ? new Set([...(await deps.lane(story)), ...recordsOf(mine, RECORD_TYPES.storyMerged).map((r) => r.data.story)]) : null;
  const onBranch = (r: { subject: { story?: string | null } }) => lane === null || lane.has(r.subject.story ?? 'unassigned');
  const locks = recordsOf(mine, RECORD_TYPES.cycleLocked).filter((r) => r.subject.cycle !== cycle && !escalated.has(r.subject.cycle) && onBranch(r));
  const last = locks.at(-1);
  if (!last) return null;
  const entries = new Map<string, Entry>();
  for (const record of locks) for (const file of record.data.files) entries.set(file.path, { file, record });
  amend(
    entries,
    recordsOf(mine, RECORD_TYPES.cycleDependencies).filter((r) => r.subject.cycle !== cycle && !escalated.has(r.subject.cycle) && onBranch(r)),
  );
  return lockOf(deps, entries, last.data);
}

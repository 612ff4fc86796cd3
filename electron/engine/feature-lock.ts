/**
 * Locks from the ledger. A cycle's own lock (its `cycle.locked` record) holds the Driver from
 * GREEN on; every earlier item's lock holds every role — so at a later item's RED the Navigator may
 * add test files, never change or delete a locked one. An escalated item's tests were taken off
 * the branch (build.ts parks them), so its lock no longer binds.
 * A `cycle.dependencies` record amends a lock: the manifest the orchestrator rewrote for a Driver's
 * dependency request (dependencies.ts) is what the lock holds from then on. Tests a strengthening
 * round kept are held like an earlier item's lock.
 */
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import { keptFiles } from '../../shared/records-mutation';
import type { FileState } from '../platform/tree-snapshot';
import type { Lock, LockedFile } from '../runner/lock-set';
import type { CycleDeps } from './cycle-deps';
import type { CycleRecords } from './records';

type LockRecord = TypedRecord<typeof RECORD_TYPES.cycleLocked>;
type AmendRecord = TypedRecord<typeof RECORD_TYPES.cycleDependencies>;
type MutatedRecord = TypedRecord<typeof RECORD_TYPES.cycleMutated>;
/** A locked file and the record whose blob (`locked/`, `amended/` or `strengthened/<path>`) holds its content. */
type Entry = { file: LockedFile; record: LockRecord | AmendRecord | MutatedRecord };

/** Permissions as a checkout gives them (lock-set.ts keeps `mode & 0o777`): the round commits its tests as plain 100644 files. */
const KEPT_MODE = 0o644;

/**
 * The tests a strengthening round kept (mutation/strengthen.ts), committed to the story's branch
 * after the item's own lock: they bind every later item like a lock, until a LOCK takes them in.
 */
function strengthened(entries: Map<string, Entry>, rounds: readonly MutatedRecord[]): void {
  for (const record of rounds) {
    const round = record.data.strengthened;
    if (!round?.kept) continue;
    for (const { path, sha256, bytes } of keptFiles(round))
      if (!entries.has(path)) entries.set(path, { file: { path, sha256, bytes, mode: KEPT_MODE }, record });
  }
}

/** Each amendment, in ledger order, replaces the locked files it rewrote (files it adds are not locked). */
function amend(entries: Map<string, Entry>, amendments: readonly AmendRecord[]): void {
  for (const record of amendments)
    for (const { path, sha256, bytes, mode } of record.data.files) if (entries.has(path)) entries.set(path, { file: { path, sha256, bytes, mode }, record });
}

async function lockOf(deps: CycleDeps, entries: ReadonlyMap<string, Entry>, command: { testCommand: string; testCommandSha256: string }): Promise<Lock> {
  const snapshot = new Map<string, FileState>();
  const files: LockedFile[] = [];
  for (const [path, { file, record }] of entries) {
    const blob = record.blobs.find((b) => b.name === `locked/${path}` || b.name === `amended/${path}` || b.name === `strengthened/${path}`);
    const content = (blob ? await deps.ledger.readBlob(blob.sha256) : null) ?? Buffer.alloc(0);
    snapshot.set(path, { sha256: file.sha256, bytes: file.bytes, mode: file.mode, symlink: null, content });
    files.push(file);
  }
  // Named one by one: `command` is a lock record's data, whose own `files` must not replace the merged ones.
  return { set: { files, testCommand: command.testCommand, testCommandSha256: command.testCommandSha256 }, snapshot };
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
  const binds = (r: { subject: { cycle?: string | null; story?: string | null } }) =>
    r.subject.cycle !== cycle && !escalated.has(r.subject.cycle ?? '') && onBranch(r);
  const locks = recordsOf(mine, RECORD_TYPES.cycleLocked).filter(binds);
  const last = locks.at(-1);
  if (!last) return null;
  const entries = new Map<string, Entry>();
  for (const record of locks) for (const file of record.data.files) entries.set(file.path, { file, record });
  strengthened(entries, recordsOf(mine, RECORD_TYPES.cycleMutated).filter(binds));
  amend(entries, recordsOf(mine, RECORD_TYPES.cycleDependencies).filter(binds));
  return lockOf(deps, entries, last.data);
}

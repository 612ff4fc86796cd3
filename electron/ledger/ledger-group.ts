/**
 * Group commit: inside `Ledger.group(fn)` an append is written exactly as always — its blobs
 * fsynced and their folder too, then the record as one `write` — but the fsync of `events.jsonl`
 * waits for the end of the group, where one fsync makes every record of the group durable at once
 * (`Ledger.sync()` does it earlier, before anything outside the ledger names a record).
 *
 * Nothing about the chain changes: the same records, hashes and bytes, in the same order. Every
 * record is on the file (in the page cache) the moment its append returns, so readers in this and
 * other processes see it, and a process that dies mid-group leaves every record it appended. What
 * the group gives up is only this: a power loss before the group's fsync may lose its last
 * records, leaving a shorter chain or a torn final line — which `repairTail` drops — never a
 * record whose blobs are missing, since blobs are still made durable before their record is written.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Group {
  /** False once the group has ended: an append still running in its context (not awaited) syncs itself. */
  open: boolean;
  /** A record was written in this group and not yet fsynced. */
  unsynced: boolean;
}

/** The groups the current async context runs in, by ledger folder. */
const groups = new AsyncLocalStorage<ReadonlyMap<string, Group>>();

/** The open group the current context runs in for `dir`, if any. */
export const openGroup = (dir: string): Group | null => {
  const group = groups.getStore()?.get(dir);
  return group?.open ? group : null;
};

/** Runs `fn` as a group on `dir` (inside one already open, it just joins it), then `commit`s once if anything was written. */
export async function inGroup<T>(dir: string, fn: () => Promise<T>, commit: () => Promise<void>): Promise<T> {
  const outer = groups.getStore();
  if (outer?.get(dir)?.open) return fn();
  const group: Group = { open: true, unsynced: false };
  try {
    return await groups.run(new Map(outer ?? []).set(dir, group), fn);
  } finally {
    group.open = false;
    if (group.unsynced) {
      group.unsynced = false;
      await commit();
    }
  }
}

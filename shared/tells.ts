/**
 * Which of an item's tells (code that tells a test run apart, issue 30) wait for a person: the ones
 * its `cycle.violation` records named that no `tells.allowed` record allowed yet. Folded from the
 * ledger alone, so the engine, the CLI and the Inbox agree. Pure.
 */
import type { LedgerRecord } from './ledger';
import { RECORD_TYPES, recordsOf, type RecordData } from './records';

type RecordedTell = NonNullable<RecordData<typeof RECORD_TYPES.cycleViolation>['tells']>[number];
export type AllowableTell = RecordedTell & { readonly id: string };

export const ofItem = (r: LedgerRecord, feature: string, item: string): boolean => r.subject.feature === feature && r.subject.item === item;

/** Tell id → the hash of the `tells.allowed` record that allowed it, for one item. */
export function allowedTells(records: readonly LedgerRecord[], feature: string, item: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of recordsOf(records, RECORD_TYPES.tellsAllowed)) if (ofItem(r, feature, item)) for (const t of r.data.tells) out.set(t.id, r.hash);
  return out;
}

/** The tells the item's violations named that no one has allowed yet, each once, oldest first. */
export function tellsToAllow(records: readonly LedgerRecord[], feature: string, item: string): AllowableTell[] {
  const allowed = allowedTells(records, feature, item);
  const out = new Map<string, AllowableTell>();
  for (const v of recordsOf(records, RECORD_TYPES.cycleViolation))
    if (ofItem(v, feature, item)) for (const t of v.data.tells ?? []) if (t.id && !allowed.has(t.id) && !out.has(t.id)) out.set(t.id, { ...t, id: t.id });
  return [...out.values()];
}

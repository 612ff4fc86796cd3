/**
 * Decisions on escalated items, and the item's ledger records they rest on. Each returns the
 * Result so the caller shows its error inline; main re-reads the project after a decision.
 */
import type { LedgerRecord } from '../../../shared/ledger';
import type { EscalationDecision } from '../../../shared/model';
import { ok, type Result } from '../../../shared/result';
import { api } from '../../client';
import type { EscalationRef } from '../lib/inbox-model';

export function decideEscalation(ref: EscalationRef, decision: EscalationDecision, approver: string, note: string): Promise<Result<LedgerRecord>> {
  const trimmed = note.trim();
  return api.invoke('escalations:decide', { feature: ref.feature, item: ref.item, decision, approver, ...(trimmed ? { note: trimmed } : {}) });
}

const PAGE = 1000;
/** A bound on what one read walks; the Evidence timeline pages through any ledger. */
const MAX_PAGES = 50;

/** The ledger records about one item, oldest first (the same filter as the board drawer's Evidence). */
export async function itemRecords(ref: EscalationRef): Promise<Result<LedgerRecord[]>> {
  const out: LedgerRecord[] = [];
  for (let page = 0, offset = 0; page < MAX_PAGES; page += 1) {
    const result = await api.invoke('ledger:list', { offset, limit: PAGE });
    if (!result.ok) return result;
    for (const r of result.value.records) if (r.subject.item === ref.item && (r.subject.feature ?? ref.feature) === ref.feature) out.push(r);
    offset += result.value.records.length;
    if (offset >= result.value.total || result.value.records.length === 0) break;
  }
  return ok(out);
}


/** The ledger records about one test-list item, oldest first: the board drawer's Evidence and an escalation's. */
import type { LedgerRecord } from '../../../shared/ledger';
import { ok, type Result } from '../../../shared/result';
import { api } from '../../client';

const PAGE = 1000;
/** A bound on what one read walks; the Evidence timeline pages through any ledger. */
const MAX_PAGES = 50;

export async function itemRecords(feature: string, item: string): Promise<Result<LedgerRecord[]>> {
  const out: LedgerRecord[] = [];
  for (let page = 0, offset = 0; page < MAX_PAGES; page += 1) {
    const result = await api.invoke('ledger:list', { offset, limit: PAGE });
    if (!result.ok) return result;
    for (const r of result.value.records) if (r.subject.item === item && (r.subject.feature ?? feature) === feature) out.push(r);
    offset += result.value.records.length;
    if (offset >= result.value.total || result.value.records.length === 0) break;
  }
  return ok(out);
}

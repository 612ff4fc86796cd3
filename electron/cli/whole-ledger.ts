/**
 * Every record of the open project's ledger, page by page through `ledger:list` (the chain's state
 * comes with each page): what `baton log` and `baton metrics` read.
 */
import type { LedgerPage } from '../../shared/ledger';
import type { Result } from '../../shared/result';
import type { HostSession } from '../core/host-session';

/** The most records `ledger:list` answers with at once. */
const PAGE = 1000;

export async function wholeLedger(session: HostSession): Promise<Result<LedgerPage>> {
  const first = await session.call('ledger:list', { offset: 0, limit: PAGE });
  if (!first.ok) return first;
  const records = [...first.value.records];
  while (records.length < first.value.total) {
    const next = await session.call('ledger:list', { offset: records.length, limit: PAGE });
    if (!next.ok) return next;
    if (!next.value.records.length) break;
    records.push(...next.value.records);
  }
  return { ok: true, value: { ...first.value, records } };
}

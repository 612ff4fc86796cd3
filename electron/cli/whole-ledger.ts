/**
 * Every record of the open project's ledger, page by page through `ledger:list` (the chain's state
 * comes with each page): what `baton log` and `baton metrics` read.
 */
import type { LedgerPage } from '../../shared/ledger';
import type { Feature, ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
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

/**
 * The features a read-only command asked for (`--feature F`, or every one) and the whole ledger: what
 * `baton metrics` and `baton dossier` fold. A feature the project does not have is refused by name.
 */
export async function featuresAndLedger(
  session: HostSession,
  view: ProjectView,
  feature: string | undefined,
  root: string,
): Promise<Result<{ features: readonly Feature[]; ledger: LedgerPage }>> {
  const features = feature === undefined ? view.features : view.features.filter((f) => f.id === feature);
  if (feature !== undefined && features.length === 0)
    return err('not-found', `No feature "${feature}" in ${root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
  const page = await wholeLedger(session);
  return page.ok ? ok({ features, ledger: page.value }) : page;
}

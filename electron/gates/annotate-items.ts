/**
 * Item statuses set by the orchestrator live in the ledger (`item.status` records), not in
 * test-list.json: the test list is a gated artifact, and a status change must not look like drift.
 * The latest record per feature and item wins over the file's status. In a Baton project the file
 * may only plan (`pending`) or defer (`skipped`) an item: a `green` written there by hand was never
 * proven by a run, so it is shown as pending. A foreign project's file is all there is.
 */
import { type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { type Layout, type ProjectView, type TestStatus } from '../../shared/model';

export function itemStatuses(records: readonly LedgerRecord[]): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  for (const r of recordsOf(records, RECORD_TYPES.itemStatus)) {
    if (r.subject.feature && r.subject.item) out.set(JSON.stringify([r.subject.feature, r.subject.item]), r.data.status);
  }
  return out;
}

const PLANNED: readonly TestStatus[] = ['pending', 'skipped'];

/** The status a screen may show: the ledger's, else what the file may say on its own. */
export const effectiveStatus = (layout: Layout, fromFile: TestStatus, fromLedger: TestStatus | undefined): TestStatus =>
  fromLedger ?? (layout !== 'baton' || PLANNED.includes(fromFile) ? fromFile : 'pending');

export function annotateItems(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  const statuses = itemStatuses(records);
  if (statuses.size === 0 && view.layout !== 'baton') return view;
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      testList: f.testList.map((item) => {
        const status = effectiveStatus(view.layout, item.status, statuses.get(JSON.stringify([f.id, item.id])));
        return status !== item.status ? { ...item, status } : item;
      }),
    })),
  };
}

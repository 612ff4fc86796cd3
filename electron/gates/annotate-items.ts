/**
 * Item statuses set by the orchestrator live in the ledger (`item.status` records), not in
 * test-list.json: the test list is a gated artifact, and a status change must not look like drift.
 * The latest record per feature and item wins over the file's status.
 */
import type { LedgerRecord } from '../../shared/ledger';
import { TEST_STATUSES, type ProjectView, type TestStatus } from '../../shared/model';

export const ITEM_STATUS_RECORD = 'item.status';

export function itemStatuses(records: readonly LedgerRecord[]): Map<string, TestStatus> {
  const out = new Map<string, TestStatus>();
  for (const r of records) {
    const status = r.data.status;
    if (r.type === ITEM_STATUS_RECORD && r.subject.feature && r.subject.item && (TEST_STATUSES as readonly unknown[]).includes(status)) {
      out.set(JSON.stringify([r.subject.feature, r.subject.item]), status as TestStatus);
    }
  }
  return out;
}

export function annotateItems(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  const statuses = itemStatuses(records);
  if (statuses.size === 0) return view;
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      testList: f.testList.map((item) => {
        const status = statuses.get(JSON.stringify([f.id, item.id]));
        return status && status !== item.status ? { ...item, status } : item;
      }),
    })),
  };
}

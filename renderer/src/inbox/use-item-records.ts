/**
 * The ledger records of one escalated item, re-read whenever the project changes (a decision, a
 * run appending to the cycle), so the evidence shown is the ledger's current word.
 */
import { useEffect, useState } from 'react';
import type { LedgerRecord } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import type { EscalationRef } from '../lib/inbox-model';
import { itemRecords } from '../store/item-records';
import { useStore } from '../store/store';

export interface ItemRecordsState {
  /** Null until the first read answers; kept while a re-read runs so the screen does not flash. */
  readonly records: readonly LedgerRecord[] | null;
  readonly error: AppError | null;
}

export function useItemRecords(ref: EscalationRef): ItemRecordsState {
  const project = useStore((s) => s.project);
  const [state, setState] = useState<ItemRecordsState>({ records: null, error: null });
  const { feature, item } = ref;

  useEffect(() => {
    let live = true;
    void itemRecords(feature, item).then((result) => {
      // Only the newest read may write: an older answer describes an older ledger.
      if (!live) return;
      setState((previous) => (result.ok ? { records: result.value, error: null } : { records: previous.records, error: result.error }));
    });
    return () => {
      live = false;
    };
  }, [project, feature, item]);

  return state;
}

/**
 * Every record of the open project's ledger, page by page through `ledger:list`, as the story
 * dossier needs them (it groups the whole ledger, not the pages the timeline has loaded): read
 * again whenever the project view is pushed anew, the records on screen kept until the new read answers.
 */
import { useEffect, useRef, useState } from 'react';
import type { LedgerPage, LedgerRecord } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { useStore } from '../store/store';

/** The most records `ledger:list` answers with at once. */
const PAGE = 1000;

export interface WholeLedger {
  readonly records: readonly LedgerRecord[];
  readonly head: string | null;
  readonly chain: LedgerPage['chain'] | null;
  readonly error: AppError | null;
  /** True until the first read answered. */
  readonly loading: boolean;
}

export function useWholeLedger(): WholeLedger {
  const project = useStore((s) => s.project);
  const [state, setState] = useState<WholeLedger>({ records: [], head: null, chain: null, error: null, loading: true });
  // A read that answers after a newer one started belongs to an older ledger.
  const generation = useRef(0);

  useEffect(() => {
    const mine = ++generation.current;
    void (async () => {
      const first = await api.invoke('ledger:list', { offset: 0, limit: PAGE });
      const records: LedgerRecord[] = first.ok ? [...first.value.records] : [];
      let error = first.ok ? null : first.error;
      while (first.ok && error === null && records.length < first.value.total) {
        const next = await api.invoke('ledger:list', { offset: records.length, limit: PAGE });
        if (!next.ok) error = next.error;
        else if (next.value.records.length === 0) break;
        else records.push(...next.value.records);
      }
      if (mine !== generation.current) return;
      setState({ records, head: first.ok ? first.value.head : null, chain: first.ok ? first.value.chain : null, error, loading: false });
    })();
  }, [project]);

  return state;
}

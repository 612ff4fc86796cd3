/** The ledger as the timeline needs it: the verification report and the records loaded so far. */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LedgerRecord, VerifyReport } from '../../../shared/ledger';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { useStore } from '../store/store';

export const PAGE_SIZE = 500;

export interface LedgerState {
  readonly report: VerifyReport | null;
  readonly reportError: AppError | null;
  readonly verifying: boolean;
  readonly records: readonly LedgerRecord[];
  readonly total: number;
  readonly listError: AppError | null;
  readonly loadingMore: boolean;
  /** True until the first page answered. */
  readonly loading: boolean;
  loadMore(): Promise<void>;
  refresh(): void;
}

export function useLedger(): LedgerState {
  const project = useStore((s) => s.project);
  const [report, setReport] = useState<VerifyReport | null>(null);
  const [reportError, setReportError] = useState<AppError | null>(null);
  const [verifying, setVerifying] = useState(true);
  const [records, setRecords] = useState<readonly LedgerRecord[]>([]);
  const [total, setTotal] = useState(0);
  const [listError, setListError] = useState<AppError | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [nonce, setNonce] = useState(0);
  // Answers that arrive after a refresh (or a project change) belong to an older ledger.
  const generation = useRef(0);
  // The project whose records are on screen. A refresh of it (a change pushed, Verify again) keeps
  // them there until the new page answers, so the list keeps its scroll, selection and focus.
  const root = project?.root ?? null;
  const shown = useRef<string | null>(null);

  useEffect(() => {
    const mine = ++generation.current;
    setVerifying(true);
    if (shown.current !== root) setLoading(true);
    void api.invoke('ledger:verify', {}).then((result) => {
      if (mine !== generation.current) return;
      setVerifying(false);
      setReport(result.ok ? result.value : null);
      setReportError(result.ok ? null : result.error);
    });
    void api.invoke('ledger:list', { offset: 0, limit: PAGE_SIZE }).then((result) => {
      if (mine !== generation.current) return;
      setLoading(false);
      shown.current = root;
      if (result.ok) {
        setRecords(result.value.records);
        setTotal(result.value.total);
        setListError(null);
      } else {
        setListError(result.error);
      }
    });
  }, [project, root, nonce]);

  const loadMore = useCallback(async () => {
    const mine = generation.current;
    setLoadingMore(true);
    const result = await api.invoke('ledger:list', { offset: records.length, limit: PAGE_SIZE });
    if (mine !== generation.current) return;
    setLoadingMore(false);
    if (!result.ok) {
      setListError(result.error);
      return;
    }
    setTotal(result.value.total);
    setRecords((loaded) => (loaded.length === result.value.offset ? [...loaded, ...result.value.records] : loaded));
  }, [records.length]);

  const refresh = useCallback(() => setNonce((n) => n + 1), []);

  return { report, reportError, verifying, records, total, listError, loading, loadingMore, loadMore, refresh };
}

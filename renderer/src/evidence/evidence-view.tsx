/** Evidence: the ledger's verification banner, its records as a timeline, and the open record. */
import { useCallback, useEffect, useState } from 'react';
import { ErrorBanner } from '../components/error-banner';
import { hrefFor, hrefForRecord, replaceHash } from '../store/hash-route';
import { useStore } from '../store/store';
import { DossierView } from './dossier-view';
import { LedgerBanner } from './ledger-banner';
import { RecordDetail } from './record-detail';
import { RecordList } from './record-list';
import { PAGE_SIZE, useLedger } from './use-ledger';

export function EvidenceView() {
  const ledger = useLedger();
  const foreign = useStore((s) => s.project !== null && s.project.layout !== 'baton');
  // The open record lives in the store so a link elsewhere (`#/evidence/<seq>`) can open it.
  const selected = useStore((s) => s.evidenceRecord);
  const setSelected = useStore((s) => s.setEvidenceRecord);
  const open = useCallback(
    (seq: number) => {
      setSelected(seq);
      replaceHash(hrefForRecord(seq));
    },
    [setSelected],
  );
  const close = useCallback(() => {
    setSelected(null);
    replaceHash(hrefFor('evidence'));
  }, [setSelected]);
  // Records (the ledger as it is) or the story dossier; a link to a record (`#/evidence/<seq>`) shows it under Records.
  const [view, setView] = useState<'records' | 'dossier'>('records');
  useEffect(() => {
    if (selected !== null) setView('records');
  }, [selected]);
  const showDossier = () => {
    close();
    setView('dossier');
  };
  const record = selected === null ? null : (ledger.records.find((r) => r.seq === selected) ?? null);
  const remaining = ledger.total - ledger.records.length;
  const { loadMore, loadingMore, records } = ledger;
  // A linked record beyond the pages loaded so far: load on until it is in (or the ledger ends).
  useEffect(() => {
    if (selected !== null && !loadingMore && selected > records.length && records.length < ledger.total) void loadMore();
  }, [selected, loadingMore, records.length, ledger.total, loadMore]);

  return (
    <div className="evidence-view">
      <LedgerBanner report={ledger.report} error={ledger.reportError} verifying={ledger.verifying} foreign={foreign} onVerify={ledger.refresh} />
      {!foreign && ledger.records.length > 0 && (
        <div
          className="tab-list evidence-tabs"
          role="tablist"
          aria-label="Evidence view"
          onKeyDown={(event) => {
            // Two tabs: either arrow moves to the other one.
            if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
            event.preventDefault();
            if (view === 'records') showDossier();
            else setView('records');
          }}
        >
          {(['records', 'dossier'] as const).map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              className="tab"
              aria-selected={view === tab}
              tabIndex={view === tab ? 0 : -1}
              data-testid={`evidence-tab-${tab}`}
              onClick={tab === 'dossier' ? showDossier : () => setView('records')}
            >
              {tab === 'dossier' ? 'Dossier' : 'Records'}
            </button>
          ))}
        </div>
      )}
      {ledger.listError && <ErrorBanner error={ledger.listError} title="The ledger could not be read" actionLabel="Try again" onAction={ledger.refresh} />}
      {view === 'dossier' && !foreign && ledger.records.length > 0 ? (
        <DossierView />
      ) : ledger.loading ? (
        <p className="muted">Reading the ledger…</p>
      ) : ledger.records.length === 0 ? (
        !ledger.listError && (
          <div className="empty-state" data-testid="ledger-empty">
            <p>
              {foreign
                ? 'This project keeps no Baton ledger: its tool records gates in gates.json, whose hashes are checked against the disk (see Gates).'
                : 'No ledger records yet — they appear when gates are decided or cycles run.'}
            </p>
          </div>
        )
      ) : (
        <div className={record ? 'timeline timeline-with-detail' : 'timeline'}>
          <div className="timeline-main">
            <RecordList records={ledger.records} total={ledger.total} selected={selected} brokenAt={ledger.report?.chain.brokenAt ?? null} onOpen={open} />
            <p className="timeline-footer">
              <span className="muted" data-testid="ledger-loaded">
                {ledger.records.length.toLocaleString('en-US')} of {ledger.total.toLocaleString('en-US')} records, oldest first
              </span>
              {remaining > 0 && (
                <button type="button" className="button" data-testid="ledger-load-more" disabled={ledger.loadingMore} onClick={() => void ledger.loadMore()}>
                  {ledger.loadingMore ? 'Loading…' : `Load more (${Math.min(remaining, PAGE_SIZE).toLocaleString('en-US')})`}
                </button>
              )}
            </p>
          </div>
          {record && <RecordDetail key={record.seq} record={record} onClose={close} />}
        </div>
      )}
    </div>
  );
}

/**
 * The drawer's Evidence: the ledger records about this item (its cycle's RED, LOCK, GREEN,
 * violations, status changes), oldest first, re-read whenever the project changes so a running
 * cycle's records appear as they are written.
 */
import { useEffect, useState } from 'react';
import type { LedgerRecord } from '../../../shared/ledger';
import { RECORD_TYPES, recordOf, recordsOf as recordsOfType } from '../../../shared/records';
import { mutationLine, mutationProof, survivedLine } from '../../../shared/mutation-words';
import type { AppError } from '../../../shared/result';
import { ErrorBanner } from '../components/error-banner';
import { friendlyTime, shortHash } from '../lib/format';
import { hrefFor, hrefForRecord } from '../store/hash-route';
import { itemRecords } from '../store/item-records';
import { useStore } from '../store/store';

type Loaded = { readonly records: readonly LedgerRecord[]; readonly error: null } | { readonly records: null; readonly error: AppError | null };

async function recordsOf(featureId: string, itemId: string): Promise<Loaded> {
  const result = await itemRecords(featureId, itemId);
  return result.ok ? { records: result.value, error: null } : { records: null, error: result.error };
}

/** A step's verdict (`red`, `failing`, `kept`) or a cycle's or item's status (`green`, `escalated`); other records show none. */
const verdictOf = (record: LedgerRecord): string | null =>
  recordOf(record, RECORD_TYPES.cycleRed)?.data.verdict ??
  recordOf(record, RECORD_TYPES.cycleGreen)?.data.verdict ??
  recordOf(record, RECORD_TYPES.cycleRefactored)?.data.verdict ??
  recordOf(record, RECORD_TYPES.itemStatus)?.data.status ??
  recordOf(record, RECORD_TYPES.cycleFinished)?.data.status ??
  null;

/** The newest mutation testing of the item's GREEN: its score and the mutants its tests let through. */
function MutationBlock({ records }: { records: readonly LedgerRecord[] }) {
  const proof = mutationProof(recordsOfType(records, RECORD_TYPES.cycleMutated).at(-1));
  if (!proof) return null;
  return (
    <div className="item-mutation" data-testid="item-mutation" data-weak={proof.weak}>
      <p>
        <strong>Tests' strength:</strong> {mutationLine(proof)}{' '}
        <a href={hrefForRecord(proof.seq)} className="mono">
          #{proof.seq}
        </a>
      </p>
      {proof.survived.length > 0 && (
        <ul role="list" aria-label="Mutants its tests did not kill">
          {proof.survived.map((m) => (
            <li key={`${m.file}/${m.line}/${m.column}/${m.operator}/${m.replacement}`} className="mono">
              survived: {survivedLine(m)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ItemEvidence({ featureId, itemId }: { featureId: string; itemId: string }) {
  const project = useStore((s) => s.project);
  const baton = project?.layout === 'baton';
  const [loaded, setLoaded] = useState<Loaded>({ records: null, error: null });

  useEffect(() => {
    if (!baton) return;
    let live = true;
    void recordsOf(featureId, itemId).then((next) => live && setLoaded(next));
    return () => {
      live = false;
    };
  }, [project, baton, featureId, itemId]);

  const { records, error } = loaded;
  return (
    <section className="drawer-section" aria-labelledby="drawer-evidence-title" data-testid="item-evidence">
      <h3 id="drawer-evidence-title">
        Evidence{' '}
        {records && (
          <span className="muted">
            · {records.length} ledger {records.length === 1 ? 'record' : 'records'}
          </span>
        )}
      </h3>
      {!baton ? (
        <p className="muted">This project keeps no Baton ledger: its own cycle files are under Cycles.</p>
      ) : error ? (
        <ErrorBanner error={error} title="The ledger could not be read" />
      ) : !records ? (
        <p className="muted">Reading the ledger…</p>
      ) : records.length === 0 ? (
        <p className="muted" data-testid="item-evidence-empty">
          No ledger records for {itemId} yet — they appear as its cycle runs.
        </p>
      ) : (
        <>
          <MutationBlock records={records} />
          <ol className="item-records" role="list" aria-label={`Ledger records of ${itemId}, oldest first`}>
            {records.map((record) => {
              const verdict = verdictOf(record);
              const when = friendlyTime(record.at);
              return (
                <li key={record.seq} className="item-record" data-testid="item-record" data-type={record.type}>
                  <span className="item-record-what">
                    <span className="mono item-record-type">{record.type}</span>
                    {verdict && <span className="item-record-verdict">{verdict}</span>}
                  </span>
                  <span className="item-record-when muted">
                    <span title={record.at}>{when ? when.absolute : record.at}</span>
                    <span className="mono" title={record.hash}>
                      #{record.seq} · {shortHash(record.hash)}
                    </span>
                  </span>
                </li>
              );
            })}
          </ol>
          <a href={hrefFor('evidence')} className="item-records-link">
            Open the Evidence timeline
          </a>
        </>
      )}
    </section>
  );
}

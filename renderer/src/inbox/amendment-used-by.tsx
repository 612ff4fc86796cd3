/**
 * The records of the cycle that ran against the old version of the test (its RED, LOCK, GREEN, …),
 * each a link to the record on the Evidence screen: superseded once the amendment is approved.
 * Nothing is removed from the ledger either way.
 */
import type { AmendmentView } from '../../../shared/model';
import { Icon } from '../components/icon';
import { usedByLabel } from '../lib/amendment-model';
import { friendlyTime, shortHash } from '../lib/format';
import { hrefForRecord } from '../store/hash-route';

export function AmendmentUsedBy({ amendment }: { amendment: AmendmentView }) {
  const { usedBy, status, cycle } = amendment;
  const label = usedByLabel(status);
  return (
    <section className="drawer-section" aria-labelledby="amendment-used-title" data-testid="amendment-used-by">
      <h3 id="amendment-used-title">
        Evidence that used the old version <span className="muted">· {label}</span>
      </h3>
      {usedBy.length === 0 ? (
        <p className="muted">
          No record of the cycle <span className="mono">{cycle || 'that locked it'}</span> used the old version.
        </p>
      ) : (
        <>
          <p className="muted field-hint">
            {status === 'pending'
              ? 'If the amendment is approved, these records stay in the ledger but no longer count as evidence for the item: its new round replaces them.'
              : 'These records stay in the ledger, superseded by the round that runs against the amended test.'}
          </p>
          <ol className="item-records" role="list" aria-label={`Records that used the old version, ${label}`}>
            {usedBy.map((use) => {
              const when = friendlyTime(use.at);
              return (
                <li key={use.hash} className="item-record" data-testid="amendment-used" data-type={use.type}>
                  <span className="item-record-what">
                    <a href={hrefForRecord(use.seq)} className="mono item-record-type" title={`Open record #${use.seq} on the Evidence screen`}>
                      {use.type}
                    </a>
                    {use.verdict && <span className="item-record-verdict">{use.verdict}</span>}
                    <span className="badge tone-muted amendment-superseded">
                      <Icon name="superseded" />
                      <span>{label}</span>
                    </span>
                  </span>
                  <span className="item-record-when muted">
                    <time dateTime={use.at} title={use.at}>
                      {when ? when.absolute : use.at}
                    </time>
                    <span className="mono" title={use.hash}>
                      #{use.seq} · {shortHash(use.hash)}
                    </span>
                  </span>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}

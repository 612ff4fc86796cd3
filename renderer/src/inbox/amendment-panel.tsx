/**
 * One test amendment: what the item tests, who proposed the change and why, the test diff (the
 * locked version against the proposed one), the evidence that used the old version, then the
 * decision bar. An approved amendment waiting for its re-run is shown without one: it says what
 * happens on the next run.
 */
import { useState } from 'react';
import type { AmendmentDecision } from '../../../shared/model';
import { readOnlyReason as readOnlyReasonOf } from '../../../shared/read-only';
import type { AppError } from '../../../shared/result';
import { Icon } from '../components/icon';
import { proposerOf, type AmendmentEntry } from '../lib/amendment-model';
import { friendlyTime } from '../lib/format';
import type { InboxRef } from '../lib/inbox-model';
import { decideAmendment } from '../store/amendment-actions';
import { ensureIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { AmendmentBadge } from './amendment-button';
import { AmendmentDecisionBar } from './amendment-decision-bar';
import { AmendmentDiff } from './amendment-diff';
import { AmendmentUsedBy } from './amendment-used-by';

interface Props {
  readonly entry: AmendmentEntry;
  onDecided(ref: InboxRef): void;
}

function When({ at }: { at: string }) {
  const when = friendlyTime(at);
  if (!when) return <>{at}</>;
  return (
    <time dateTime={at} title={when.absolute}>
      {when.relative}
    </time>
  );
}

export function AmendmentPanel({ entry, onDecided }: Props) {
  const { ref, amendment, featureName, item, group } = entry;
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const readOnlyReason = readOnlyReasonOf({ readOnly, bundle, layout }, 'amendments');

  const decide = async (decision: AmendmentDecision, note: string) => {
    const approver = await ensureIdentity();
    if (!approver) return;
    setBusy(true);
    setError(null);
    const result = await decideAmendment(ref, decision, approver, note);
    setBusy(false);
    if (result.ok) onDecided(ref);
    else setError(result.error);
  };

  return (
    <section
      className="evidence-panel escalation-panel amendment-panel"
      aria-labelledby="amendment-title"
      data-testid="amendment-panel"
      data-status={amendment.status}
    >
      <header className="evidence-header">
        <div className="evidence-heading">
          <h2 id="amendment-title" tabIndex={-1} data-detail-heading>
            Test amendment of <span className="mono">{amendment.item}</span> · {featureName}
          </h2>
          <p className="muted" data-testid="amendment-proposed-by">
            <span className="mono">{ref.feature}</span>
            {amendment.story && <> · story {amendment.story}</>} · proposed by {proposerOf(amendment.proposedBy)} <When at={amendment.at} /> · record #
            {amendment.seq}
          </p>
        </div>
        <AmendmentBadge group={group} readOnly={readOnlyReason !== null} testId="amendment-status" />
      </header>
      <div className="evidence-body">
        {group === 'rerun' && (
          <div className="amendment-approved" data-testid="amendment-approved">
            <Icon name="green" />
            <div>
              <strong>
                Approved by {amendment.decidedBy ?? 'someone'}
                {amendment.decidedAt && (
                  <>
                    {' '}
                    <When at={amendment.decidedAt} />
                  </>
                )}
              </strong>
              <p>
                On the next run {amendment.item} runs RED and GREEN again, against the amended test; the acceptance of {featureName} waits until then.
                {!readOnlyReason && ' Run the feature to re-run it.'}
              </p>
              {amendment.note && <p className="muted">Note: {amendment.note}</p>}
            </div>
          </div>
        )}
        <div className="escalation-reason amendment-reason" data-testid="amendment-reason">
          <Icon name="diff" />
          <div>
            <strong>Why the test should change</strong>
            <p>{amendment.reason}</p>
          </div>
        </div>
        <section className="drawer-section" aria-labelledby="amendment-item-title" data-testid="amendment-item">
          <h3 id="amendment-item-title">What {amendment.item} tests</h3>
          {item ? (
            <p>{item.description}</p>
          ) : (
            <p className="muted">
              {amendment.item} is no longer in the test list of {featureName}.
            </p>
          )}
        </section>
        <section className="drawer-section amendment-files" aria-labelledby="amendment-files-title">
          <h3 id="amendment-files-title">
            The test change <span className="muted">· − the locked version, + the proposed one</span>
          </h3>
          {amendment.files.map((file) => (
            <AmendmentDiff key={file.path} file={file} />
          ))}
        </section>
        <AmendmentUsedBy amendment={amendment} />
      </div>
      {group === 'pending' && (
        <AmendmentDecisionBar
          item={amendment.item}
          featureName={featureName}
          readOnlyReason={readOnlyReason}
          busy={busy}
          error={error}
          onDecide={(decision, note) => void decide(decision, note)}
        />
      )}
    </section>
  );
}

/**
 * One escalation: why the orchestrator gave up on the item's cycle, its counters, what the item
 * tests, the last failing run and the item's ledger records, then the decision bar. A decision
 * asks who decides (once per run), is recorded by main, and the next inbox entry opens.
 */
import { useState } from 'react';
import type { EscalationDecision } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { ItemEvidence } from '../board/item-evidence';
import { GivenWhenThen } from '../components/gwt';
import { Icon } from '../components/icon';
import { ReasonDialog } from '../components/reason-dialog';
import { TestStatusBadge } from '../components/status-badge';
import { friendlyTime } from '../lib/format';
import { lastFailingRun, type EscalationEntry, type InboxRef } from '../lib/inbox-model';
import { allowTellsAndRetry, decideEscalation } from '../store/escalation-actions';
import { tellsToAllow } from '../../../shared/tells';
import { ensureIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { EscalationDecisionBar } from './escalation-decision-bar';
import { FailingRun } from './failing-run';
import { readOnlyReason as readOnlyReasonOf } from '../../../shared/read-only';
import { useItemRecords } from './use-item-records';

interface Props {
  readonly entry: EscalationEntry;
  onDecided(ref: InboxRef): void;
}

export function EscalationPanel({ entry, onDecided }: Props) {
  const { ref, escalation, featureName, item, criterion } = entry;
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const { records, error: recordsError } = useItemRecords(ref);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [abandoning, setAbandoning] = useState(false);

  const readOnlyReason = readOnlyReasonOf({ readOnly, bundle, layout }, 'escalations');
  const failing = records ? lastFailingRun(records, escalation) : null;
  const waiting = friendlyTime(escalation.at);

  // Code that tells a test run apart, waiting for a person to allow it (issue 30).
  const tells = records ? tellsToAllow(records, ref.feature, ref.item) : [];

  const decide = async (decision: EscalationDecision | 'allow-tells', note: string) => {
    const approver = await ensureIdentity();
    if (!approver) return;
    setBusy(true);
    setError(null);
    const result = decision === 'allow-tells' ? await allowTellsAndRetry(ref, approver, note) : await decideEscalation(ref, decision, approver, note);
    setBusy(false);
    if (result.ok) onDecided(ref);
    else setError(result.error);
  };

  return (
    <section className="evidence-panel escalation-panel" aria-labelledby="escalation-title" data-testid="escalation-panel" aria-busy={records === null}>
      <header className="evidence-header">
        <div className="evidence-heading">
          <h2 id="escalation-title" tabIndex={-1} data-detail-heading>
            <span className="mono">{ref.item}</span> escalated · {featureName}
          </h2>
          <p className="muted">
            <span className="mono">{ref.feature}</span>
            {escalation.story && <> · story {escalation.story}</>}
            {escalation.round > 1 && <> · round {escalation.round}</>}
            {waiting && (
              <>
                {' '}
                · waiting since{' '}
                <time dateTime={escalation.at} title={waiting.absolute}>
                  {waiting.relative}
                </time>
              </>
            )}
          </p>
        </div>
        <TestStatusBadge status="escalated" />
      </header>
      <div className="evidence-body">
        <div className="escalation-reason" data-testid="escalation-reason">
          <Icon name="warning" />
          <div>
            <strong>Why the cycle stopped</strong>
            <p>{escalation.reason}</p>
          </div>
        </div>
        <dl className="escalation-counters" data-testid="escalation-counters">
          <div>
            <dt>Repairs</dt>
            <dd data-testid="escalation-repairs">{escalation.repairs}</dd>
          </div>
          <div>
            <dt>Violations</dt>
            <dd data-testid="escalation-violations">{escalation.violations}</dd>
          </div>
          <div>
            <dt>Rejected RED</dt>
            <dd data-testid="escalation-rejected-red">{escalation.rejectedRed}</dd>
          </div>
        </dl>
        {tells.length > 0 && (
          <section className="drawer-section" aria-labelledby="escalation-tells-title" data-testid="escalation-tells">
            <h3 id="escalation-tells-title">Code that tells a test run apart</h3>
            <p className="muted">
              The Driver&apos;s code can act differently under the tests than in production, so its GREEN was refused. Allow it only if that is intended: your
              reason is recorded with each line.
            </p>
            <ul>
              {tells.map((t) => (
                <li key={t.id} data-testid="escalation-tell">
                  <span className="mono">
                    {t.file}:{t.line}
                  </span>{' '}
                  {t.why}: <code>{t.text}</code>
                </li>
              ))}
            </ul>
          </section>
        )}
        <section className="drawer-section" aria-labelledby="escalation-item-title" data-testid="escalation-item">
          <h3 id="escalation-item-title">What {ref.item} tests</h3>
          {item ? (
            <p>{item.description}</p>
          ) : (
            <p className="muted">
              {ref.item} is no longer in the test list of {featureName}.
            </p>
          )}
          {criterion ? (
            <div data-testid="escalation-criterion">
              <p>
                <span className="mono">{criterion.id}</span> {criterion.title}
              </p>
              <GivenWhenThen ac={criterion} />
            </div>
          ) : (
            item && (
              <p className="muted">
                Acceptance criterion <span className="mono">{item.acId}</span> was not found in the stories of {featureName}.
              </p>
            )
          )}
        </section>
        {failing ? (
          <FailingRun key={failing.hash} record={failing} />
        ) : (
          records && (
            <p className="muted" data-testid="escalation-no-failing-run">
              This cycle recorded no failing test run: the reason above is the whole story; its records are below.
            </p>
          )
        )}
        {recordsError && !records && <p className="muted">The failing run could not be found: the ledger could not be read (see Evidence below).</p>}
        <ItemEvidence featureId={ref.feature} itemId={ref.item} />
      </div>
      <EscalationDecisionBar
        item={ref.item}
        featureName={featureName}
        nextRound={escalation.round + 1}
        readOnlyReason={readOnlyReason}
        busy={busy}
        error={error}
        tells={tells.length}
        onDecide={(decision, note) => void decide(decision, note)}
        onAllowTells={(note) => void decide('allow-tells', note)}
        onAbandon={() => setAbandoning(true)}
      />
      {abandoning && (
        <ReasonDialog
          title={`Abandon ${featureName}`}
          testIdPrefix="abandon"
          submitLabel="Abandon feature"
          onSubmit={(reason) => {
            setAbandoning(false);
            void decide('abandon', reason);
          }}
          onClose={() => setAbandoning(false)}
        >
          <p>
            {featureName} stops over {ref.item}: once every open escalation of it is decided, the next run ends the feature instead of building on. Its code,
            branches and ledger stay as they are. Your reason is recorded with the decision.
          </p>
        </ReasonDialog>
      )}
    </section>
  );
}

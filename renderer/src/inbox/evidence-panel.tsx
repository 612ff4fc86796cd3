/**
 * One decision: the gate, its artifacts (each opened by the person before Approve enables), the
 * evidence summary and the decision bar. Approve sends the hashes of exactly what was shown; if
 * the disk moved on meanwhile the backend refuses, and this panel reloads instead. An acceptance
 * held back by unproven ACs alone lists them and offers "Approve with exceptions…" beside Approve.
 */
import { useState } from 'react';
import type { LedgerRecord } from '../../../shared/ledger';
import type { AppError, Result } from '../../../shared/result';
import { DiffModeToggle } from '../components/diff-table';
import { ErrorBanner } from '../components/error-banner';
import { GateExceptionsNote } from '../components/gate-exceptions';
import { Icon } from '../components/icon';
import { ReasonDialog } from '../components/reason-dialog';
import { GateStatusBadge } from '../components/status-badge';
import { friendlyTime, humanize } from '../lib/format';
import { acTitleIn, exceptionsOffered, exceptionsRequest, unprovenHint } from '../lib/gate-exceptions';
import { gateKey, type GateRef } from '../lib/gate-ref';
import type { GateEntry } from '../lib/inbox-model';
import { marksScope, rememberViewed, viewedMarks } from '../lib/viewed-marks';
import { approveGate, rejectGate, STALE_ARTIFACT, withdrawConsequence, withdrawGate, type ApprovalExceptions } from '../store/gate-actions';
import { ensureIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { ArtifactCard, hasChanges, viewKey } from './artifact-card';
import { blockedByConformance, ConformanceSection, conformanceHint, judgesConformance } from './conformance-section';
import { DecisionBar } from './decision-bar';
import { EvidenceSummary } from './evidence-summary';
import { ExceptionsDialog } from './exceptions-dialog';
import { UnprovenNotice } from './unproven-acs';
import { readOnlyReason as readOnlyReasonOf } from '../../../shared/read-only';
import { useGateEvidence } from './use-gate-evidence';

export const STALE_MESSAGE = 'This artifact changed while you were reading it — reloaded. Open it again before you decide.';

interface Props {
  readonly entry: GateEntry;
  onDecided(ref: GateRef): void;
}

export function EvidencePanel({ entry, onDecided }: Props) {
  const { ref, gate, featureName } = entry;
  const { evidence, error: loadError, loading, reload } = useGateEvidence(ref);
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const feature = useStore((s) => s.project?.features.find((f) => f.id === ref.feature));
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const root = useStore((s) => s.project?.root ?? '');
  // Opened marks last for the tab (per gate and artifact hash): a link followed or a reload does not clear them.
  const scope = marksScope(root, gateKey(ref));
  const [viewed, setViewed] = useState<ReadonlySet<string>>(() => viewedMarks(scope));
  const [changed, setChanged] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'reject' | 'withdraw' | 'exceptions' | null>(null);
  // When this gate's evidence was opened: how long the decider looked is recorded with the decision.
  const [shownAt] = useState(() => Date.now());

  const readOnlyReason = readOnlyReasonOf({ readOnly, bundle, layout }, 'gates');
  const artifacts = evidence?.artifacts ?? [];
  const unviewed = artifacts.filter((a) => !viewed.has(viewKey(a))).length;

  // Offered only when unproven ACs alone stand in the way, with the same diligence as Approve: every artifact opened.
  const unproven = evidence && !readOnlyReason && !blockedByConformance(evidence) ? exceptionsOffered(evidence) : [];

  let approveBlocked: string | null = null;
  if (!evidence) approveBlocked = loading ? 'Loading the evidence…' : 'The evidence could not be loaded.';
  else if (blockedByConformance(evidence)) approveBlocked = conformanceHint(evidence);
  // The notice above lists each unproven AC and why (the backend's reason, in parts): here, what that means for the buttons.
  else if (unproven.length > 0) approveBlocked = unprovenHint(unproven);
  else if (!evidence.approvable.ok) approveBlocked = evidence.approvable.reason ?? 'This gate cannot be approved now.';
  else if (unviewed > 0) {
    approveBlocked = `Open every artifact to enable Approve (${artifacts.length - unviewed} of ${artifacts.length} opened).`;
  }
  // A background reload (the project was re-read) does not disable Approve: a click then would be
  // dropped unseen. What is approved is what is shown: its hashes go with the decision, and the
  // backend refuses it if an artifact changed meanwhile (STALE_ARTIFACT, handled below).

  let exceptionsBlocked: string | null = null;
  if (unviewed > 0) {
    exceptionsBlocked = `Open every artifact to enable Approve with exceptions (${artifacts.length - unviewed} of ${artifacts.length} opened).`;
  }

  const toggle = (key: string) => {
    const next = new Set(open);
    if (next.has(key)) next.delete(key);
    else {
      next.add(key);
      const marks = new Set(viewed).add(key);
      setViewed(marks);
      rememberViewed(scope, marks);
    }
    setOpen(next);
  };

  /** Asks who decides (once per run), records the decision, and opens the next one on success. */
  const decide = async (run: (approver: string) => Promise<Result<LedgerRecord>>): Promise<Result<LedgerRecord> | null> => {
    const approver = await ensureIdentity();
    if (!approver) return null;
    setBusy(true);
    setError(null);
    setNotice(null);
    const result = await run(approver);
    setBusy(false);
    if (result.ok) onDecided(ref);
    return result;
  };

  const approve = async (exceptions?: ApprovalExceptions) => {
    if (!evidence) return;
    // Exactly what is on screen now: the hashes of this evidence, not of a later fetch.
    const shown = evidence;
    const result = await decide((approver) => approveGate(ref, approver, shown, Date.now() - shownAt, exceptions));
    if (!result || result.ok) return;
    if (result.error.code !== STALE_ARTIFACT) {
      setError(result.error);
      return;
    }
    // Never approve stale content: show the new version, closed, until the person opens it again.
    // (An artifact whose hash did not move keeps its "viewed" mark: its view key is unchanged.)
    setNotice(STALE_MESSAGE);
    setChanged(new Set(shown.artifacts.map((a) => a.name)));
    await reload();
  };

  const reasoned = (kind: 'reject' | 'withdraw') => async (reason: string) => {
    setDialog(null);
    const result = await decide((approver) =>
      kind === 'reject' ? rejectGate(ref, approver, reason, Date.now() - shownAt) : withdrawGate(ref, approver, reason),
    );
    if (result && !result.ok) setError(result.error);
  };

  /** Names exactly the unproven ACs the dialog listed; the backend refuses if that is no longer every one. */
  const approveWithExceptions = (reason: string) => {
    setDialog(null);
    void approve(exceptionsRequest(unproven, reason));
  };

  const titleId = 'evidence-title';
  const waiting = gate.pendingSince ? friendlyTime(gate.pendingSince) : null;
  return (
    <section className="evidence-panel" aria-labelledby={titleId} data-testid="evidence-panel" aria-busy={loading}>
      <header className="evidence-header">
        <div className="evidence-heading">
          <h2 id={titleId} tabIndex={-1} data-detail-heading>
            {humanize(ref.gate)} gate · {featureName}
            {ref.story && <span className="muted"> · story {ref.story}</span>}
          </h2>
          <p className="muted">
            <span className="mono">{ref.feature}</span>
            {waiting && (
              <>
                {' '}
                · waiting since <time dateTime={gate.pendingSince ?? undefined}>{waiting.relative}</time>
              </>
            )}
            {gate.note && <> · last note: “{gate.note}”</>}
          </p>
          {gate.exceptions && <GateExceptionsNote exceptions={gate.exceptions} acTitle={acTitleIn(feature, ref.story)} />}
          {gate.approvers && (
            <p className="muted" data-testid="gate-approvers">
              Who may decide: {gate.approvers.join(', ') || 'no one'} (gates.{ref.gate} in project.json)
            </p>
          )}
        </div>
        <GateStatusBadge status={gate.status} />
      </header>
      <div className="evidence-body">
        {loadError && <ErrorBanner error={loadError} title="The evidence could not be loaded" actionLabel="Try again" onAction={() => void reload()} />}
        {!evidence && !loadError && <EvidenceSkeleton />}
        {evidence && (
          <>
            {/* A read-only project says why in the decision bar, a conformance failure above it; the backend's reason would repeat them. */}
            {unproven.length > 0 && <UnprovenNotice acs={unproven} />}
            {!evidence.approvable.ok && unproven.length === 0 && !readOnlyReason && !blockedByConformance(evidence) && (
              <p className="approvable-reason" data-testid="approvable-reason">
                <Icon name="warning" />
                <span>
                  <strong>Cannot be approved now.</strong> {evidence.approvable.reason}
                </span>
              </p>
            )}
            <div className="artifacts-header">
              <h3>
                Artifacts <span className="muted">({artifacts.length})</span>
              </h3>
              {artifacts.some(hasChanges) && <DiffModeToggle />}
            </div>
            {artifacts.length === 0 ? (
              <p className="muted">This gate names no artifacts: the decision rests on the summary below.</p>
            ) : (
              <div className="artifact-list">
                {artifacts.map((artifact) => {
                  const key = viewKey(artifact);
                  return (
                    <ArtifactCard
                      key={artifact.name}
                      artifact={artifact}
                      open={open.has(key)}
                      viewed={viewed.has(key)}
                      changedWhileReading={changed.has(artifact.name) && !viewed.has(key)}
                      feature={ref.feature}
                      onToggle={() => toggle(key)}
                    />
                  );
                })}
              </div>
            )}
            <EvidenceSummary summary={evidence.summary} />
          </>
        )}
      </div>
      {evidence && judgesConformance(layout, ref.gate) && <ConformanceSection evidence={evidence} />}
      <DecisionBar
        readOnlyReason={readOnlyReason}
        approveBlocked={approveBlocked}
        busy={busy}
        canWithdraw={gate.status === 'drifted'}
        error={error}
        notice={notice}
        exceptions={unproven.length > 0 ? { blocked: exceptionsBlocked } : null}
        onApprove={() => void approve()}
        onApproveWithExceptions={() => setDialog('exceptions')}
        onReject={() => setDialog('reject')}
        onWithdraw={() => setDialog('withdraw')}
      />
      {dialog === 'reject' && (
        <ReasonDialog
          title={`Reject the ${humanize(ref.gate)} of ${featureName}`}
          testIdPrefix="reject"
          submitLabel="Reject"
          onSubmit={reasoned('reject')}
          onClose={() => setDialog(null)}
        >
          <p>The gate stays in the inbox as rejected until the artifacts change. Your reason goes into the ledger.</p>
        </ReasonDialog>
      )}
      {dialog === 'withdraw' && (
        <ReasonDialog
          title={`Withdraw the ${humanize(ref.gate)} approval of ${featureName}`}
          testIdPrefix="withdraw"
          submitLabel="Withdraw"
          onSubmit={reasoned('withdraw')}
          onClose={() => setDialog(null)}
        >
          <p>{withdrawConsequence(ref.gate)}</p>
        </ReasonDialog>
      )}
      {dialog === 'exceptions' && ref.story && unproven.length > 0 && (
        <ExceptionsDialog story={ref.story} featureName={featureName} acs={unproven} onConfirm={approveWithExceptions} onClose={() => setDialog(null)} />
      )}
    </section>
  );
}

function EvidenceSkeleton() {
  return (
    <div className="evidence-skeleton" aria-hidden="true">
      <div className="skeleton-line" style={{ width: '40%' }} />
      <div className="skeleton-card" />
      <div className="skeleton-card" />
    </div>
  );
}

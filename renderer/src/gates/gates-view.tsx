/**
 * Gates: per feature, who approved what and when, with the hashes of what they saw. A drifted
 * gate links to its diff; an approved or drifted one can be withdrawn, with a reason. An approval
 * with exceptions says so under its row, with each AC it accepted unproven, why, and the reason.
 */
import { Fragment, useState } from 'react';
import { proofWords, type ApproverProof } from '../../../shared/approvers';
import type { Feature, Gate } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { ErrorBanner } from '../components/error-banner';
import { GateBadge } from '../components/gate-badge';
import { GateExceptionsNote } from '../components/gate-exceptions';
import { ReasonDialog } from '../components/reason-dialog';
import { friendlyTime, humanize, shortHash } from '../lib/format';
import { acTitleIn } from '../lib/gate-exceptions';
import { refOf, type GateRef } from '../lib/gate-ref';
import { withdrawConsequence, withdrawGate } from '../store/gate-actions';
import { ensureIdentity } from '../store/identity';
import { useStore } from '../store/store';

interface Withdrawal {
  readonly ref: GateRef;
  readonly featureName: string;
}

/** Set by the view: the withdraw action, or null when the project is read-only. */
type OnWithdraw = ((target: Withdrawal) => void) | null;

function When({ text }: { text: string | null }) {
  if (!text) return <span className="muted">—</span>;
  const friendly = friendlyTime(text);
  return (
    <span className="when">
      {friendly && (
        <span>
          <time dateTime={text}>{friendly.absolute}</time> <span className="muted">· {friendly.relative}</span>
        </span>
      )}
      <span className="mono muted when-raw">{text}</span>
    </span>
  );
}

function GateRow({ feature, gate, onWithdraw }: { feature: Feature; gate: Gate; onWithdraw: OnWithdraw }) {
  const featureId = feature.id;
  const ref = refOf(featureId, gate);
  const withdrawable = ref !== null && (gate.status === 'approved' || gate.status === 'drifted');
  return (
    // Story-scoped gates can repeat a name per story: data-story tells them apart.
    <tr data-testid={`gate-${featureId}-${gate.name}`} data-story={gate.story ?? undefined}>
      <th scope="row">
        <span className="gate-name">{humanize(gate.name)}</span>
        {gate.story && <span className="gate-story"> · story {gate.story}</span>}
        {gate.note && (gate.status === 'rejected' || gate.status === 'withdrawn') && (
          // Kept out of the status cell, which holds the status word alone.
          <span className="gate-note">
            {gate.status === 'rejected' ? 'Rejected' : 'Withdrawn'}: “{gate.note}”
          </span>
        )}
      </th>
      <td>
        <GateBadge feature={featureId} gate={gate} />
        {gate.drift.length > 0 && <span className="drift-note">changed: {gate.drift.map((d) => d.artifact).join(', ')}</span>}
        {gate.artifacts.some((a) => a.kind === 'reference') && (
          // Consort's promote gate hashes what was promoted (its promote_ref), not a file: nothing to drift.
          <span className="drift-note muted" data-testid="gate-reference-note">
            records a reference, not a file
          </span>
        )}
      </td>
      <td>
        {gate.approver ?? <span className="muted">—</span>}
        {gate.approverProof && <ApproverProofMark proof={gate.approverProof} />}
        {gate.unsigned && (
          // The project signs its checkpoints, and none covers this approval yet.
          <span
            className="gate-unsigned tone-text-warning"
            data-testid="gate-unsigned"
            title="No signed checkpoint covers this approval yet: it was recorded after the newest one. Run `baton sign` (or decide with a signing key) to vouch for it; `baton verify --strict` fails until then."
          >
            {' '}
            · not signed
          </span>
        )}
      </td>
      <td>
        <When text={gate.approvedAt} />
      </td>
      <td>
        {gate.artifacts.length === 0 ? (
          <span className="muted">none</span>
        ) : (
          <ul className="artifacts" role="list">
            {gate.artifacts.map((a) => (
              <li key={`${a.name}/${a.sha256}`}>
                <span>{a.name}</span>
                {a.kind === 'reference' && <span className="muted"> (a reference, not a file)</span>}{' '}
                <code className="hash" title={`sha256 ${a.sha256}`}>
                  {shortHash(a.sha256)}
                </code>
              </li>
            ))}
          </ul>
        )}
      </td>
      {onWithdraw && (
        <td>
          {withdrawable && (
            <button type="button" className="button button-small" data-testid="withdraw" onClick={() => onWithdraw({ ref, featureName: feature.name })}>
              Withdraw…
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

/** Under the gate's row, the table's full width: the exceptions are part of the approval, to be read, not glanced at. */
function ExceptionsRow({ feature, gate, columns }: { feature: Feature; gate: Gate; columns: number }) {
  if (!gate.exceptions) return null;
  return (
    <tr className="gate-exceptions-row" data-testid={`gate-exceptions-${feature.id}-${gate.name}`} data-story={gate.story ?? undefined}>
      <td colSpan={columns}>
        <GateExceptionsNote exceptions={gate.exceptions} acTitle={acTitleIn(feature, gate.story)} />
      </td>
    </tr>
  );
}

function FeatureGates({ feature, onWithdraw }: { feature: Feature; onWithdraw: OnWithdraw }) {
  const titleId = `gates-title-${feature.id}`;
  return (
    <section className="feature" aria-labelledby={titleId} data-testid={`gates-${feature.id}`}>
      <header className="feature-header">
        <h2 id={titleId}>{feature.name}</h2>
        <span className="mono muted">{feature.id}</span>
      </header>
      {feature.gates.length === 0 ? (
        <p className="muted">No gates recorded yet — the first appears when the spec is approved.</p>
      ) : (
        <table className={onWithdraw ? 'table table-with-actions' : 'table'}>
          <thead>
            <tr>
              <th scope="col" className="col-gate">
                Gate
              </th>
              <th scope="col" className="col-status">
                Status
              </th>
              <th scope="col" className="col-approver">
                Approver
              </th>
              <th scope="col" className="col-when">
                Approved at
              </th>
              <th scope="col" className="col-artifacts">
                Artifacts
              </th>
              {onWithdraw && (
                <th scope="col" className="col-actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {feature.gates.map((gate, i) => (
              <Fragment key={`${gate.name}/${gate.story ?? ''}/${i}`}>
                <GateRow feature={feature} gate={gate} onWithdraw={onWithdraw} />
                <ExceptionsRow feature={feature} gate={gate} columns={onWithdraw ? 6 : 5} />
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function GatesView() {
  const features = useStore((s) => s.project?.features);
  const readOnly = useStore((s) => s.project?.readOnly ?? true);
  const [withdrawing, setWithdrawing] = useState<Withdrawal | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  const withdraw = async (reason: string) => {
    const target = withdrawing;
    setWithdrawing(null);
    if (!target) return;
    const approver = await ensureIdentity();
    if (!approver) return;
    setError(null);
    const result = await withdrawGate(target.ref, approver, reason);
    // Success re-reads the project, and the row shows the new state.
    if (!result.ok) setError(result.error);
  };

  if (!features || features.length === 0) {
    return (
      <div className="empty-state">
        <p>No features yet, so no gates — they appear as specs are approved.</p>
      </div>
    );
  }
  return (
    <div className="gates-view">
      {error && <ErrorBanner error={error} title="The approval was not withdrawn" onDismiss={() => setError(null)} />}
      {features.map((feature) => (
        <FeatureGates key={feature.id} feature={feature} onWithdraw={readOnly ? null : setWithdrawing} />
      ))}
      {withdrawing && (
        <ReasonDialog
          title={`Withdraw the ${humanize(withdrawing.ref.gate)} approval of ${withdrawing.featureName}`}
          testIdPrefix="withdraw"
          submitLabel="Withdraw"
          onSubmit={(reason) => void withdraw(reason)}
          onClose={() => setWithdrawing(null)}
        >
          <p>{withdrawConsequence(withdrawing.ref.gate)}</p>
        </ReasonDialog>
      )}
    </div>
  );
}

/** How far the approval in force proves who made it: signed by their key, a typed name, or unauthenticated (and why). */
function ApproverProofMark({ proof }: { proof: ApproverProof }) {
  const setUp = 'To prove who approves, each approver runs `baton key <dir>` once (see Settings).';
  const mark = {
    signed: {
      tone: 'tone-text-success',
      title: `Signed with the key ${proof.key ?? ''}, which approverKeys lists for them: \`baton verify\` checks the signature against the record.`,
    },
    typed: {
      tone: 'muted',
      title: proof.key
        ? `The name was typed; the key ${proof.key} signed it, but no approverKeys entry ties that key to them, so it proves which machine, not who. ${setUp}`
        : `The name was typed; no key signed it. ${setUp}`,
    },
    unauthenticated: { tone: 'tone-text-warning', title: `Not proven to be theirs: ${proof.why ?? ''}. \`baton verify --strict\` fails.` },
  }[proof.state];
  return (
    <span className={`gate-approver-proof ${mark.tone}`} data-testid="gate-approver-proof" data-state={proof.state} title={mark.title}>
      {' '}
      · {proofWords(proof)}
    </span>
  );
}

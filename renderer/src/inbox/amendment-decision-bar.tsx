/**
 * The decision bar under a pending test amendment: a note (required to reject), then Approve as
 * <identity> and Reject. Says what each does, shows a refusal inline (the note stays), and in a
 * read-only project offers nothing to press and says why.
 */
import { useId, useState } from 'react';
import type { AmendmentDecision } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { Icon } from '../components/icon';
import { useStore } from '../store/store';
import { ChangeIdentity } from './change-identity';

interface Props {
  readonly item: string;
  readonly featureName: string;
  /** Why nothing can be decided here (a bundle, a Consort project), or null. */
  readonly readOnlyReason: string | null;
  readonly busy: boolean;
  readonly error: AppError | null;
  onDecide(decision: AmendmentDecision, note: string): void;
}

export function AmendmentDecisionBar({ item, featureName, readOnlyReason, busy, error, onDecide }: Props) {
  const approver = useStore((s) => s.approver);
  const [note, setNote] = useState('');
  const noteId = useId();
  const helpId = useId();
  const rejectHintId = useId();
  const noNote = note.trim() === '';

  if (readOnlyReason) {
    return (
      <footer className="decision-bar" aria-label="Decision">
        <p className="decision-readonly" data-testid="decision-readonly">
          <Icon name="lock" />
          <span>{readOnlyReason}</span>
        </p>
      </footer>
    );
  }
  return (
    <footer className="decision-bar" aria-label="Decision" aria-busy={busy}>
      {error && (
        <p className="decision-error" role="alert" data-testid="amendment-error" data-code={error.code}>
          <Icon name="warning" />
          <span>{error.message}</span>
        </p>
      )}
      <div className="field escalation-note">
        <label htmlFor={noteId}>Note (required to reject)</label>
        <textarea
          id={noteId}
          className="textarea"
          data-testid="amendment-note"
          rows={2}
          maxLength={4000}
          value={note}
          disabled={busy}
          aria-describedby={helpId}
          placeholder="Why the test should stay as it is, or what to keep in mind when it re-runs"
          onChange={(e) => setNote(e.target.value)}
        />
        <p className="muted field-hint" id={helpId} data-testid="amendment-consequence">
          <strong>Approve</strong>: on the next run {item} runs RED and GREEN again, against the amended test; the acceptance of {featureName} waits until then.{' '}
          <strong>Reject</strong>: the lock stays as it is, and your note is recorded with the decision.
        </p>
      </div>
      <div className="decision-row">
        <button type="button" className="button button-primary" data-testid="amendment-approve" disabled={busy} onClick={() => onDecide('approve', note)}>
          <Icon name="green" />
          {approver ? `Approve as ${approver}` : 'Approve as…'}
        </button>
        <button
          type="button"
          className="button"
          data-testid="amendment-reject"
          disabled={busy || noNote}
          aria-describedby={noNote ? rejectHintId : undefined}
          onClick={() => onDecide('reject', note)}
        >
          <Icon name="red" />
          Reject
        </button>
        <ChangeIdentity hidden={false} busy={busy} />
        <span className="spacer" />
        {busy ? (
          <span className="muted" role="status">
            Recording the decision…
          </span>
        ) : (
          noNote && (
            <span className="muted decision-hint" id={rejectHintId} data-testid="amendment-reject-hint">
              Write a note to reject: it says why the test stays as it is.
            </span>
          )
        )}
      </div>
    </footer>
  );
}

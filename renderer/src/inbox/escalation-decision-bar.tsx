/**
 * The decision bar under an escalation: an optional note, then Retry as <identity>, Set aside,
 * and Abandon feature… (which asks for a reason first). Says what each choice does, shows a failed
 * decision's error, and why nothing can be decided in a read-only project.
 */
import { useId, useState } from 'react';
import type { EscalationDecision } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { Icon } from '../components/icon';
import { ChangeIdentity } from './change-identity';
import { useStore } from '../store/store';

interface Props {
  readonly item: string;
  readonly featureName: string;
  /** The round a retry would run. */
  readonly nextRound: number;
  /** Why nothing can be decided here (a bundle, a Consort project), or null. */
  readonly readOnlyReason: string | null;
  readonly busy: boolean;
  readonly error: AppError | null;
  /** Tells waiting to be allowed (code that tells a test run apart): offers Allow and retry. */
  readonly tells?: number;
  onDecide(decision: Exclude<EscalationDecision, 'abandon'>, note: string): void;
  /** Allow the tells with the note as the reason, then retry. */
  onAllowTells?(note: string): void;
  onAbandon(): void;
}

export function EscalationDecisionBar({ item, featureName, nextRound, readOnlyReason, busy, error, tells = 0, onDecide, onAllowTells, onAbandon }: Props) {
  const approver = useStore((s) => s.approver);
  const [note, setNote] = useState('');
  const noteId = useId();
  const helpId = useId();
  const locked = readOnlyReason !== null || busy;
  return (
    <footer className="decision-bar" aria-label="Decision" aria-busy={busy}>
      {error && (
        <p className="decision-error" role="alert" data-testid="escalation-error" data-code={error.code}>
          <Icon name="warning" />
          <span>{error.message}</span>
        </p>
      )}
      {readOnlyReason ? (
        <p className="decision-readonly" data-testid="decision-readonly">
          <Icon name="lock" />
          <span>{readOnlyReason}</span>
        </p>
      ) : (
        <div className="field escalation-note">
          <label htmlFor={noteId}>Note (optional)</label>
          <textarea
            id={noteId}
            className="textarea"
            data-testid="escalation-note"
            rows={2}
            maxLength={4000}
            value={note}
            disabled={busy}
            aria-describedby={helpId}
            placeholder="What should the agents do differently?"
            onChange={(e) => setNote(e.target.value)}
          />
          <p className="muted field-hint" id={helpId}>
            <strong>Retry</strong> runs {item} again from PLAN on the next run (round {nextRound}), with your note in the agents&apos; prompts.{' '}
            <strong>Set aside</strong> marks {item} skipped and {featureName} goes on without it. <strong>Abandon</strong> stops {featureName}.
            {tells > 0 && (
              <>
                {' '}
                <strong>Allow and retry</strong> lets the code that tells a test run apart through for {item}, with this note as the recorded reason (required),
                then retries.
              </>
            )}
          </p>
        </div>
      )}
      <div className="decision-row">
        <button type="button" className="button button-primary" data-testid="escalation-retry" disabled={locked} onClick={() => onDecide('retry', note)}>
          <Icon name="refactored" />
          {approver ? `Retry as ${approver}` : 'Retry as…'}
        </button>
        {tells > 0 && onAllowTells && (
          <button
            type="button"
            className="button"
            data-testid="escalation-allow-tells"
            disabled={locked || note.trim() === ''}
            title={note.trim() === '' ? 'Write the reason in the note first' : undefined}
            onClick={() => onAllowTells(note)}
          >
            <Icon name="shield" />
            Allow {tells === 1 ? 'the tell' : `${tells} tells`} and retry
          </button>
        )}
        <button type="button" className="button" data-testid="escalation-skip" disabled={locked} onClick={() => onDecide('skip', note)}>
          <Icon name="skipped" />
          Set aside
        </button>
        <button type="button" className="button button-danger" data-testid="escalation-abandon" disabled={locked} onClick={onAbandon}>
          <Icon name="minus" />
          Abandon feature…
        </button>
        <ChangeIdentity hidden={readOnlyReason !== null} busy={busy} />
        <span className="spacer" />
        {busy && (
          <span className="muted" role="status">
            Recording the decision…
          </span>
        )}
      </div>
    </footer>
  );
}

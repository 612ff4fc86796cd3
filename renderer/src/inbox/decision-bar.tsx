/**
 * The decision bar under the evidence: Approve as <identity>, Reject, Withdraw for a drifted gate,
 * and "Approve with exceptions…" for an acceptance whose only obstacle is unproven ACs. Says why
 * Approve is disabled, and shows a failed decision's error.
 */
import type { AppError } from '../../../shared/result';
import { Icon } from '../components/icon';
import { ChangeIdentity } from './change-identity';
import { useStore } from '../store/store';

interface Props {
  /** Why nothing can be decided here (a bundle, a Consort project), or null. */
  readonly readOnlyReason: string | null;
  /** Why Approve is disabled now, or null when it is enabled. */
  readonly approveBlocked: string | null;
  readonly busy: boolean;
  readonly canWithdraw: boolean;
  readonly error: AppError | null;
  /** A notice that is not a failure of the person's action (the evidence reloaded). */
  readonly notice: string | null;
  /**
   * Approve with exceptions, when offered (null when not): why it is disabled now, or null when
   * it is enabled. Never instead of Approve, which stays disabled with its reason.
   */
  readonly exceptions: { readonly blocked: string | null } | null;
  onApprove(): void;
  onApproveWithExceptions(): void;
  onReject(): void;
  onWithdraw(): void;
}

export function DecisionBar(props: Props) {
  const approver = useStore((s) => s.approver);
  const { readOnlyReason, approveBlocked, busy, canWithdraw, error, notice, exceptions } = props;
  const locked = readOnlyReason !== null || busy;
  return (
    <footer className="decision-bar" aria-label="Decision">
      {(error || notice) && (
        <p className="decision-error" role="alert" data-testid="decision-error" data-code={error?.code}>
          <Icon name="warning" />
          <span>{notice ?? error?.message}</span>
        </p>
      )}
      {readOnlyReason && (
        <p className="decision-readonly" data-testid="decision-readonly">
          <Icon name="lock" />
          <span>{readOnlyReason}</span>
        </p>
      )}
      <div className="decision-row">
        <button
          type="button"
          className="button button-primary"
          data-testid="approve"
          disabled={locked || approveBlocked !== null}
          aria-describedby={approveBlocked ? 'approve-blocked' : undefined}
          onClick={props.onApprove}
        >
          <Icon name="green" />
          {approver ? `Approve as ${approver}` : 'Approve as…'}
        </button>
        {exceptions && (
          <button
            type="button"
            className="button"
            data-testid="approve-exceptions"
            disabled={locked || exceptions.blocked !== null}
            aria-describedby={exceptions.blocked ? 'exceptions-blocked' : undefined}
            onClick={props.onApproveWithExceptions}
          >
            <Icon name="warning" />
            Approve with exceptions…
          </button>
        )}
        <button type="button" className="button" data-testid="reject" disabled={locked} onClick={props.onReject}>
          <Icon name="red" />
          Reject…
        </button>
        {canWithdraw && (
          <button type="button" className="button" data-testid="withdraw" disabled={locked} onClick={props.onWithdraw}>
            <Icon name="minus" />
            Withdraw approval…
          </button>
        )}
        <ChangeIdentity hidden={readOnlyReason !== null} busy={busy} />
        <span className="spacer" />
        {busy && (
          <span className="muted" role="status">
            Recording the decision…
          </span>
        )}
        {!busy && approveBlocked && !readOnlyReason && (
          <span className="muted decision-hint" id="approve-blocked" data-testid="approve-blocked">
            {approveBlocked}
          </span>
        )}
        {!busy && exceptions?.blocked && !readOnlyReason && (
          <span className="muted decision-hint" id="exceptions-blocked" data-testid="exceptions-blocked">
            {exceptions.blocked}
          </span>
        )}
      </div>
    </footer>
  );
}

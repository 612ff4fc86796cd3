/** An error a person reads: what happened and what to do, with the fix as a button when there is one. */
import type { AppError } from '../../../shared/result';
import { Icon } from './icon';

interface Props {
  readonly error: AppError;
  readonly title?: string;
  readonly actionLabel?: string;
  readonly onAction?: () => void;
  readonly onDismiss?: () => void;
}

export function ErrorBanner({ error, title, actionLabel, onAction, onDismiss }: Props) {
  return (
    <div className="error-banner" role="alert" data-testid="error" data-code={error.code}>
      <Icon name="warning" className="error-icon" />
      <div className="error-text">
        {title && <strong>{title}</strong>}
        <p>{error.message}</p>
      </div>
      <div className="error-actions">
        {onAction && actionLabel && (
          <button type="button" className="button" onClick={onAction}>
            {actionLabel}
          </button>
        )}
        {onDismiss && (
          <button type="button" className="button button-quiet" onClick={onDismiss}>
            Dismiss
          </button>
        )}
      </div>
    </div>
  );
}

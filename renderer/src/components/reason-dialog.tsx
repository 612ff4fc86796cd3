/** Asks why (reject, withdraw, approve with exceptions): a reason is required, so submit stays disabled until there is one. */
import { useState, type ReactNode } from 'react';
import { Dialog } from './dialog';

interface Props {
  readonly title: string;
  /** `reject` gives the test ids `reject-reason` and `reject-submit`. */
  readonly testIdPrefix: string;
  readonly submitLabel: string;
  /** The submit button's classes: a danger button unless the act is not a taking back (approve with exceptions). */
  readonly submitClassName?: string;
  /** Under the empty reason: what to write, and where it goes. */
  readonly hint?: string;
  readonly children?: ReactNode;
  readonly onSubmit: (reason: string) => void;
  readonly onClose: () => void;
}

export function ReasonDialog({
  title,
  testIdPrefix,
  submitLabel,
  submitClassName = 'button button-danger',
  hint = 'Say what must change; the reason is recorded in the ledger.',
  children,
  onSubmit,
  onClose,
}: Props) {
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  const submit = () => {
    if (trimmed) onSubmit(trimmed);
  };
  return (
    <Dialog
      title={title}
      testId={`${testIdPrefix}-dialog`}
      onClose={onClose}
      onSubmit={submit}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={submitClassName} data-testid={`${testIdPrefix}-submit`} disabled={!trimmed}>
            {submitLabel}
          </button>
        </>
      }
    >
      {children}
      <label className="field">
        <span>Reason (required)</span>
        <textarea
          className="textarea"
          data-testid={`${testIdPrefix}-reason`}
          data-autofocus
          rows={4}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            // Ctrl/Cmd+Enter submits; Enter alone is a new line.
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              submit();
            }
          }}
        />
      </label>
      {!trimmed && <p className="muted field-hint">{hint}</p>}
    </Dialog>
  );
}

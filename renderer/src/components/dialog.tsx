/** A modal dialog: labelled by its title, Escape and the backdrop close it, focus stays inside. */
import { useId, type ReactNode } from 'react';
import { useDialogFocus } from './use-dialog-focus';

interface Props {
  readonly title: string;
  readonly testId?: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  /** The buttons along the bottom. */
  readonly actions: ReactNode;
  readonly onSubmit?: () => void;
  /** Added to `dialog` (e.g. a wider one for a form with a paragraph to write). */
  readonly className?: string;
}

export function Dialog({ title, testId, onClose, children, actions, onSubmit, className }: Props) {
  const titleId = useId();
  const { ref, onKeyDown } = useDialogFocus<HTMLFormElement>(onClose);
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <form
        ref={ref}
        className={className ? `dialog ${className}` : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit?.();
        }}
      >
        <h2 className="dialog-title" id={titleId}>
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">{actions}</div>
      </form>
    </div>
  );
}

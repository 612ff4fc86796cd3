/**
 * Opens the New feature dialog. A project Baton may not change (a review bundle, a Consort
 * project) keeps the button, disabled, with the reason beside it or in its tooltip.
 */
import { readOnlyReason } from '../../../shared/read-only';
import { Icon } from '../components/icon';
import { useStore } from '../store/store';

interface Props {
  readonly testId: string;
  /** Show the read-only reason as text next to the button (else only as its tooltip). */
  readonly explain?: boolean;
  readonly primary?: boolean;
}

export function NewFeatureButton({ testId, explain = false, primary = false }: Props) {
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const open = useStore((s) => s.setNewFeatureOpen);
  const reason = readOnlyReason({ readOnly, bundle, layout }, 'changes');
  const reasonId = `${testId}-reason`;
  return (
    <>
      <button
        type="button"
        className={primary ? 'button button-primary' : 'button'}
        data-testid={testId}
        disabled={reason !== null}
        title={reason ?? 'Start a feature from a one-paragraph request'}
        aria-describedby={reason && explain ? reasonId : undefined}
        onClick={() => open(true)}
      >
        <Icon name="plus" />
        New feature
      </button>
      {reason && explain && (
        <span className="muted new-feature-reason" id={reasonId} data-testid={reasonId}>
          <Icon name="lock" /> {reason}
        </span>
      )}
    </>
  );
}

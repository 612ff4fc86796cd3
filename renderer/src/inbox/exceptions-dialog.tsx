/**
 * "Approve with exceptions…": the separate, explicit act that accepts a story whose ACs are not all
 * proven. Lists each unproven AC with why, and asks for the reason (required), which is recorded
 * with the approval and shown with it for good.
 */
import type { AcProof } from '../../../shared/ledger';
import { ReasonDialog } from '../components/reason-dialog';
import { UnprovenAcList } from './unproven-acs';

interface Props {
  /** The story whose acceptance is approved. */
  readonly story: string;
  readonly featureName: string;
  /** Every unproven AC: the approval names exactly these. */
  readonly acs: readonly AcProof[];
  readonly onConfirm: (reason: string) => void;
  readonly onClose: () => void;
}

export function ExceptionsDialog({ story, featureName, acs, onConfirm, onClose }: Props) {
  const one = acs.length === 1;
  return (
    <ReasonDialog
      title={`Approve the acceptance of story ${story} of ${featureName} with exceptions`}
      testIdPrefix="exceptions"
      submitLabel="Approve with exceptions"
      submitClassName="button button-primary"
      hint="Say why the story is accepted without this proof; the reason is recorded with the approval."
      onSubmit={onConfirm}
      onClose={onClose}
    >
      <p>
        {one ? 'This AC is' : `These ${acs.length} ACs are`} not proven. Approving accepts story {story} without {one ? 'its' : 'their'} proof:
      </p>
      <UnprovenAcList acs={acs} testIdPrefix="exceptions-ac" />
      <p data-testid="exceptions-consequence">
        The exceptions (each AC, why it is unproven, and your reason) are recorded with the approval in the ledger and shown with it for good, wherever this
        gate appears.
      </p>
    </ReasonDialog>
  );
}

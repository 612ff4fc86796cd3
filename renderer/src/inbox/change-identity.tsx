/** "Not Ada? Change" beside a decision's buttons: shown once someone has said who decides, in a project that can be decided. */
import { askIdentity } from '../store/identity';
import { useStore } from '../store/store';

export function ChangeIdentity({ hidden, busy }: { readonly hidden: boolean; readonly busy: boolean }) {
  const approver = useStore((s) => s.approver);
  if (!approver || hidden) return null;
  return (
    <button type="button" className="button button-quiet" data-testid="change-identity" onClick={() => void askIdentity()} disabled={busy}>
      Not {approver.replace(/\s*<.*>$/, '')}? Change
    </button>
  );
}

/**
 * Reset or delete a pair, after saying exactly what goes: for delete the git branch, the worktree
 * folder and the database branch; for reset the database's contents (the git half stays).
 * Progress shows while it runs, with Cancel.
 */
import type { BranchPairView } from '../../../shared/branches';
import { PROVIDER_LABELS } from '../../../shared/branches';
import type { Result } from '../../../shared/result';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { pairLabel } from '../lib/branch-tree';
import { deleteBranch, resetBranch } from '../store/branch-actions';
import { OpProgress } from './op-progress';
import { useBranchOp } from './use-branch-op';

export type ConfirmAction = 'reset' | 'delete';

interface Props {
  readonly action: ConfirmAction;
  readonly pair: BranchPairView;
  /** The parent's label, for what reset forks from. */
  readonly parentLabel: string | null;
  readonly onClose: () => void;
  readonly onDone: (action: ConfirmAction) => void;
}

export function ConfirmBranchDialog({ action, pair, parentLabel, onClose, onDone }: Props) {
  const op = useBranchOp<unknown>();
  const label = pairLabel(pair);
  const database = pair.database ? `${pair.database.name} (${PROVIDER_LABELS[pair.database.provider]})` : null;

  const run = async () => {
    if (op.running) return;
    const call = action === 'delete' ? (opId: string) => deleteBranch(opId, pair.name) : (opId: string) => resetBranch(opId, pair.name);
    const result: Result<unknown> = await op.start(call);
    if (result.ok) onDone(action);
  };
  const close = () => (op.running ? op.cancel() : onClose());

  const verb = action === 'delete' ? 'Delete' : 'Reset';
  return (
    <Dialog
      title={action === 'delete' ? `Delete ${label}?` : `Reset the database of ${label}?`}
      testId={`branch-${action}-dialog`}
      onClose={close}
      onSubmit={() => void run()}
      actions={
        op.running ? (
          <button type="button" className="button" data-testid="branch-op-cancel" onClick={op.cancel} disabled={op.cancelling}>
            {op.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : (
          <>
            <button type="button" className="button" onClick={onClose} data-autofocus>
              Keep it
            </button>
            <button type="submit" className="button button-danger" data-testid="branch-confirm-submit">
              {verb} {label}
            </button>
          </>
        )
      }
    >
      {action === 'delete' ? (
        <>
          <p>This removes, and cannot be undone:</p>
          <ul className="removal-list" data-testid="branch-removal-list">
            {pair.gitBranch && (
              <li>
                git branch <code>{pair.gitBranch}</code> (commits only on it are lost)
              </li>
            )}
            {pair.worktree && (
              <li>
                worktree folder <code>{pair.worktree}</code>, with any uncommitted changes
              </li>
            )}
            {database && (
              <li>
                database branch <code>{database}</code> and all its data
              </li>
            )}
          </ul>
        </>
      ) : (
        <>
          <p data-testid="branch-reset-summary">
            Every change in database branch <code>{database ?? pair.name}</code> is discarded: it is forked again from <code>{parentLabel ?? pair.parent}</code>
            , with masking and migrations applied again.
          </p>
          <p className="muted">
            Kept: git branch <code>{pair.gitBranch ?? '—'}</code>
            {pair.worktree && (
              <>
                {' '}
                and its worktree <code>{pair.worktree}</code>
              </>
            )}
            .
          </p>
        </>
      )}
      {(op.running || op.progress.length > 0) && (
        <OpProgress progress={op.progress} running={op.running} starting={action === 'delete' ? 'Deleting…' : 'Resetting…'} />
      )}
      {op.error && (
        <ErrorBanner error={op.error} title={op.error.code === 'cancelled' ? 'Cancelled' : `${label} was not ${action === 'delete' ? 'deleted' : 'reset'}`} />
      )}
    </Dialog>
  );
}

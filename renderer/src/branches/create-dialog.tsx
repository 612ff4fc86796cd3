/**
 * Create a pair: a git branch name and the parent to fork from (the selected row, else the
 * default branch). While it runs it shows the steps and offers Cancel; when done it shows the
 * pair with its connection URL, whose password main has already redacted.
 */
import { useState } from 'react';
import type { BranchCreated, BranchPairView } from '../../../shared/branches';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { pairLabel } from '../lib/branch-tree';
import { createBranch } from '../store/branch-actions';
import { OpProgress } from './op-progress';
import { useBranchOp } from './use-branch-op';

interface Props {
  /** Pairs a new branch may fork from (no orphans). */
  readonly parents: readonly BranchPairView[];
  readonly defaultParent: string | null;
  readonly onClose: () => void;
  /** The person closed the dialog after a successful create. */
  readonly onCreated: (created: BranchCreated) => void;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What is wrong with a typed name before main sees it; main and git check the rest. */
function nameProblem(name: string): string | null {
  if (!name.trim()) return 'Type the git branch to create, e.g. feature/login.';
  if (name.length > 200) return 'A branch name is at most 200 characters.';
  if (CONTROL.test(name) || /\s/.test(name)) return 'A git branch name has no spaces or control characters.';
  return null;
}

export function CreateBranchDialog({ parents, defaultParent, onClose, onCreated }: Props) {
  const [name, setName] = useState('');
  const [parent, setParent] = useState(defaultParent ?? parents[0]?.name ?? '');
  const [touched, setTouched] = useState(false);
  const op = useBranchOp<BranchCreated>();
  const problem = nameProblem(name);
  const created = op.value;

  const submit = () => {
    setTouched(true);
    if (problem || op.running || created) return;
    void op.start((opId) => createBranch(opId, name.trim(), parent || null));
  };
  // Escape or the backdrop while it runs cancels the work first; the dialog then shows what happened.
  const close = () => (op.running ? op.cancel() : created ? onCreated(created) : onClose());

  const actions = created ? (
    <button type="button" className="button button-primary" data-testid="branch-create-done" onClick={() => onCreated(created)}>
      Done
    </button>
  ) : op.running ? (
    <button type="button" className="button" data-testid="branch-op-cancel" onClick={op.cancel} disabled={op.cancelling}>
      {op.cancelling ? 'Cancelling…' : 'Cancel'}
    </button>
  ) : (
    <>
      <button type="button" className="button" onClick={onClose}>
        Close
      </button>
      <button type="submit" className="button button-primary" data-testid="branch-create-submit" disabled={touched && problem !== null}>
        Create pair
      </button>
    </>
  );

  return (
    <Dialog
      title={created ? `Created ${created.gitBranch}` : 'Create a branch pair'}
      testId="branch-create-dialog"
      onClose={close}
      onSubmit={submit}
      actions={actions}
    >
      {!created && (
        <>
          <p className="muted">A git branch with its own worktree, and a database branch forked from the parent’s database.</p>
          <label className="field">
            <span>Git branch</span>
            <input
              className="input"
              data-testid="branch-create-name"
              data-autofocus
              value={name}
              placeholder="feature/login"
              disabled={op.running}
              aria-invalid={touched && problem !== null}
              aria-describedby="branch-create-hint"
              onChange={(e) => setName(e.target.value)}
            />
          </label>
          <p id="branch-create-hint" className={touched && problem ? 'field-hint tone-text-danger' : 'field-hint muted'}>
            {touched && problem ? problem : 'The database branch gets the same name, lowercased with / as -.'}
          </p>
          <label className="field">
            <span>Fork from</span>
            <select className="select" data-testid="branch-create-parent" value={parent} disabled={op.running} onChange={(e) => setParent(e.target.value)}>
              {parents.map((p) => (
                <option key={p.name} value={p.name}>
                  {pairLabel(p)}
                  {p.tier ? ` (${p.tier})` : ''}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {(op.running || op.progress.length > 0) && <OpProgress progress={op.progress} running={op.running} starting="Starting…" />}
      {op.error && <ErrorBanner error={op.error} title={op.error.code === 'cancelled' ? 'Cancelled' : 'The pair was not created'} />}
      {created && <CreatedPair created={created} />}
    </Dialog>
  );
}

function CreatedPair({ created }: { created: BranchCreated }) {
  return (
    <dl className="created-pair" data-testid="branch-created">
      <dt>Git branch</dt>
      <dd className="mono">{created.gitBranch}</dd>
      <dt>Worktree</dt>
      <dd className="mono" data-testid="branch-created-worktree">
        {created.worktree}
      </dd>
      <dt>Database</dt>
      <dd className="mono">
        {created.database}
        {created.masked && <span className="muted"> · masked</span>}
      </dd>
      <dt>Forked from</dt>
      <dd className="mono">{created.parent}</dd>
      <dt>Connection URL</dt>
      <dd className="mono created-url" data-testid="branch-created-url">
        {created.connectionUrl}
      </dd>
      <dt>Took</dt>
      <dd>{created.createdMs.toLocaleString('en-US')} ms</dd>
      <dd className="created-note muted">
        The workbench never shows a password. In a terminal, <code>baton branch url {created.name} --show-secret</code> prints the full URL.
      </dd>
    </dl>
  );
}

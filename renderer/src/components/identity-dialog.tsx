/** Asks who decides, once per run: prefilled from git, confirmed by the person. */
import { useEffect, useState } from 'react';
import { settleIdentity, suggestedIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { Dialog } from './dialog';

function IdentityForm() {
  const current = useStore((s) => s.approver);
  const [value, setValue] = useState(current ?? '');
  const [suggested, setSuggested] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void suggestedIdentity().then((identity) => {
      if (!live) return;
      setSuggested(identity);
      // Prefill only what the person has not started typing over.
      setValue((typed) => (typed === '' ? identity : typed));
    });
    return () => {
      live = false;
    };
  }, []);

  const trimmed = value.trim();
  const confirm = () => {
    if (trimmed) settleIdentity(trimmed);
  };

  return (
    <Dialog
      title="Who is deciding?"
      testId="identity-dialog"
      onClose={() => settleIdentity(null)}
      onSubmit={confirm}
      actions={
        <>
          <button type="button" className="button" onClick={() => settleIdentity(null)}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="identity-confirm" disabled={!trimmed}>
            Confirm
          </button>
        </>
      }
    >
      <p>
        Your name goes into the ledger with every decision and proposal you make in this session (approvals, rejections, withdrawals, test amendments, new
        features). Check it before you confirm.
      </p>
      <label className="field">
        <span>Name and email</span>
        <input
          className="input"
          data-testid="identity-input"
          data-autofocus
          value={value}
          placeholder="Ana Silva <ana@example.com>"
          onChange={(e) => setValue(e.target.value)}
          aria-describedby="identity-hint"
        />
      </label>
      <p className="muted field-hint" id="identity-hint">
        {suggested === null
          ? 'Looking up your git identity…'
          : suggested
            ? 'Suggested from git (user.name and user.email).'
            : 'Git has no user.name or user.email here: type who you are, e.g. "Ana Silva <ana@example.com>".'}
      </p>
    </Dialog>
  );
}

/** Rendered once by the workbench; shows while a decision waits for an identity. */
export function IdentityDialog() {
  const open = useStore((s) => s.identityPrompt);
  return open ? <IdentityForm /> : null;
}

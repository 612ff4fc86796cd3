/**
 * Propose test amendment (from the card drawer): pick one of the item's locked test files, edit
 * the locked version (read from the ledger) and say why; main records it as the confirmed
 * identity's proposal and it waits in the Inbox for a decision. A refusal is shown inline and what
 * was typed stays. The dialog sits above the drawer, so Escape closes only the topmost of them:
 * the identity question when it is open, else this dialog, never the drawer beneath.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { LockedTests } from '../../../shared/model';
import type { AppError } from '../../../shared/result';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { amendmentProblems, changedFiles, type AmendmentDraft } from '../lib/amendment-model';
import { formatBytes } from '../lib/artifact-text';
import { shortHash } from '../lib/format';
import { proposeAmendment } from '../store/amendment-actions';
import { ensureIdentity, settleIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { knownTexts, useLockedTexts } from './amendment-locked-texts';

interface Props {
  readonly feature: string;
  readonly item: string;
  readonly locked: LockedTests;
  onClose(): void;
}

const hintOf = (problem: string | undefined, hint: string) => ({
  className: problem ? 'field-hint tone-text-danger' : 'field-hint muted',
  text: problem ?? hint,
});

/** Escape, caught before anything else hears it: the identity question first, else this dialog. */
function useTopmostEscape(close: () => void) {
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      if (useStore.getState().identityPrompt) settleIdentity(null);
      else latest.current();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
}

export function AmendmentDialog({ feature, item, locked, onClose }: Props) {
  const approver = useStore((s) => s.approver);
  const setNotice = useStore((s) => s.setNotice);
  const texts = useLockedTexts(locked.files);
  const [path, setPath] = useState(locked.files[0]?.path ?? '');
  const [draft, setDraft] = useState<AmendmentDraft>({ contents: {}, reason: '' });
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const ids = { file: useId(), content: useId(), contentHint: useId(), reason: useId(), reasonHint: useId() };

  const close = () => {
    if (!busy) onClose();
  };
  useTopmostEscape(close);

  const file = locked.files.find((f) => f.path === path) ?? locked.files[0];
  const lockedText = file ? texts[file.path] : undefined;
  const known = knownTexts(texts);
  const content = file ? (draft.contents[file.path] ?? known[file.path] ?? '') : '';
  const problems = touched ? amendmentProblems(draft, known) : {};
  const changed = changedFiles(draft, known);

  const submit = async () => {
    if (busy) return;
    setTouched(true);
    const found = amendmentProblems(draft, known);
    if (found.content || found.reason) {
      document.getElementById(found.content ? ids.content : ids.reason)?.focus();
      return;
    }
    const who = await ensureIdentity();
    if (!who) return;
    setBusy(true);
    setError(null);
    const result = await proposeAmendment(feature, item, changed, draft, who);
    setBusy(false);
    if (!result.ok) {
      setError(result.error);
      return;
    }
    setNotice(
      `Proposed a test amendment of ${item} (${changed.map((f) => f.path).join(', ')}; ledger record #${result.value.seq}): it waits in the Inbox for a decision.`,
    );
    onClose();
  };

  // Ctrl/Cmd+Enter proposes from any field; Enter alone is a new line in the test.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  const contentHint = hintOf(
    problems.content,
    changed.length > 1 ? `Proposes the changes to ${changed.length} files: ${changed.map((f) => f.path).join(', ')}.` : 'Edit the locked version of the test.',
  );
  const reasonHint = hintOf(problems.reason, 'What is wrong with the locked test: whoever decides reads it beside the diff.');
  const editable = lockedText?.state === 'text';

  return (
    <Dialog
      title={`Propose a test amendment for ${item}`}
      testId="amendment-dialog"
      className="dialog-wide amendment-dialog"
      onClose={close}
      onSubmit={() => void submit()}
      actions={
        <>
          <span className="muted dialog-shortcut">Ctrl/Cmd+Enter proposes it</span>
          <button type="button" className="button" data-testid="amendment-cancel" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="amendment-submit" disabled={busy || !editable}>
            {busy ? 'Proposing…' : approver ? `Propose as ${approver}` : 'Propose as…'}
          </button>
        </>
      }
    >
      <div className="amendment-fields" onKeyDown={onKeyDown}>
        <p className="muted">
          {item}&apos;s test is locked: it changes only through an amendment a person approves. Once approved, {item} runs RED and GREEN again against the new
          version on the next run.
        </p>
        <label className="field-label" htmlFor={ids.file}>
          Locked test file
        </label>
        <select
          id={ids.file}
          className="select"
          data-testid="amendment-file"
          value={file?.path ?? ''}
          disabled={busy || locked.files.length < 2}
          onChange={(e) => setPath(e.target.value)}
        >
          {locked.files.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path} · {shortHash(f.sha256)} · {formatBytes(f.bytes)}
              {draft.contents[f.path] !== undefined && draft.contents[f.path] !== known[f.path] ? ' · changed' : ''}
            </option>
          ))}
        </select>
        <label className="field-label" htmlFor={ids.content}>
          New version
        </label>
        {lockedText?.state === 'error' && <ErrorBanner error={lockedText.error} title={`The locked ${file?.path} could not be read from the ledger`} />}
        {lockedText?.state === 'unusable' && <p className="field-hint tone-text-danger">{lockedText.why}</p>}
        <textarea
          id={ids.content}
          className="textarea amendment-content"
          data-testid="amendment-content"
          data-autofocus
          rows={16}
          spellCheck={false}
          value={editable ? content : ''}
          placeholder={lockedText === undefined || lockedText.state === 'loading' ? 'Reading the locked version from the ledger…' : undefined}
          readOnly={!editable}
          disabled={busy}
          aria-invalid={problems.content ? true : undefined}
          aria-describedby={ids.contentHint}
          onChange={(e) => file && setDraft((d) => ({ ...d, contents: { ...d.contents, [file.path]: e.target.value } }))}
        />
        <p id={ids.contentHint} className={contentHint.className}>
          {contentHint.text}
        </p>
        <label className="field-label" htmlFor={ids.reason}>
          Reason
        </label>
        <textarea
          id={ids.reason}
          className="textarea"
          data-testid="amendment-reason-input"
          rows={3}
          maxLength={4000}
          value={draft.reason}
          disabled={busy}
          aria-invalid={problems.reason ? true : undefined}
          aria-describedby={ids.reasonHint}
          onChange={(e) => setDraft((d) => ({ ...d, reason: e.target.value }))}
        />
        <p id={ids.reasonHint} className={reasonHint.className}>
          {reasonHint.text}
        </p>
        {error && (
          <div data-testid="amendment-propose-error" data-code={error.code}>
            <ErrorBanner error={error} title="The amendment was not proposed" />
          </div>
        )}
      </div>
    </Dialog>
  );
}

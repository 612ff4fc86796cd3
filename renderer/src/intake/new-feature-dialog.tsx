/**
 * New feature (intake): a title, a one-paragraph request, optional text attachments and who asks.
 * Main makes the feature folder and records the request; the Spec Author writes the spec from it
 * on the next run. What was typed survives a failed create and a closed dialog (it is kept as a
 * draft until the feature exists).
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AppError } from '../../../shared/result';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { draftProblems, EMPTY_DRAFT, MAX_ATTACHMENTS, type DraftField, type FeatureDraft } from '../lib/feature-draft';
import { featureIdFor } from '../../../shared/feature-id';
import { featureCreated, requestFeature } from '../store/feature-actions';
import { suggestedIdentity } from '../store/identity';
import { useStore } from '../store/store';
import { AttachmentPicker } from './attachment-picker';

const fieldHint = (problem: string | undefined, hint: string) => ({
  className: problem ? 'field-hint tone-text-danger' : 'field-hint muted',
  text: problem ?? hint,
});

function NewFeatureForm() {
  const initial = useStore((s) => s.featureDraft) ?? EMPTY_DRAFT;
  const approver = useStore((s) => s.approver);
  const setFeatureDraft = useStore((s) => s.setFeatureDraft);
  const setOpen = useStore((s) => s.setNewFeatureOpen);
  const [draft, setDraft] = useState<FeatureDraft>(() => ({ ...initial, requester: initial.requester || approver || '' }));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [lookingUp, setLookingUp] = useState(draft.requester === '');
  const idInput = useRef<HTMLInputElement>(null);
  const latest = useRef(draft);
  latest.current = draft;

  useEffect(() => {
    if (!lookingUp) return;
    let live = true;
    void suggestedIdentity().then((identity) => {
      if (!live) return;
      setLookingUp(false);
      // Prefill only what the person has not started typing over.
      setDraft((d) => (d.requester === '' ? { ...d, requester: identity } : d));
    });
    return () => {
      live = false;
    };
  }, [lookingUp]);

  const problems = touched ? draftProblems(draft) : {};
  const edit = (patch: Partial<FeatureDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // Closing keeps what was typed: the dialog opens on it again.
  const close = () => {
    if (busy) return;
    setFeatureDraft(latest.current);
    setOpen(false);
  };

  const submit = async () => {
    setTouched(true);
    const found = draftProblems(draft);
    if (busy) return;
    const first = (['title', 'request', 'requester'] as const).find((field) => found[field]);
    if (first) {
      document.getElementById(`new-feature-${first}`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await requestFeature(draft);
    setBusy(false);
    if (result.ok) {
      featureCreated(result.value.feature);
      return;
    }
    setError(result.error);
  };

  // A taken id is fixed in the id field: it gets the focus once the fields are enabled again.
  useEffect(() => {
    if (error?.code === 'exists') idInput.current?.focus();
  }, [error]);

  // Ctrl/Cmd+Enter sends from any field; Enter alone in a one-line field does not (a paragraph is not finished).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter') return;
    if (event.ctrlKey || event.metaKey) {
      event.preventDefault();
      void submit();
    } else if (event.target instanceof HTMLInputElement && event.target.type !== 'file') event.preventDefault();
  };

  const field = (name: DraftField, hint: string) => fieldHint(problems[name], hint);
  const title = field('title', 'A short name, e.g. "Gift cards at checkout".');
  const request = field('request', 'One paragraph: what the feature is for and who it serves.');
  const requester = field(
    'requester',
    lookingUp ? 'Looking up your git identity…' : 'The ledger records the request as theirs ("Name <email>"), suggested from git.',
  );
  const invalid = (name: DraftField) => (problems[name] ? true : undefined);
  const defaultId = draft.title.trim() ? featureIdFor(draft.title) : null;

  return (
    <Dialog
      title="New feature"
      testId="new-feature-dialog"
      className="dialog-wide"
      onClose={close}
      onSubmit={() => void submit()}
      actions={
        <>
          <span className="muted dialog-shortcut">Ctrl/Cmd+Enter creates it</span>
          <button type="button" className="button" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="new-feature-submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create feature'}
          </button>
        </>
      }
    >
      <div className="new-feature-fields" onKeyDown={onKeyDown}>
        <p className="muted">Baton makes the feature from your request and records it in the ledger; the Spec Author writes its spec on the next run.</p>
        <label className="field">
          <span>Title</span>
          <input
            id="new-feature-title"
            className="input input-text"
            data-testid="new-feature-title"
            data-autofocus
            value={draft.title}
            disabled={busy}
            placeholder="Gift cards at checkout"
            aria-invalid={invalid('title')}
            aria-describedby="new-feature-title-hint"
            onChange={(e) => edit({ title: e.target.value })}
          />
        </label>
        <p id="new-feature-title-hint" className={title.className}>
          {title.text}
        </p>
        <label className="field">
          <span>Request</span>
          <textarea
            id="new-feature-request"
            className="textarea"
            data-testid="new-feature-request"
            rows={6}
            value={draft.request}
            disabled={busy}
            aria-invalid={invalid('request')}
            aria-describedby="new-feature-request-hint"
            onChange={(e) => edit({ request: e.target.value })}
          />
        </label>
        <p id="new-feature-request-hint" className={request.className}>
          {request.text}
        </p>
        <label className="field">
          <span>
            Feature id <span className="muted field-optional">(optional)</span>
          </span>
          <input
            ref={idInput}
            className="input"
            data-testid="new-feature-id"
            value={draft.id}
            disabled={busy}
            placeholder={defaultId ?? 'F-…'}
            aria-describedby="new-feature-id-hint"
            onChange={(e) => edit({ id: e.target.value })}
          />
        </label>
        <p id="new-feature-id-hint" className="field-hint muted">
          {defaultId ? (
            <>
              Leave it empty for <span className="mono">{defaultId}</span>, made from the title.
            </>
          ) : (
            'Leave it empty to make it from the title: F- and its words, lowercase.'
          )}
        </p>
        <AttachmentPicker
          attachments={draft.attachments}
          disabled={busy}
          limit={MAX_ATTACHMENTS}
          onChange={(attachments) => setDraft((d) => ({ ...d, attachments: attachments(d.attachments) }))}
        />
        <label className="field">
          <span>Requested by</span>
          <input
            id="new-feature-requester"
            className="input"
            data-testid="new-feature-requester"
            value={draft.requester}
            disabled={busy}
            placeholder="Ana Silva <ana@example.com>"
            aria-invalid={invalid('requester')}
            aria-describedby="new-feature-requester-hint"
            onChange={(e) => edit({ requester: e.target.value })}
          />
        </label>
        <p id="new-feature-requester-hint" className={requester.className}>
          {requester.text}
        </p>
        {error && (
          <div data-testid="new-feature-error" data-code={error.code}>
            <ErrorBanner error={error} title="The feature was not created" />
          </div>
        )}
      </div>
    </Dialog>
  );
}

/** Rendered once by the workbench; shows while the New feature dialog is open. */
export function NewFeatureDialog() {
  const open = useStore((s) => s.newFeatureOpen);
  return open ? <NewFeatureForm /> : null;
}

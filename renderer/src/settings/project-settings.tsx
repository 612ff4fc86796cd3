/**
 * Settings for everything a Product Owner tunes in `.baton/project.json` (issue 35 part 6): gate
 * policy, repair budget, lanes, test timeout, deploy, the webhook, mutation and smell thresholds.
 * Save opens the changes as a diff, old → new per key, to confirm; main checks them with
 * project.json's one schema first, and a refused value is said next to its field with nothing typed
 * lost. The webhook's URL is a secret: shown masked, replaced or removed, never read back.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { changesOf, settingsDiff, TUNABLE_KEYS, webhookWords, type ProjectSettingsView, type SettingsIssue } from '../../../shared/project-settings';
import type { AppError } from '../../../shared/result';
import { api } from '../../client';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { useStore } from '../store/store';
import { draftOf, GROUPS, rebased, settingsOf, webhookAfter, webhookChange, type ProjectDraft } from './project-draft';
import { FieldGroupSection, Problems } from './project-fields';

export function ProjectSettingsSection() {
  const root = useStore((s) => s.project?.root ?? null);
  // Every push of the project (a change under .baton/ by any process) reads the settings again: never stale.
  const project = useStore((s) => s.project);
  const [view, setView] = useState<ProjectSettingsView | null>(null);
  // The newest read or save wins: an older read answering late is dropped.
  const latest = useRef(0);
  const [error, setError] = useState<AppError | null>(null);
  // Each save starts a fresh form from what main saved.
  const [saves, setSaves] = useState(0);
  useEffect(() => {
    const asked = ++latest.current;
    void api.invoke('settings:project', {}).then((r) => {
      if (asked !== latest.current) return;
      setError(r.ok ? null : r.error);
      if (r.ok) setView(r.value);
    });
  }, [project]);
  return (
    <section className="settings-project" data-testid="settings-project" aria-labelledby="settings-project-title">
      <h1 id="settings-project-title">Project</h1>
      {error && <ErrorBanner error={error} title="The project settings cannot be read" />}
      {view && (
        <ProjectForm
          key={`${root}-${saves}`}
          view={view}
          onSaved={(next) => {
            latest.current++;
            setView(next);
            setSaves((n) => n + 1);
          }}
        />
      )}
      {saves > 0 && (
        <p className="check-ok" role="status" data-testid="project-settings-saved">
          Saved to .baton/project.json
        </p>
      )}
    </section>
  );
}

function ProjectForm({ view, onSaved }: { view: ProjectSettingsView; onSaved: (v: ProjectSettingsView) => void }) {
  const readOnly = view.readOnly !== null;
  const [draft, setDraft] = useState<ProjectDraft>(() => draftOf(view.settings));
  // Settings changed on disk while this form is open: fields not edited here follow them, edited ones are kept.
  const [base, setBase] = useState(view);
  if (base !== view) {
    setBase(view);
    setDraft((d) => rebased(d, base.settings, view.settings));
  }
  const [issues, setIssues] = useState<readonly SettingsIssue[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const edit = (patch: Partial<ProjectDraft>) => setDraft((d) => ({ ...d, ...patch }));

  // The changes the draft makes, or its problems; the diff is what the confirm step shows.
  const parsed = useMemo(() => settingsOf(draft), [draft]);
  const changes = 'settings' in parsed ? { ...changesOf(view.settings, parsed.settings), ...webhookChange(draft) } : null;
  const dirty = changes === null || Object.keys(changes).length > 0;
  const diff = 'settings' in parsed ? settingsDiff(view.settings, parsed.settings, { from: view.webhook, to: webhookAfter(draft, view.webhook) }) : [];

  const review = async () => {
    if (!('settings' in parsed)) return setIssues(parsed.problems);
    if (!changes) return;
    setBusy(true);
    setError(null);
    const checked = await api.invoke('settings:check', { changes });
    setBusy(false);
    if (!checked.ok) return setError(checked.error);
    setIssues(checked.value.issues);
    if (checked.value.issues.length === 0) setConfirming(true);
  };
  const save = async () => {
    if (!changes) return;
    setBusy(true);
    const result = await api.invoke('settings:save', { changes });
    setBusy(false);
    if (!result.ok) return setError(result.error);
    setConfirming(false);
    onSaved(result.value);
  };

  return (
    <>
      <form
        className="settings-project-form"
        data-testid="project-settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (!readOnly && dirty) void review();
        }}
      >
        {view.readOnly ? (
          <p className="muted" data-testid="project-settings-read-only">
            {view.readOnly}
          </p>
        ) : (
          view.file && <p className="muted">Saved to {view.file}, which is committed with the project: no secret belongs in it.</p>
        )}
        {GROUPS.map((group) => (
          <FieldGroupSection
            key={group.key}
            group={group}
            values={draft.values}
            issues={issues}
            readOnly={readOnly}
            onChange={(path, value) => setDraft((d) => ({ ...d, values: { ...d.values, [path]: value } }))}
          />
        ))}
        <WebhookFields view={view} draft={draft} readOnly={readOnly} issues={issues.filter((i) => i.path.startsWith('notify'))} onChange={edit} />
        <Problems id="project-settings" issues={issues.filter((i) => !(TUNABLE_KEYS as readonly string[]).includes(i.path.split('.')[0]!))} />
        {error && !confirming && <ErrorBanner error={error} onDismiss={() => setError(null)} />}
        {!readOnly && (
          <div className="settings-actions">
            <button type="submit" className="button button-primary" data-testid="project-settings-save" disabled={!dirty || busy}>
              {busy ? 'Checking…' : 'Save…'}
            </button>
            <button
              type="button"
              className="button"
              data-testid="project-settings-discard"
              disabled={!dirty || busy}
              onClick={() => setDraft(draftOf(view.settings))}
            >
              Discard changes
            </button>
            {!dirty && (
              <span className="muted" data-testid="project-settings-unchanged">
                No changes to save.
              </span>
            )}
          </div>
        )}
      </form>
      {confirming && (
        <Dialog
          title="Save these changes to project.json?"
          testId="project-settings-confirm"
          onClose={() => setConfirming(false)}
          onSubmit={() => void save()}
          actions={
            <>
              <button type="button" className="button" onClick={() => setConfirming(false)}>
                Keep editing
              </button>
              <button type="submit" className="button button-primary" data-testid="project-settings-confirm-save" disabled={busy}>
                {busy ? 'Saving…' : `Save ${diff.length} change${diff.length === 1 ? '' : 's'}`}
              </button>
            </>
          }
        >
          <table className="settings-diff" data-testid="project-settings-diff">
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Now</th>
                <th scope="col">After saving</th>
              </tr>
            </thead>
            <tbody>
              {diff.map((row) => (
                <tr key={row.key} data-testid={`project-settings-diff-${row.key}`}>
                  <th scope="row">
                    <code>{row.key}</code>
                  </th>
                  <td className="diff-removed">{row.from}</td>
                  <td className="diff-added">{row.to}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {error && <ErrorBanner error={error} onDismiss={() => setError(null)} />}
        </Dialog>
      )}
    </>
  );
}

/** The webhook: what is set (masked), a field to replace it, and a way to remove it. */
function WebhookFields(props: {
  view: ProjectSettingsView;
  draft: ProjectDraft;
  readOnly: boolean;
  issues: readonly SettingsIssue[];
  onChange: (patch: Partial<ProjectDraft>) => void;
}) {
  const { view, draft, readOnly, issues, onChange } = props;
  return (
    <fieldset className="settings-group" data-testid="settings-group-notify">
      <legend>Notifications</legend>
      <p className="muted settings-hint">
        A webhook Baton POSTs one JSON object to when a run stops (ntfy, Slack or Teams). Its URL is a secret: prefer env:NAME, which reads it from the
        environment and keeps it out of git.
      </p>
      <p data-testid="setting-notify-webhook-current">
        Webhook now: <code>{webhookWords(view.webhook)}</code>
      </p>
      <div className="settings-grid">
        <label htmlFor="setting-notify-webhook">{view.webhook.kind === 'none' ? 'Webhook' : 'Replace with'}</label>
        <input
          id="setting-notify-webhook"
          data-testid="setting-notify-webhook"
          type="password"
          autoComplete="off"
          placeholder="https://ntfy.sh/your-topic or env:NTFY_URL"
          value={draft.webhook}
          disabled={readOnly}
          onChange={(e) => onChange({ webhook: e.target.value })}
        />
        {view.webhook.kind !== 'none' && !readOnly && (
          <label className="settings-check">
            <input
              type="checkbox"
              data-testid="setting-notify-webhook-clear"
              checked={draft.clearWebhook}
              onChange={(e) => onChange({ clearWebhook: e.target.checked })}
            />{' '}
            Remove the webhook
          </label>
        )}
      </div>
      <Problems id="setting-notify-webhook" issues={issues} />
    </fieldset>
  );
}

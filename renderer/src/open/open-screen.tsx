/** Open a project: type a path, choose a folder (Electron only), or pick a recent one. */
import { useState, type FormEvent } from 'react';
import type { AppError } from '../../../shared/result';
import { ErrorBanner } from '../components/error-banner';
import { openProject, pickFolder } from '../store/actions';
import { useStore } from '../store/store';
import { RecentList } from './recent-list';

export function OpenScreen() {
  const host = useStore((s) => s.appInfo?.host ?? null);
  const current = useStore((s) => s.project?.name ?? null);
  const setShowOpen = useStore((s) => s.setShowOpen);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError | null>(null);
  const [pickUnsupported, setPickUnsupported] = useState(false);

  const open = async (target: string) => {
    const trimmed = target.trim();
    if (!trimmed) {
      setError({ code: 'invalid-request', message: 'Type the path of a project folder, then press Open.' });
      return;
    }
    setBusy(true);
    setError(null);
    const result = await openProject(trimmed);
    setBusy(false);
    if (!result.ok) setError(result.error);
  };

  const choose = async () => {
    const result = await pickFolder();
    if (!result.ok) {
      if (result.error.code === 'unsupported') setPickUnsupported(true);
      else setError(result.error);
      return;
    }
    if (result.value.path) {
      setPath(result.value.path);
      await open(result.value.path);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void open(path);
  };

  const canPick = host === 'electron' && !pickUnsupported;

  return (
    <main className="open-screen">
      <section className="open-panel" aria-labelledby="open-title">
        <p className="brand">Baton</p>
        <h1 id="open-title">Open a project</h1>
        <p className="muted">
          A folder with a <code>.baton/</code>, <code>.consort/</code> or <code>.sftdd/</code> folder inside.
        </p>
        <form className="open-form" onSubmit={onSubmit}>
          <label htmlFor="open-path">Project folder</label>
          <div className="open-row">
            <input
              id="open-path"
              className="input"
              data-testid="open-path"
              type="text"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/home/you/projects/shop"
              spellCheck={false}
              autoComplete="off"
              autoFocus
            />
            <button type="submit" className="button button-primary" data-testid="open-submit" disabled={busy}>
              {busy ? 'Opening…' : 'Open'}
            </button>
            {canPick && (
              <button type="button" className="button" onClick={() => void choose()} disabled={busy}>
                Choose folder…
              </button>
            )}
          </div>
        </form>
        {error && <ErrorBanner error={error} title="Could not open that folder" onDismiss={() => setError(null)} />}
        {current && (
          <button type="button" className="button button-quiet back-link" onClick={() => setShowOpen(false)}>
            ← Back to {current}
          </button>
        )}
        <RecentList onOpen={(p) => void open(p)} disabled={busy} />
      </section>
    </main>
  );
}

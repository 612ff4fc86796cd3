/** Recently opened projects, newest first; each opens on click or Enter. */
import { useEffect, useState } from 'react';
import type { RecentProject } from '../../../shared/model';
import { friendlyTime } from '../lib/format';
import { loadRecent } from '../store/actions';

type State = { kind: 'loading' } | { kind: 'ready'; items: readonly RecentProject[] } | { kind: 'failed'; message: string };

export function RecentList({ onOpen, disabled }: { onOpen: (path: string) => void; disabled: boolean }) {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    let live = true;
    void loadRecent().then((result) => {
      if (!live) return;
      setState(result.ok ? { kind: 'ready', items: result.value } : { kind: 'failed', message: result.error.message });
    });
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="recent" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent projects</h2>
      {state.kind === 'loading' && <p className="muted">Loading…</p>}
      {state.kind === 'failed' && <p className="muted">Could not list recent projects: {state.message}</p>}
      {state.kind === 'ready' && state.items.length === 0 && <p className="muted">None yet — projects you open appear here.</p>}
      {state.kind === 'ready' && state.items.length > 0 && (
        <ul className="recent-list" role="list" data-testid="recent-list">
          {state.items.map((recent) => (
            <li key={recent.path}>
              <button type="button" className="recent-item" onClick={() => onOpen(recent.path)} disabled={disabled}>
                <span className="recent-name">{recent.name}</span>
                <span className="recent-path">{recent.path}</span>
                <span className="recent-when" title={recent.openedAt}>
                  {friendlyTime(recent.openedAt)?.relative ?? recent.openedAt}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

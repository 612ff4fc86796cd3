/** The top bar: which project, how it is stored, and the project-level actions. */
import { ProviderState } from '../branches/provider-state';
import { Icon } from '../components/icon';
import { NewFeatureButton } from '../intake/new-feature-button';
import { layoutLabel } from '../lib/format';
import { hostModKey } from '../lib/shortcuts';
import { RunControls } from '../run/run-controls';
import { reloadProject } from '../store/actions';
import { useStore } from '../store/store';

export function TopBar() {
  const name = useStore((s) => s.project?.name ?? '');
  const root = useStore((s) => s.project?.root ?? '');
  const layout = useStore((s) => s.project?.layout ?? 'baton');
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const bundle = useStore((s) => s.project?.bundle ?? null);
  const reloading = useStore((s) => s.reloading);
  const setShowOpen = useStore((s) => s.setShowOpen);
  const setPaletteOpen = useStore((s) => s.setPaletteOpen);
  const mod = hostModKey();

  return (
    <header className="top-bar">
      <h1 className="top-title" title={root} data-testid="project-name">
        {name}
      </h1>
      <span className="tag" data-testid="layout-badge">
        {layoutLabel(layout)}
      </span>
      {bundle && (
        <span
          className="tag tag-readonly"
          data-testid="bundle-marker"
          title={`Opened from ${bundle}. A bundle is evidence to review: nothing in it can be decided or changed.`}
        >
          <Icon name="lock" />
          Review bundle · read-only
        </span>
      )}
      {readOnly && !bundle && (
        <span className="tag tag-readonly" data-testid="read-only" title="Baton reads this project's artifacts and never writes them.">
          <Icon name="lock" />
          read-only
        </span>
      )}
      <span className="spacer" />
      <button
        type="button"
        className="button button-quiet"
        data-testid="palette-open"
        aria-keyshortcuts="Control+K Meta+K"
        title={`Go to any screen, feature, item or decision, or run an action (${mod}+K); ? lists every shortcut`}
        onClick={() => setPaletteOpen(true)}
      >
        Commands <kbd>{mod}+K</kbd>
      </button>
      <NewFeatureButton testId="new-feature" />
      <RunControls />
      <ProviderState />
      <button type="button" className="button" data-testid="reload" onClick={() => void reloadProject()} disabled={reloading}>
        {reloading ? 'Reloading…' : 'Reload'}
      </button>
      <button type="button" className="button" data-testid="open-another" onClick={() => setShowOpen(true)}>
        Open another…
      </button>
    </header>
  );
}

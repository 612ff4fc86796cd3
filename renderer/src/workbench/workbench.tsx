/** The workbench: left rail, top bar, and the current screen. */
import type { ComponentType } from 'react';
import { ErrorBanner } from '../components/error-banner';
import { BoardView } from '../board/board-view';
import { BranchesView } from '../branches/branches-view';
import { IdentityDialog } from '../components/identity-dialog';
import { DiffView } from '../diff/diff-view';
import { EvidenceView } from '../evidence/evidence-view';
import { InboxView } from '../inbox/inbox-view';
import { MetricsView } from '../metrics/metrics-view';
import { GatesView } from '../gates/gates-view';
import { NewFeatureDialog } from '../intake/new-feature-dialog';
import { ProblemsView } from '../problems/problems-view';
import { RunPanel } from '../run/run-panel';
import { SettingsView } from '../settings/settings-view';
import { SpecsView } from '../specs/specs-view';
import { useStore } from '../store/store';
import type { Screen } from '../store/ui-slice';
import { CommandPaletteHost } from './command-palette-host';
import { LeftRail } from './left-rail';
import { NoticeBanner } from './notice-banner';
import { ShortcutsOverlay } from './shortcuts-overlay';
import { TopBar } from './top-bar';
import { useGlobalShortcuts } from './use-global-shortcuts';
import { useAppBadge } from './use-app-badge';
import { useWindowTitle } from './window-title';
import { useNotifications } from '../notify/use-notifications';

const VIEWS: Record<Screen, ComponentType> = {
  board: BoardView,
  specs: SpecsView,
  inbox: InboxView,
  gates: GatesView,
  branches: BranchesView,
  evidence: EvidenceView,
  metrics: MetricsView,
  problems: ProblemsView,
  settings: SettingsView,
  diff: DiffView,
};

/** Views that lay themselves out to the window's height (panes with their own scrolling). */
const FULL_HEIGHT: ReadonlySet<Screen> = new Set(['inbox', 'evidence', 'branches']);

export function Workbench() {
  const screen = useStore((s) => s.screen);
  const actionError = useStore((s) => s.actionError);
  const setActionError = useStore((s) => s.setActionError);
  const View = VIEWS[screen];
  useWindowTitle();
  useAppBadge();
  useGlobalShortcuts();
  useNotifications();

  return (
    <div className="workbench">
      <LeftRail />
      <div className="workbench-main">
        <TopBar />
        {actionError && (
          <div className="banner-slot">
            <ErrorBanner error={actionError} title="Reload failed" onDismiss={() => setActionError(null)} />
          </div>
        )}
        <NoticeBanner />
        <main className={FULL_HEIGHT.has(screen) ? 'view view-full' : 'view'} id="view" aria-label={screen}>
          <View />
        </main>
        <RunPanel />
      </div>
      <IdentityDialog />
      <NewFeatureDialog />
      <CommandPaletteHost />
      <ShortcutsOverlay />
    </div>
  );
}

/** What a command palette command does: the same store actions the rail, the top bar and the Board use. */
import type { CommandAction } from '../lib/commands';
import { reloadProject } from './actions';
import { hrefFor } from './hash-route';
import { startRun, stopRun } from './run-actions';
import { useStore } from './store';
import type { Screen } from './ui-slice';

/** Goes to a screen through the URL hash, as a rail link does (so Back returns), and at once. */
function go(screen: Exclude<Screen, 'diff'>): void {
  window.location.hash = hrefFor(screen);
  useStore.getState().setScreen(screen);
}

export function runCommand(action: CommandAction): void {
  const state = useStore.getState();
  switch (action.kind) {
    case 'screen':
      go(action.screen);
      return;
    case 'feature':
      // The feature the Board shows and Run builds: the Board's feature filter.
      state.setFilters({ feature: action.feature });
      go('board');
      return;
    case 'item':
      go('board');
      state.select(action.ref);
      state.setDrawerTab(action.tab);
      return;
    case 'inbox':
      state.selectInbox(action.ref);
      go('inbox');
      return;
    case 'new-feature':
      state.setNewFeatureOpen(true);
      return;
    case 'run':
      void startRun();
      return;
    case 'stop':
      void stopRun();
      return;
    case 'toggle-run-panel':
      state.setRunPanelOpen(!state.runPanelOpen);
      return;
    case 'shortcuts':
      state.setShortcutsOpen(true);
      return;
    case 'reload':
      void reloadProject();
      return;
  }
}

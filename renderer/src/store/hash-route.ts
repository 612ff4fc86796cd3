/**
 * Keeps the screen in the URL hash (#/board, #/specs, …) so a reload or the back button returns
 * to the same view. The query string carries the browser host's token and is left alone.
 */
import { SCREENS, type Screen } from './ui-slice';
import { useStore } from './store';

const screenFromHash = (hash: string): Screen | null => {
  const name = hash.replace(/^#\/?/, '');
  return (SCREENS as readonly string[]).includes(name) ? (name as Screen) : null;
};

export const hrefFor = (screen: Screen): string => `#/${screen}`;

export function bindHashRoute(): () => void {
  const sync = () => {
    const screen = screenFromHash(window.location.hash);
    if (screen) useStore.getState().setScreen(screen);
  };
  sync();
  window.addEventListener('hashchange', sync);
  return () => window.removeEventListener('hashchange', sync);
}

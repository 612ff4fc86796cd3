/**
 * Keeps the screen in the URL hash (#/board, #/specs, #/diff/F-1/spec, …) so a reload or the
 * back button returns to the same view. The query string carries the browser host's token and
 * is left alone.
 */
import { isGateName, type GateRef } from '../lib/gate-ref';
import { SCREENS, type Screen } from './ui-slice';
import { useStore } from './store';

interface Route {
  readonly screen: Screen;
  readonly diff: GateRef | null;
  /** `#/evidence/<seq>`: the ledger record to open. */
  readonly record: number | null;
}

function routeFromHash(hash: string): Route | null {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  const [name, feature, gate, story] = parts;
  if (name === 'diff') {
    if (!feature || !gate || !isGateName(gate)) return null;
    return { screen: 'diff', diff: { feature, gate, story: story || null }, record: null };
  }
  if (name === 'evidence' && feature && /^[1-9]\d{0,9}$/.test(feature)) return { screen: 'evidence', diff: null, record: Number(feature) };
  return (SCREENS as readonly string[]).includes(name ?? '') && name !== 'diff' ? { screen: name as Screen, diff: null, record: null } : null;
}

export const hrefFor = (screen: Exclude<Screen, 'diff'>): string => `#/${screen}`;

/** The Evidence timeline with one record open. */
export const hrefForRecord = (seq: number): string => `#/evidence/${seq}`;

/**
 * Says in the URL what the screen shows now (a record opened from the list) without a hashchange:
 * a reload, or a copied link, opens the same. Back still goes to the screen before.
 */
export function replaceHash(href: string): void {
  if (window.location.hash !== href) window.history.replaceState(window.history.state, '', href);
}

export const hrefForDiff = (ref: GateRef): string => `#/diff/${[ref.feature, ref.gate, ...(ref.story ? [ref.story] : [])].map(encodeURIComponent).join('/')}`;

export function bindHashRoute(): () => void {
  const sync = () => {
    const route = routeFromHash(window.location.hash);
    if (!route) return;
    const state = useStore.getState();
    if (route.diff) state.setDiffTarget(route.diff);
    if (route.screen === 'evidence') state.setEvidenceRecord(route.record);
    state.setScreen(route.screen);
  };
  sync();
  window.addEventListener('hashchange', sync);
  return () => window.removeEventListener('hashchange', sync);
}

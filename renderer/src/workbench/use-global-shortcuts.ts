/**
 * The workbench-wide keys: Ctrl/Cmd+K opens (or closes) the command palette from anywhere, even a
 * text field; `?` shows the shortcuts, except where it would be typed. (Ctrl/Cmd+J lives with the
 * live run toggle, in run/run-controls.tsx.)
 */
import { useEffect } from 'react';
import { isTextTarget } from '../lib/shortcuts';
import { useStore } from '../store/store';

export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const state = useStore.getState();
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        state.setShortcutsOpen(false);
        state.setPaletteOpen(!state.paletteOpen);
        return;
      }
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
      if (isTextTarget(event.target instanceof HTMLElement ? event.target : null) || state.paletteOpen) return;
      event.preventDefault();
      state.setShortcutsOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

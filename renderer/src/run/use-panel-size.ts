/** The live run panel's size for this tab (panel-size.ts), clamped to the window as it is resized. */
import { useCallback, useEffect, useState } from 'react';
import { sessionStore } from '../lib/session-storage';
import { panelBounds, panelHeight, readPanelSize, writePanelSize, type PanelBounds, type PanelSize } from './panel-size';

export interface PanelSizeState {
  /** The height shown, within `bounds`. */
  readonly height: number;
  readonly bounds: PanelBounds;
  readonly collapsed: boolean;
  setHeight(height: number): void;
  setCollapsed(collapsed: boolean): void;
}

export function usePanelSize(): PanelSizeState {
  const [size, setSize] = useState<PanelSize>(() => readPanelSize(sessionStore()));
  const [windowHeight, setWindowHeight] = useState(() => window.innerHeight);

  useEffect(() => {
    const onResize = () => setWindowHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  useEffect(() => writePanelSize(sessionStore(), size), [size]);

  const bounds = panelBounds(windowHeight);
  const setHeight = useCallback((height: number) => setSize((s) => ({ ...s, height: Math.round(height) })), []);
  const setCollapsed = useCallback((collapsed: boolean) => setSize((s) => ({ ...s, collapsed })), []);
  return { height: panelHeight(size, windowHeight), bounds, collapsed: size.collapsed, setHeight, setCollapsed };
}

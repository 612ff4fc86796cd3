/**
 * The live run panel's size: how tall it is (dragged or set from the keyboard) and whether it is
 * collapsed to its header, kept for the tab. The height kept is what the person chose; the height
 * shown is always clamped to the window, so a smaller window never hides the screen above it.
 */
import { readJson, writeJson } from '../lib/session-storage';

export interface PanelSize {
  /** The chosen height in CSS pixels, or null for the default (a share of the window). */
  readonly height: number | null;
  readonly collapsed: boolean;
}

export interface PanelBounds {
  readonly min: number;
  readonly max: number;
}

export const DEFAULT_PANEL: PanelSize = { height: null, collapsed: false };
/** The header and a few lines of each log: less is what collapsing is for. */
export const MIN_HEIGHT = 160;
/** Kept above the panel: the top bar and a strip of the screen, so both stay reachable. */
export const ROOM_ABOVE = 180;
/** The default: a little over a third of the window, never more than this. */
const DEFAULT_SHARE = 0.42;
const DEFAULT_MAX = 520;
/** One arrow key press; PageUp and PageDown move four. */
export const STEP = 24;

const STORAGE_KEY = 'baton.run-panel.v1';

export const panelBounds = (windowHeight: number): PanelBounds => ({
  min: MIN_HEIGHT,
  max: Math.max(MIN_HEIGHT, Math.round(windowHeight - ROOM_ABOVE)),
});

export const clampHeight = (height: number, bounds: PanelBounds): number => Math.round(Math.min(bounds.max, Math.max(bounds.min, height)));

/** The height shown in a window this tall: the chosen one, or the default, within the bounds. */
export const panelHeight = (size: PanelSize, windowHeight: number): number =>
  clampHeight(size.height ?? Math.min(DEFAULT_MAX, windowHeight * DEFAULT_SHARE), panelBounds(windowHeight));

/** The height a key on the separator asks for (ArrowUp grows the panel), or null for a key it does not use. */
export function keyedHeight(key: string, height: number, bounds: PanelBounds): number | null {
  const moves: Readonly<Record<string, number>> = {
    ArrowUp: height + STEP,
    ArrowDown: height - STEP,
    PageUp: height + STEP * 4,
    PageDown: height - STEP * 4,
    Home: bounds.min,
    End: bounds.max,
  };
  return key in moves ? clampHeight(moves[key]!, bounds) : null;
}

/** The size kept for this tab; anything missing or damaged reads as the default. */
export function readPanelSize(store: Storage | null): PanelSize {
  const value = readJson(store, STORAGE_KEY);
  if (typeof value !== 'object' || value === null) return DEFAULT_PANEL;
  const { height, collapsed } = value as Record<string, unknown>;
  return {
    height: typeof height === 'number' && Number.isFinite(height) && height > 0 ? Math.round(height) : null,
    collapsed: collapsed === true,
  };
}

export const writePanelSize = (store: Storage | null, size: PanelSize): void => writeJson(store, STORAGE_KEY, size);

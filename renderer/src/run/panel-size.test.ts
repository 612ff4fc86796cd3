import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../lib/memory-storage.fixture';
import { DEFAULT_PANEL, keyedHeight, MIN_HEIGHT, panelBounds, panelHeight, readPanelSize, ROOM_ABOVE, STEP, writePanelSize } from './panel-size';

describe('the live run panel size', () => {
  it('defaults to a little over a third of the window, not half of it', () => {
    expect(panelHeight(DEFAULT_PANEL, 900)).toBe(378);
    expect(panelHeight(DEFAULT_PANEL, 1600)).toBe(520);
    // A short window: the screen above keeps its room, the panel its minimum.
    expect(panelHeight(DEFAULT_PANEL, 300)).toBe(MIN_HEIGHT);
  });

  it('clamps a chosen height to the window, keeping the room above', () => {
    expect(panelBounds(900)).toEqual({ min: MIN_HEIGHT, max: 900 - ROOM_ABOVE });
    expect(panelHeight({ height: 500, collapsed: false }, 900)).toBe(500);
    expect(panelHeight({ height: 5000, collapsed: false }, 900)).toBe(900 - ROOM_ABOVE);
    expect(panelHeight({ height: 10, collapsed: false }, 900)).toBe(MIN_HEIGHT);
    // The same choice in a smaller window is cut to fit, and comes back when the window grows.
    expect(panelHeight({ height: 600, collapsed: false }, 700)).toBe(700 - ROOM_ABOVE);
    expect(panelHeight({ height: 600, collapsed: false }, 1000)).toBe(600);
  });

  it('moves by a step on the arrows, four on the page keys, to the ends on Home and End, and ignores other keys', () => {
    const bounds = panelBounds(900);
    expect(keyedHeight('ArrowUp', 300, bounds)).toBe(300 + STEP);
    expect(keyedHeight('ArrowDown', 300, bounds)).toBe(300 - STEP);
    expect(keyedHeight('PageUp', 300, bounds)).toBe(300 + 4 * STEP);
    expect(keyedHeight('PageDown', 300, bounds)).toBe(300 - 4 * STEP);
    expect(keyedHeight('Home', 300, bounds)).toBe(bounds.min);
    expect(keyedHeight('End', 300, bounds)).toBe(bounds.max);
    expect(keyedHeight('ArrowDown', bounds.min, bounds)).toBe(bounds.min);
    expect(keyedHeight('ArrowUp', bounds.max, bounds)).toBe(bounds.max);
    expect(keyedHeight('Enter', 300, bounds)).toBeNull();
  });

  it('keeps the size for the tab, and reads missing or damaged storage as the default', () => {
    const store = memoryStorage();
    expect(readPanelSize(store)).toEqual(DEFAULT_PANEL);
    writePanelSize(store, { height: 432, collapsed: true });
    expect(readPanelSize(store)).toEqual({ height: 432, collapsed: true });
    store.setItem('baton.run-panel.v1', '{not json');
    expect(readPanelSize(store)).toEqual(DEFAULT_PANEL);
    store.setItem('baton.run-panel.v1', JSON.stringify({ height: 'tall', collapsed: 'yes' }));
    expect(readPanelSize(store)).toEqual(DEFAULT_PANEL);
    expect(readPanelSize(null)).toEqual(DEFAULT_PANEL);
    expect(() => writePanelSize(memoryStorage(true), { height: 300, collapsed: false })).not.toThrow();
  });
});

/**
 * Windowing for a board column: only the cards in view (plus a few) are rendered. Card heights
 * are measured as they render (a card not yet rendered counts as the average of those measured),
 * and measured again when a card or the column changes size, so cards stack in flow and never
 * overlap; the space of the others is padding on the list inside the scroller, so the scrollbar tells the truth.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { layoutOf, revealScrollTop, spacersOf, windowOf, type CardLayout, type CardWindow } from './card-window';

/** The list's gap and padding: board.css's .column-cards says the same. */
export const CARD_GAP = 6;
export const LIST_PAD = 8;
const GUESS_HEIGHT = 96;
const OVERSCAN = 4;

export interface ColumnWindow {
  /** The scrolling element, around the list. */
  readonly scrollRef: RefObject<HTMLDivElement | null>;
  /** The list: its items carry data-key and data-index (and data-pinned when outside the window). */
  readonly listRef: RefObject<HTMLUListElement | null>;
  readonly layout: CardLayout;
  readonly window: CardWindow;
  readonly before: number;
  readonly after: number;
  readonly viewHeight: number;
  /** Scrolls the least needed to show card `index` whole, now and once it is measured. */
  reveal(index: number): void;
}

interface View {
  readonly top: number;
  readonly height: number;
  readonly width: number;
}

const sameWindow = (a: CardWindow, b: CardWindow) => a.start === b.start && a.end === b.end;
/** The window for a scroller at `top` (the list's padding is above the first card). */
const windowAt = (layout: CardLayout, top: number, height: number) => windowOf(layout, top - LIST_PAD, height, OVERSCAN);

export function useCardWindow(keys: readonly string[]): ColumnWindow {
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  // Before the first layout the column is at most the window's height.
  const [view, setView] = useState<View>(() => ({ top: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight, width: 0 }));
  const width = useRef(0);

  const layout = useMemo(() => {
    const known = heights.current;
    let sum = 0;
    for (const h of known.values()) sum += h;
    const guess = known.size > 0 ? sum / known.size : GUESS_HEIGHT;
    return layoutOf(
      keys.map((key) => known.get(key) ?? guess),
      CARD_GAP,
    );
    // `measured` changes whenever a height in the map does.
  }, [keys, measured]);
  const layoutRef = useRef(layout);
  useLayoutEffect(() => {
    layoutRef.current = layout;
  }, [layout]);

  const { start, end } = windowAt(layout, view.top, view.height);
  const stableWindow = useMemo(() => ({ start, end }), [start, end]);
  const { before, after } = spacersOf(layout, stableWindow);

  /** Reads the heights of the rendered cards (items carry data-key); true when one changed. */
  const measure = useCallback((): boolean => {
    const list = listRef.current;
    if (!list) return false;
    let changed = false;
    for (const item of Array.from(list.children) as HTMLElement[]) {
      const key = item.dataset['key'];
      if (!key) continue;
      const height = item.offsetHeight;
      if (height > 0 && heights.current.get(key) !== height) {
        heights.current.set(key, height);
        changed = true;
      }
    }
    return changed;
  }, []);

  /**
   * Takes the scroller's position and size. `exact` keeps the position even when the window stays
   * the same; otherwise scrolling renders only when another card comes into the window.
   */
  const sync = useCallback((exact: boolean) => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const next = { top: scroller.scrollTop, height: scroller.clientHeight, width: scroller.clientWidth };
    if (width.current !== 0 && width.current !== next.width) {
      // Cards wrap differently at another width: the heights measured at the old one no longer hold.
      heights.current.clear();
      setMeasured((n) => n + 1);
    }
    width.current = next.width;
    setView((old) => {
      if (old.height !== next.height || old.width !== next.width) return next;
      if (old.top === next.top) return old;
      const same = sameWindow(windowAt(layoutRef.current, old.top, old.height), windowAt(layoutRef.current, next.top, next.height));
      return same && !exact ? old : next;
    });
  }, []);

  // Scroll position and size of the scroller, which an empty column does not have.
  const hasCards = keys.length > 0;
  useLayoutEffect(() => {
    const scroller = scrollRef.current;
    if (!scroller) return;
    const onScroll = () => sync(false);
    const onResize = () => sync(true);
    onResize();
    scroller.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(onResize);
    observer.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [hasCards, sync]);

  const scrollToIndex = useCallback(
    (index: number) => {
      const scroller = scrollRef.current;
      if (!scroller || index < 0 || index >= layout.tops.length - 1) return;
      const next = revealScrollTop(layout, index, scroller.scrollTop - LIST_PAD, scroller.clientHeight);
      if (next !== scroller.scrollTop - LIST_PAD) scroller.scrollTop = index === 0 ? 0 : next + LIST_PAD;
    },
    [layout],
  );

  // A card to reveal: scrolled to by its estimated place first, then, once it renders in flow (measured),
  // by its real one.
  const revealing = useRef<number | null>(null);
  const reveal = useCallback(
    (index: number) => {
      revealing.current = index;
      scrollToIndex(index);
    },
    [scrollToIndex],
  );

  // After every render: measure what rendered, before it is painted; watch those cards for size changes
  // (a run badge appears, the column narrows) to measure again.
  useLayoutEffect(() => {
    if (measure()) {
      setMeasured((n) => n + 1);
      sync(true);
    }
    const list = listRef.current;
    if (!list) return;
    const index = revealing.current;
    if (index !== null && index >= keys.length) revealing.current = null;
    else if (index !== null) {
      const item = list.querySelector<HTMLElement>(`:scope > [data-index="${index}"]`);
      if (item && item.dataset['pinned'] === undefined) {
        item.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        revealing.current = null;
      } else scrollToIndex(index);
    }
    const observer = new ResizeObserver(() => {
      if (measure()) {
        setMeasured((n) => n + 1);
        sync(true);
      }
    });
    for (const item of Array.from(list.children)) observer.observe(item);
    return () => observer.disconnect();
  });

  return { scrollRef, listRef, layout, window: stableWindow, before, after, viewHeight: view.height, reveal };
}

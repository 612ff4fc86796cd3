/**
 * Windowing for long fixed-height lists: only the rows in view (plus a margin) are in the DOM,
 * so the ledger timeline stays smooth at 10,000 records.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface VirtualRows<T extends HTMLElement> {
  readonly ref: RefObject<T | null>;
  readonly start: number;
  readonly end: number;
  readonly totalHeight: number;
  /** The height of the list's viewport, as last measured. */
  readonly height: number;
  /**
   * Brings row `index` fully into view: `nearest` scrolls the least needed (a keyboard move),
   * `center` puts it in the middle (a record opened from elsewhere, with rows around it to read).
   */
  scrollToIndex(index: number, align?: 'nearest' | 'center'): void;
}

export function useVirtualRows<T extends HTMLElement>(count: number, rowHeight: number, overscan = 10): VirtualRows<T> {
  const ref = useRef<T>(null);
  const [viewport, setViewport] = useState({ top: 0, height: 600 });

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => setViewport({ top: element.scrollTop, height: element.clientHeight });
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);

  const scrollToIndex = useCallback(
    (index: number, align: 'nearest' | 'center' = 'nearest') => {
      const element = ref.current;
      if (!element) return;
      const top = index * rowHeight;
      if (align === 'center') element.scrollTop = Math.max(0, top - Math.max(0, element.clientHeight - rowHeight) / 2);
      else if (top < element.scrollTop) element.scrollTop = top;
      else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
    },
    [rowHeight],
  );

  const start = Math.max(0, Math.floor(viewport.top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((viewport.top + viewport.height) / rowHeight) + overscan);
  return { ref, start, end, totalHeight: count * rowHeight, height: viewport.height, scrollToIndex };
}

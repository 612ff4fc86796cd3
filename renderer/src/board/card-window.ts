/**
 * Windowing math for a board column (pure): cards of measured, varying heights stacked with a gap;
 * which of them a scroll position shows, the space the others take, where to scroll to reveal one,
 * and where a key moves to. Offsets are in the list's content box (its padding excluded).
 */

export interface CardLayout {
  /** tops[i] is where card i starts; tops[count] is the height of all cards plus one trailing gap. */
  readonly tops: Float64Array;
  readonly gap: number;
}

export interface CardWindow {
  /** The first card rendered. */
  readonly start: number;
  /** One past the last card rendered. */
  readonly end: number;
}

export const countOf = (layout: CardLayout): number => layout.tops.length - 1;

/** Stacks `heights` with `gap` between neighbours. */
export function layoutOf(heights: ArrayLike<number>, gap: number): CardLayout {
  const tops = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) tops[i + 1] = tops[i]! + heights[i]! + gap;
  return { tops, gap };
}

/** The height of all cards and the gaps between them. */
export const totalHeight = (layout: CardLayout): number => (countOf(layout) === 0 ? 0 : layout.tops[countOf(layout)]! - layout.gap);

export const heightOf = (layout: CardLayout, index: number): number => layout.tops[index + 1]! - layout.tops[index]! - layout.gap;

/** The first index whose card ends below `y` (binary search); `count` when none does. */
function firstEndingBelow(layout: CardLayout, y: number): number {
  let low = 0;
  let high = countOf(layout);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (layout.tops[mid]! + heightOf(layout, mid) > y) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The first index whose card starts at or below `y` (binary search); `count` when none does. */
function firstStartingAtOrBelow(layout: CardLayout, y: number): number {
  let low = 0;
  let high = countOf(layout);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (layout.tops[mid]! >= y) high = mid;
    else low = mid + 1;
  }
  return low;
}

/**
 * The cards a view from `top` of `height` pixels touches, plus `overscan` on each side. Never empty
 * while there are cards: a view scrolled past the end still gets the last ones.
 */
export function windowOf(layout: CardLayout, top: number, height: number, overscan: number): CardWindow {
  const count = countOf(layout);
  if (count === 0) return { start: 0, end: 0 };
  const first = Math.min(firstEndingBelow(layout, Math.max(0, top)), count - 1);
  const last = Math.max(first + 1, firstStartingAtOrBelow(layout, top + Math.max(0, height)));
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}

/** The empty space above and below the rendered window, so the scroll height stays that of all cards. */
export function spacersOf(layout: CardLayout, { start, end }: CardWindow): { before: number; after: number } {
  const count = countOf(layout);
  if (end <= start) return { before: 0, after: totalHeight(layout) };
  return { before: layout.tops[start]!, after: layout.tops[count]! - layout.tops[end]! };
}

/** The scroll position that shows card `index` whole (its top when it is taller than the view), moving as little as needed. */
export function revealScrollTop(layout: CardLayout, index: number, scrollTop: number, viewHeight: number): number {
  const top = layout.tops[index]!;
  const bottom = top + heightOf(layout, index);
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewHeight) return Math.max(0, Math.min(top, bottom - viewHeight));
  return scrollTop;
}

/** How many whole cards of `layout`'s average height fit in `viewHeight` (at least 1). */
export function pageSizeOf(layout: CardLayout, viewHeight: number): number {
  const count = countOf(layout);
  if (count === 0) return 1;
  return Math.max(1, Math.floor(viewHeight / (layout.tops[count]! / count)));
}

/** Where a key moves the focus within a column of `count` cards, or null when the key is not a move. */
export function moveIndex(key: string, index: number, count: number, pageSize: number): number | null {
  const targets: Record<string, number> = {
    ArrowDown: index + 1,
    ArrowUp: index - 1,
    PageDown: index + pageSize,
    PageUp: index - pageSize,
    Home: 0,
    End: count - 1,
  };
  const target = targets[key];
  if (target === undefined || count === 0) return null;
  return Math.max(0, Math.min(count - 1, target));
}

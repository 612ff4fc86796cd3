import { describe, expect, it } from 'vitest';
import { heightOf, layoutOf, moveIndex, pageSizeOf, revealScrollTop, spacersOf, totalHeight, windowOf } from './card-window';

// Ten cards of 100 px with a 10 px gap: card i spans [110 i, 110 i + 100].
const even = layoutOf(
  Array.from({ length: 10 }, () => 100),
  10,
);

describe('layoutOf', () => {
  it('stacks cards of different heights with the gap between them, not after the last', () => {
    const layout = layoutOf([50, 80, 20], 6);
    expect(Array.from(layout.tops)).toEqual([0, 56, 142, 168]);
    expect(totalHeight(layout)).toBe(162);
    expect(heightOf(layout, 1)).toBe(80);
    expect(totalHeight(layoutOf([], 6))).toBe(0);
  });
});

describe('windowOf', () => {
  it('takes the cards the view touches, partly or whole, plus the overscan on each side', () => {
    expect(windowOf(even, 0, 250, 0)).toEqual({ start: 0, end: 3 });
    // 105..325 touches card 0's gap (not the card), cards 1 and 2 whole and card 2's end.
    expect(windowOf(even, 105, 220, 0)).toEqual({ start: 1, end: 3 });
    expect(windowOf(even, 105, 221, 0)).toEqual({ start: 1, end: 3 });
    expect(windowOf(even, 105, 226, 0)).toEqual({ start: 1, end: 4 });
    expect(windowOf(even, 330, 220, 2)).toEqual({ start: 1, end: 7 });
  });

  it('clamps the overscan to the list, and keeps the last cards for a view past the end', () => {
    expect(windowOf(even, 0, 100, 5)).toEqual({ start: 0, end: 6 });
    expect(windowOf(even, 900, 500, 3)).toEqual({ start: 5, end: 10 });
    expect(windowOf(even, 5000, 500, 0)).toEqual({ start: 9, end: 10 });
    expect(windowOf(even, -40, 0, 0)).toEqual({ start: 0, end: 1 });
    expect(windowOf(layoutOf([], 10), 0, 500, 3)).toEqual({ start: 0, end: 0 });
  });

  it('finds the window of 2,000 cards of mixed heights without rendering the rest', () => {
    const heights = Array.from({ length: 2000 }, (_, i) => (i % 3 === 0 ? 120 : 80));
    const layout = layoutOf(heights, 6);
    const view = windowOf(layout, layout.tops[1000]!, 800, 4);
    expect(view.start).toBe(996);
    expect(view.end - view.start).toBeLessThan(20);
    expect(layout.tops[view.end]!).toBeGreaterThan(layout.tops[1000]! + 800);
  });
});

describe('spacersOf', () => {
  it('leaves the space of the cards not rendered, so the scroll height is that of all cards', () => {
    const window = { start: 3, end: 6 };
    const { before, after } = spacersOf(even, window);
    expect(before).toBe(330);
    // Rendered: cards 3..5 and the two gaps between them (320 px).
    expect(before + 320 + after).toBe(totalHeight(even));
    expect(spacersOf(even, { start: 0, end: 10 })).toEqual({ before: 0, after: 0 });
  });
});

describe('revealScrollTop', () => {
  it('scrolls the least to show a card whole, and not at all when it is shown', () => {
    expect(revealScrollTop(even, 2, 0, 400)).toBe(0);
    expect(revealScrollTop(even, 5, 0, 400)).toBe(650 - 400);
    expect(revealScrollTop(even, 1, 300, 400)).toBe(110);
    expect(revealScrollTop(even, 9, 0, 400)).toBe(1090 - 400);
  });

  it('shows the top of a card taller than the view', () => {
    expect(revealScrollTop(layoutOf([100, 600, 100], 10), 1, 0, 300)).toBe(110);
  });
});

describe('moveIndex and pageSizeOf', () => {
  it('moves by one, a page, or to either end, and stops at the ends', () => {
    expect(moveIndex('ArrowDown', 3, 10, 4)).toBe(4);
    expect(moveIndex('ArrowUp', 0, 10, 4)).toBe(0);
    expect(moveIndex('PageDown', 8, 10, 4)).toBe(9);
    expect(moveIndex('PageUp', 5, 10, 4)).toBe(1);
    expect(moveIndex('Home', 7, 10, 4)).toBe(0);
    expect(moveIndex('End', 2, 10, 4)).toBe(9);
  });

  it('leaves other keys, and an empty column, alone', () => {
    expect(moveIndex('Enter', 3, 10, 4)).toBeNull();
    expect(moveIndex('ArrowDown', 0, 0, 4)).toBeNull();
  });

  it('counts the cards that fit a view', () => {
    expect(pageSizeOf(even, 450)).toBe(4);
    expect(pageSizeOf(even, 20)).toBe(1);
    expect(pageSizeOf(layoutOf([], 10), 450)).toBe(1);
  });
});

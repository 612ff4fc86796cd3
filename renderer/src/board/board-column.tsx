/**
 * One status column: its header (icon, word, count) and its cards, windowed (use-card-window.ts):
 * only the cards in view, a few around them, and the column's tab stop are in the DOM. The column
 * is one tab stop (a roving tabindex); arrows, Page Up/Down, Home and End move between its cards,
 * scrolling the one reached into view; Left and Right move to the next column with cards.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type KeyboardEvent } from 'react';
import type { TestStatus } from '../../../shared/model';
import { Icon } from '../components/icon';
import { TEST_STATUS_LOOK } from '../components/status-badge';
import type { BoardCard } from '../lib/board-model';
import { useStore } from '../store/store';
import { moveIndex, pageSizeOf } from './card-window';
import { ItemCard } from './item-card';
import { LIST_PAD, useCardWindow } from './use-card-window';

interface Props {
  readonly status: TestStatus;
  readonly cards: readonly BoardCard[];
}

const keyOf = (featureId: string, itemId: string) => `${featureId}/${itemId}`;

/** Moves the focus to the tab stop of the nearest column with cards in `direction` (-1 left, 1 right). */
function focusNeighbour(from: Element, direction: -1 | 1): void {
  let column = direction < 0 ? from.previousElementSibling : from.nextElementSibling;
  while (column) {
    const stop = column.querySelector<HTMLElement>('.column-cards > li > .card[tabindex="0"]');
    if (stop) {
      stop.focus();
      return;
    }
    column = direction < 0 ? column.previousElementSibling : column.nextElementSibling;
  }
}

export const BoardColumn = memo(function BoardColumn({ status, cards }: Props) {
  const look = TEST_STATUS_LOOK[status];
  const headingId = `column-title-${status}`;
  const keys = useMemo(() => cards.map((c) => keyOf(c.featureId, c.item.id)), [cards]);
  const { scrollRef, listRef, layout, window: range, before, after, viewHeight, reveal } = useCardWindow(keys);

  // The column's tab stop: the card last focused or selected, else the first.
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const activeIndex = Math.max(0, activeKey === null ? 0 : keys.indexOf(activeKey));
  const focusing = useRef<string | null>(null);

  // An item selected from elsewhere (the command palette, a link) becomes the tab stop, in view.
  const selected = useStore((s) => s.selected);
  const selectedIndex = selected ? keys.indexOf(keyOf(selected.featureId, selected.itemId)) : -1;
  useEffect(() => {
    if (selectedIndex < 0) return;
    setActiveKey(keys[selectedIndex]!);
    reveal(selectedIndex);
  }, [selectedIndex, keys, reveal]);

  // Focus follows the keyboard once the card it moved to is rendered.
  useLayoutEffect(() => {
    const key = focusing.current;
    if (key === null) return;
    focusing.current = null;
    const index = keys.indexOf(key);
    listRef.current?.querySelector<HTMLElement>(`:scope > [data-index="${index}"] > .card`)?.focus({ preventScroll: true });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('li[data-index]');
    if (!item || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      const column = event.currentTarget.closest('.column');
      if (column) focusNeighbour(column, event.key === 'ArrowLeft' ? -1 : 1);
      return;
    }
    const index = Number(item.dataset['index']);
    const next = moveIndex(event.key, index, keys.length, pageSizeOf(layout, viewHeight));
    if (next === null) return;
    event.preventDefault();
    if (next === index) return;
    focusing.current = keys[next]!;
    setActiveKey(keys[next]!);
    reveal(next);
  };

  // A card focused by Tab, a click or a neighbour column becomes the tab stop; one kept off screen is revealed.
  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    const item = (event.target as HTMLElement).closest<HTMLElement>('li[data-index]');
    if (!item) return;
    const index = Number(item.dataset['index']);
    if (keys[index] !== undefined && keys[index] !== activeKey) setActiveKey(keys[index]);
    if (item.dataset['pinned'] !== undefined) reveal(index);
  };

  // The window, with the tab stop added where it falls outside it (kept in index order, so a card
  // entering or leaving the window is never moved in the DOM, which would drop its focus).
  const shown: number[] = [];
  if (cards.length > 0 && activeIndex < range.start) shown.push(activeIndex);
  for (let i = range.start; i < range.end; i++) shown.push(i);
  if (cards.length > 0 && activeIndex >= range.end) shown.push(activeIndex);

  const pinned = (index: number): CSSProperties => ({ position: 'absolute', top: LIST_PAD + layout.tops[index]!, left: LIST_PAD, right: LIST_PAD });

  return (
    <li className={`column tone-${look.tone}`} data-testid={`column-${status}`} aria-labelledby={headingId}>
      <h2 className="column-header" id={headingId}>
        <Icon name={look.icon} />
        <span className="column-word">{status}</span>
        <span className="column-count" data-testid={`column-count-${status}`} aria-label={`${cards.length} items`}>
          {cards.length}
        </span>
      </h2>
      {cards.length === 0 ? (
        <p className="column-empty">No items</p>
      ) : (
        <div ref={scrollRef} className="column-scroll">
          <ul
            ref={listRef}
            className="column-cards"
            role="list"
            style={{ paddingTop: LIST_PAD + before, paddingBottom: LIST_PAD + after }}
            onKeyDown={onKeyDown}
            onFocus={onFocus}
          >
            {shown.map((index) => {
              const card = cards[index]!;
              const outside = index < range.start || index >= range.end;
              return (
                <li
                  key={keys[index]}
                  data-key={keys[index]}
                  data-index={index}
                  data-pinned={outside ? '' : undefined}
                  aria-setsize={cards.length}
                  aria-posinset={index + 1}
                  style={outside ? pinned(index) : undefined}
                >
                  <ItemCard card={card} tabbable={index === activeIndex} />
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </li>
  );
});

/**
 * The board: every test-list item in a column by status, narrowed by the filters. The columns sit
 * in one row at any width (the row scrolls sideways when the window is narrow); each renders only
 * the cards in view (board-column.tsx), so 2,000 items open, filter and scroll without a stall.
 */
import { useMemo } from 'react';
import { TEST_STATUSES } from '../../../shared/model';
import { countItems, filterCards, groupByStatus } from '../lib/board-model';
import { useStore } from '../store/store';
import { BoardColumn } from './board-column';
import { BoardFilterBar } from './board-filters';
import { BOARD_KEYS_HINT } from './item-card';
import { ItemDrawer } from './item-drawer';

function EmptyBoard({ message }: { message: string }) {
  return (
    <div className="empty-state" data-testid="board-empty">
      <p>{message}</p>
    </div>
  );
}

export function BoardView() {
  const features = useStore((s) => s.project?.features ?? null);
  const filters = useStore((s) => s.filters);
  const selected = useStore((s) => s.selected);

  const cards = useMemo(() => (features ? filterCards(features, filters) : []), [features, filters]);
  const columns = useMemo(() => groupByStatus(cards), [cards]);
  const total = useMemo(() => (features ? countItems(features) : 0), [features]);

  if (!features || total === 0) {
    return <EmptyBoard message="No test list yet — it appears after the test_list gate." />;
  }
  const chosen = features.find((f) => f.id === filters.feature);

  return (
    <div className="board-view">
      <BoardFilterBar shown={cards.length} total={total} />
      <p id={BOARD_KEYS_HINT} className="visually-hidden">
        Up and down arrows, Page Up, Page Down, Home and End move between the cards of a column; left and right arrows move between columns; Enter opens a card.
      </p>
      {chosen && chosen.testList.length === 0 ? (
        <EmptyBoard message={`${chosen.name} has no test list yet — it appears after the test_list gate.`} />
      ) : (
        <ul className="board" role="list" aria-label="Test list by status">
          {TEST_STATUSES.map((status) => (
            <BoardColumn key={status} status={status} cards={columns[status]} />
          ))}
        </ul>
      )}
      {selected && <ItemDrawer />}
    </div>
  );
}

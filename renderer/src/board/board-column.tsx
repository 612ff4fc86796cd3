/** One status column: its header (icon, word, count) and its cards. */
import { memo } from 'react';
import type { TestStatus } from '../../../shared/model';
import { Icon } from '../components/icon';
import { TEST_STATUS_LOOK } from '../components/status-badge';
import type { BoardCard } from '../lib/board-model';
import { ItemCard } from './item-card';

interface Props {
  readonly status: TestStatus;
  readonly cards: readonly BoardCard[];
}

export const BoardColumn = memo(function BoardColumn({ status, cards }: Props) {
  const look = TEST_STATUS_LOOK[status];
  const headingId = `column-title-${status}`;
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
        <ul className="column-cards" role="list">
          {cards.map((card) => (
            <li key={`${card.featureId}/${card.item.id}`}>
              <ItemCard card={card} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
});

/** A card on the board: a button that opens the item's drawer. */
import { memo } from 'react';
import { Icon } from '../components/icon';
import type { BoardCard, GateNotice } from '../lib/board-model';
import { CardRunBadges } from '../run/card-run-badges';
import { useStore } from '../store/store';

const NOTICE: Record<Exclude<GateNotice, null>, { word: string; title: string }> = {
  drifted: { word: 'drifted gate', title: 'An approved artifact of this feature changed since approval: see Gates or the inbox.' },
  'test-list-unapproved': { word: 'test list unapproved', title: "The feature's test_list gate is not approved yet." },
};

/** The id of the board's hidden note on moving between cards (board-view.tsx). */
export const BOARD_KEYS_HINT = 'board-keys-hint';

/**
 * `tabbable`: the column's one card in the Tab order (a roving tabindex: arrows reach the rest).
 * Text that may not fit (ids, the feature, the description, the AC) ends in an ellipsis and keeps
 * its whole in a title, so nothing is cut off without a way to read it.
 */
export const ItemCard = memo(function ItemCard({ card, tabbable }: { card: BoardCard; tabbable: boolean }) {
  const select = useStore((s) => s.select);
  // The feature's name says something only while cards of several features share the board.
  const showFeature = useStore((s) => s.filters.feature === null && (s.project?.features.length ?? 0) > 1);
  const { item } = card;
  return (
    <button
      type="button"
      className="card"
      data-testid={`card-${item.id}`}
      data-feature={card.featureId}
      aria-haspopup="dialog"
      aria-describedby={BOARD_KEYS_HINT}
      tabIndex={tabbable ? 0 : -1}
      onClick={() => select({ featureId: card.featureId, itemId: item.id })}
    >
      <span className="card-top">
        <span className="card-id" title={item.id}>
          {item.id}
        </span>
        {showFeature && (
          <span className="card-feature" title={card.featureName}>
            {card.featureName}
          </span>
        )}
      </span>
      <span className="card-description" title={item.description || undefined}>
        {item.description || 'No description'}
      </span>
      <span className="card-meta">
        <span className="card-ac" data-testid="item-ac" title={item.acId || undefined}>
          {item.acId || 'no AC'}
        </span>
        <span className={item.kind ? 'card-kind' : 'card-kind card-kind-none'}>{item.kind ?? 'no kind'}</span>
        {card.gateNotice && (
          <span className={`card-gate card-gate-${card.gateNotice}`} data-testid="item-gate-notice" title={NOTICE[card.gateNotice].title}>
            <Icon name={card.gateNotice === 'drifted' ? 'warning' : 'clock'} />
            {NOTICE[card.gateNotice].word}
          </span>
        )}
        <CardRunBadges featureId={card.featureId} itemId={item.id} counts={card.counts} />
      </span>
    </button>
  );
});

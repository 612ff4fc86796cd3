/**
 * A board card's badges: running now (with its cycle state) and locked, from the run; repairs and
 * violations over all the item's rounds, from the ledger (the one count every view shows).
 */
import type { CycleCounts } from '../../../shared/cycle-counts';
import { runItem } from '../../../shared/run-view';
import { Icon } from '../components/icon';
import { useStore } from '../store/store';
import { isBuilding } from './building-model';
import { stateWord } from './run-words';

const LOCKED_STATES: ReadonlySet<string> = new Set(['green', 'refactor', 'review', 'done']);

export function CardRunBadges({ featureId, itemId, counts }: { featureId: string; itemId: string; counts: CycleCounts | null }) {
  const item = useStore((s) => runItem(s.run, featureId, itemId));
  // Live while its cycle runs: with stories built in parallel, several cards are live at once.
  const live = useStore((s) => isBuilding(s.run, featureId, itemId));
  const repairs = counts?.repairs ?? 0;
  const violations = counts?.violations ?? 0;
  return (
    <>
      {live && item && (
        <span className="card-run card-run-live" data-testid="card-running" title={`The run is at ${stateWord(item.state)} for this item`}>
          <Icon name="progress" />
          running · {stateWord(item.state)}
        </span>
      )}
      {item && LOCKED_STATES.has(item.state) && (
        <span className="card-run" data-testid="card-locked" title="Its tests are locked by hash: a change to them is a violation">
          <Icon name="lock" />
          locked
        </span>
      )}
      {repairs > 0 && (
        <span className="card-run card-run-repairs" data-testid="card-repairs" title="GREEN runs that failed and sent the Driver back to repair">
          <Icon name="refactored" />
          {repairs === 1 ? '1 repair' : `${repairs} repairs`}
        </span>
      )}
      {violations > 0 && (
        <span className="card-run card-run-violation" data-testid="card-violations" title="Turns that changed locked files: caught, reverted and recorded">
          <Icon name="warning" />
          {violations === 1 ? '1 violation' : `${violations} violations`}
        </span>
      )}
    </>
  );
}

/**
 * The cycle machine of one item (the first of those being built, else the one that moved last, or
 * the one picked from the list), with its counts over all its rounds from the ledger (the same
 * numbers as its card and the Inbox), and every item the run reached as a row of chips to pick
 * from; each item being built now is marked live, in words and with an icon.
 */
import { useState } from 'react';
import { NO_COUNTS, type CycleCounts } from '../../../shared/cycle-counts';
import { CYCLE_STATE_NAMES, type RunItemState } from '../../../shared/run';
import { Icon } from '../components/icon';
import { MachineStrip } from './machine-strip';
import { stateWord } from './run-words';

const CYCLE_PATH = CYCLE_STATE_NAMES.filter((s) => s !== 'escalated');

function Counters({ counts }: { counts: CycleCounts }) {
  const { repairs, violations, rejectedRed, refactors } = counts;
  const parts: [string, number, string][] = [
    ['repairs', repairs, 'run-counter-repairs'],
    ['violations', violations, 'run-counter-violations'],
    ['rejected RED', rejectedRed, 'run-counter-rejected'],
    ['refactors', refactors, 'run-counter-refactors'],
  ];
  return (
    <dl className="run-counters">
      {parts.map(([word, n, testId]) => (
        <div key={word} className={n > 0 && word === 'violations' ? 'run-counter run-counter-alert' : 'run-counter'}>
          <dt>{word}</dt>
          <dd data-testid={testId}>{n}</dd>
        </div>
      ))}
    </dl>
  );
}

interface Props {
  readonly items: readonly RunItemState[];
  /** The item the view follows unless one is picked (building-model.ts followedItem). */
  readonly current: string | null;
  /** The items being built now. */
  readonly active: readonly string[];
  /** An item's counts from the ledger (shared/cycle-counts.ts); null before anything is recorded for it. */
  readonly countsOf: (item: string) => CycleCounts | null;
}

export function CycleView({ items, current, active, countsOf }: Props) {
  const [picked, setPicked] = useState<string | null>(null);
  const shownId = picked ?? current ?? items.at(-1)?.item ?? null;
  const shown = items.find((i) => i.item === shownId) ?? null;
  if (!shown) return <p className="muted run-cycle-none">No cycle yet — cycles start when the feature reaches building.</p>;
  // Pressing the item that follows the run hands the choice back to the run.
  const pick = (id: string) => setPicked(id === picked ? null : id);
  return (
    <div className="run-cycle">
      <div className="run-cycle-head">
        <h3>
          Cycle of <span className="mono">{shown.item}</span>
          {picked && picked !== current && <span className="muted"> (picked)</span>}
        </h3>
        <Counters counts={countsOf(shown.item) ?? NO_COUNTS} />
      </div>
      <MachineStrip label={`Cycle of ${shown.item}`} states={CYCLE_PATH} current={shown.state} testId="cycle-machine" />
      <ul className="run-items" role="list" aria-label="Items of this run">
        {items.map((item) => {
          const live = active.includes(item.item);
          return (
            <li key={item.item}>
              <button
                type="button"
                className={live ? 'run-item run-item-live' : 'run-item'}
                data-testid={`run-item-${item.item}`}
                data-live={live}
                aria-pressed={item.item === shown.item}
                onClick={() => pick(item.item)}
              >
                {live && <Icon name="progress" />}
                <span className="mono">{item.item}</span> {stateWord(item.state)}
                {live && <span className="visually-hidden"> (building now)</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/**
 * The panel's "Building now" list: every item whose cycle runs, with its cycle state and its
 * current turn or test run. Each row carries an icon and words, never colour alone.
 */
import { Icon } from '../components/icon';
import { buildingAnnouncement, type BuildingRow } from './building-model';
import { stateWord } from './run-words';

export function BuildingNow({ rows }: { rows: readonly BuildingRow[] }) {
  if (rows.length === 0) return null;
  return (
    <section className="run-building" aria-labelledby="run-building-title" data-testid="run-building" data-count={rows.length}>
      <h3 id="run-building-title">Building now{rows.length > 1 && <span className="muted"> · {rows.length} items in parallel</span>}</h3>
      <ul className="run-building-items" aria-labelledby="run-building-title">
        {rows.map((row) => (
          <li key={row.item} className="run-building-item" data-testid={`run-building-${row.item}`} data-state={row.state ?? ''}>
            <Icon name="progress" />
            <span className="mono">{row.item}</span>
            <span className="run-building-state">{row.state ? stateWord(row.state) : 'starting'}</span>
            {row.doing && <span className="muted">· {row.doing}</span>}
          </li>
        ))}
      </ul>
      {/* Said when an item starts or finishes, not at every step: the rows change too often to read out. */}
      <span className="visually-hidden" aria-live="polite" data-testid="run-building-announce">
        {buildingAnnouncement(rows.map((r) => r.item))}
      </span>
    </section>
  );
}

/** The smell report (shared/metrics/smells.ts) as a list: its kind in words, what it is about, the sentence, its records. */
import type { Subject } from '../../../shared/ledger';
import type { Smell, SmellKind } from '../../../shared/metrics/smells';
import { Icon } from '../components/icon';
import { RecordLinks } from './chart-card';

const KIND_WORDS: Readonly<Record<SmellKind, string>> = {
  stall: 'Stall',
  fragile: 'Fragile',
  'repeated-violations': 'Repeated violations',
  'repair-loop': 'Repair loop',
  'rubber-stamp': 'Rubber stamp',
  'long-wait': 'Long wait',
};

const subjectText = (s: Subject): string =>
  [s.story, s.item, s.gate === undefined ? undefined : `${s.gate} gate`].filter(Boolean).join(' / ') || (s.feature ?? '');

export function SmellList({ smells, problem }: { smells: readonly Smell[]; problem: string | null }) {
  return (
    <section className="chart-card smell-card" aria-labelledby="metrics-smells-title" data-testid="card-smells">
      <header className="chart-card-head">
        <h2 id="metrics-smells-title">Smells</h2>
      </header>
      <p className="chart-about">
        Patterns in the ledger worth a look, with the thresholds of the smells settings in .baton/project.json (the same report as baton metrics --smells).
      </p>
      {problem !== null ? (
        <p className="chart-empty" role="alert">
          The smell report cannot be made: {problem}
        </p>
      ) : smells.length === 0 ? (
        <p className="chart-empty" data-testid="smells-none">
          No smells: no stall, fragile item, repeated violation, repair loop, rubber stamp or long wait in the ledger.
        </p>
      ) : (
        <ul className="smell-list" role="list">
          {smells.map((s) => (
            <li key={`${s.kind}-${s.records.join('-')}`} className="smell" data-testid="smell">
              <Icon name="warning" className="smell-icon" />
              <div>
                <strong>{KIND_WORDS[s.kind]}</strong> <span className="muted">{subjectText(s.subject)}</span>
                <p className="smell-says">{s.says}</p>
                <RecordLinks seqs={s.records} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

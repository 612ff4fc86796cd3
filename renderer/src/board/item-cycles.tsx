/**
 * The drawer's Cycles: each TDD cycle of the item with its RED, GREEN and refactor times, GREEN
 * attempts, the Navigator's verdict and the review — from the ledger for a Baton project, from
 * Consort's per-AC cycle files for a Consort one. What a record does not say is shown as not recorded.
 */
import { cycleCovers, type CycleRun, type Feature, type TestItem } from '../../../shared/model';
import { friendlyTime } from '../lib/format';
import { hrefForRecord } from '../store/hash-route';

function When({ at }: { at: string | null }) {
  if (!at) return <span className="muted">—</span>;
  const when = friendlyTime(at);
  return (
    <time dateTime={at} title={at}>
      {when ? when.absolute : at}
    </time>
  );
}

function CycleCard({ cycle }: { cycle: CycleRun }) {
  const batch = cycle.items.length > 1 ? ` · covers ${cycle.items.join(', ')}` : '';
  return (
    <li className="cycle-card" data-testid={`cycle-${cycle.id}`} data-source={cycle.source}>
      <div className="cycle-card-head">
        <span className="mono">{cycle.id}</span>
        {cycle.outcome && <span className="cycle-outcome">{cycle.outcome}</span>}
        <span className="muted">
          {cycle.source === 'consort' ? 'Consort cycle file' : 'Baton ledger'}
          {batch}
        </span>
      </div>
      <dl className="cycle-times">
        <dt>RED</dt>
        <dd data-testid="cycle-red">
          <When at={cycle.redAt} />
        </dd>
        <dt>GREEN</dt>
        <dd data-testid="cycle-green">
          <When at={cycle.greenAt} />
        </dd>
        <dt>Refactored</dt>
        <dd>
          <When at={cycle.refactoredAt} />
        </dd>
        <dt>Attempts</dt>
        <dd data-testid="cycle-attempts">{cycle.attempts ?? <span className="muted">not recorded</span>}</dd>
        <dt>Verdict</dt>
        <dd data-testid="cycle-verdict">{cycle.verdict ?? <span className="muted">not recorded</span>}</dd>
        {cycle.review && (
          <>
            <dt>Review</dt>
            <dd>{cycle.review}</dd>
          </>
        )}
      </dl>
      {cycle.file && <p className="mono muted cycle-file">{cycle.file}</p>}
      {cycle.record && (
        <a href={hrefForRecord(cycle.record.seq)} className="cycle-record">
          Its record #{cycle.record.seq}
        </a>
      )}
    </li>
  );
}

export function ItemCycles({ feature, item }: { feature: Feature; item: TestItem }) {
  const cycles = feature.cycleRuns.filter((c) => cycleCovers(c, item));
  if (cycles.length === 0) {
    return (
      <p className="muted" data-testid="item-cycles-empty">
        No cycle has run for {item.id} yet — one appears when its test is written and fails (RED).
      </p>
    );
  }
  return (
    <ol className="cycle-list" role="list" data-testid="item-cycles" aria-label={`Cycles of ${item.id}, oldest first`}>
      {cycles.map((cycle) => (
        <CycleCard key={`${cycle.id}/${cycle.file ?? ''}`} cycle={cycle} />
      ))}
    </ol>
  );
}

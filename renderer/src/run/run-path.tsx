/**
 * The run panel's Path: where the run's feature's code stands. Its story experiments → the feature
 * pair → the tier, each with whether it is merged into its parent and, once asked (Check
 * migrations connects to every database, so it is never polled), where its database stands
 * against its code's migrations. Read again when the run's lifecycle or items move on, and on Refresh.
 */
import { useEffect, useMemo } from 'react';
import type { BranchPairView, MigrationState } from '../../../shared/branches';
import { MergeBadge, MigrationBadge } from '../branches/fact-badge';
import { MigrationsCheck } from '../branches/migrations-check';
import { Icon } from '../components/icon';
import { pairLabel } from '../lib/branch-tree';
import { featurePath, type PathRow } from '../lib/run-path';
import { refreshBranchesForRun } from '../store/branch-actions';
import { useStore } from '../store/store';

const KIND_WORD: Readonly<Record<BranchPairView['kind'], string>> = { experiment: 'experiment', feature: 'feature', tier: 'tier' };

export function RunPath({ feature }: { feature: string }) {
  const root = useStore((s) => s.project?.root ?? null);
  const lifecycle = useStore((s) => s.run.lifecycle);
  // The items being built, as one string: it changes when an item starts or finishes, not each
  // time parallel cycles take turns moving.
  const building = useStore((s) => s.run.active.join(' '));
  const outcome = useStore((s) => s.run.outcome);
  // An embedded (PGlite) database serves one client at a time: a check while the run works could
  // take the connection its tests need. Waiting at a gate, or ended, the run holds none.
  const working = useStore((s) => s.run.running && s.run.waiting === null);
  const list = useStore((s) => s.branchList);
  const error = useStore((s) => s.branchListError);
  const loading = useStore((s) => s.branchListLoading);
  const migrations = useStore((s) => s.branchMigrations);

  // The run makes a story's experiment at its first item's PLAN and merges them at acceptance:
  // read the pairs again whenever the lifecycle, the items in work or the outcome changes.
  useEffect(() => {
    if (root) void refreshBranchesForRun();
  }, [root, feature, lifecycle, building, outcome]);

  const rows = useMemo(() => featurePath(list?.pairs ?? [], feature), [list, feature]);
  const tier = rows.find((r) => r.pair.kind === 'tier');

  return (
    <section className="run-path" aria-labelledby="run-path-title" data-testid="run-path" aria-busy={loading}>
      <div className="run-path-head">
        <h3 id="run-path-title">Path</h3>
        <span className="muted run-path-what">
          where {feature}’s code stands: story experiments → feature → {tier ? pairLabel(tier.pair) : 'tier'}
        </span>
        <span className="spacer" />
        <MigrationsCheck
          testId="run-path-check"
          errorTestId="run-path-check-error"
          blockedReason={working ? 'The run is using its branches’ databases now: check their migrations when it waits at a gate or has stopped.' : null}
        />
        <button type="button" className="button button-quiet" data-testid="run-path-refresh" disabled={loading} onClick={() => void refreshBranchesForRun()}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {error && (
        <p className="run-path-error" role="alert" data-testid="run-path-error" data-code={error.code}>
          <Icon name="warning" />
          <span>
            {list ? 'The branches could not be read again: ' : 'The branches are not available: '}
            {error.message}
          </span>
        </p>
      )}
      {rows.length > 0 && (
        <ol className="run-path-rows" aria-label={`${feature}’s branches, from its stories up to the tier`}>
          {rows.map((row) => (
            <PathItem key={row.pair.name} row={row} checked={migrations !== null} migrations={migrations?.get(row.pair.name)?.migrations ?? null} />
          ))}
        </ol>
      )}
      {rows.length === 0 && list && (
        <p className="muted run-path-empty" data-testid="run-path-empty">
          No branches yet: the first item’s PLAN makes them
        </p>
      )}
      {rows.length === 0 && !list && !error && (
        <p className="muted run-path-empty" role="status" data-testid="run-path-loading">
          Reading the branches…
        </p>
      )}
    </section>
  );
}

interface ItemProps {
  readonly row: PathRow;
  /** Whether a migration check's answer is shown at all. */
  readonly checked: boolean;
  readonly migrations: MigrationState | null;
}

function PathItem({ row, checked, migrations }: ItemProps) {
  const { pair, parentLabel } = row;
  const label = pairLabel(pair);
  return (
    <li className="run-path-row" data-testid="run-path-row" data-kind={pair.kind} data-branch={label}>
      <span className={`run-path-kind run-path-kind-${pair.kind}`} data-testid="run-path-kind">
        {KIND_WORD[pair.kind]}
      </span>
      <span className="run-path-branch mono" data-testid="run-path-branch">
        <Icon name="branch" />
        {label}
      </span>
      <span className="run-path-facts">
        {pair.kind !== 'tier' && <MergeBadge pair={pair} parentLabel={parentLabel} testId="run-path-merged" />}
        {migrations && <MigrationBadge label={label} migrations={migrations} testId="run-path-migrations" />}
        {checked && !migrations && (
          <span
            className="badge tone-muted"
            data-testid="run-path-migrations"
            title={`The last check did not compare ${label}: it has no database or no git branch.`}
          >
            not checked
          </span>
        )}
      </span>
    </li>
  );
}

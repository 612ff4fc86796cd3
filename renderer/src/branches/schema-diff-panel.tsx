/**
 * The schema of the opened pair against its parent's, beside the tree: changes grouped by table,
 * each with its kind as a word and before → after. Neon's own text diff, when it sends one, is
 * shown as it came. Comparing can be cancelled; leaving the row cancels it too.
 */
import { useEffect, useMemo } from 'react';
import type { BranchListView, BranchPairView, SchemaChange, SchemaDiff } from '../../../shared/branches';
import { ErrorBanner } from '../components/error-banner';
import { Icon, type IconName } from '../components/icon';
import { humanize } from '../lib/format';
import { pairLabel } from '../lib/branch-tree';
import { diffBranch } from '../store/branch-actions';
import { OpProgress } from './op-progress';
import { useBranchOp } from './use-branch-op';

interface Props {
  readonly pair: BranchPairView;
  readonly parentLabel: string | null;
  /** The list this pair came from: a new list (after a reset, say) compares again. */
  readonly list: BranchListView;
}

export function SchemaDiffPanel({ pair, parentLabel, list }: Props) {
  const op = useBranchOp<SchemaDiff>();
  const comparable = pair.parent !== null && pair.database !== null;
  const start = op.start;

  useEffect(() => {
    if (comparable) void start((opId) => diffBranch(opId, pair.name));
  }, [comparable, pair.name, list, start]);

  const label = pairLabel(pair);
  const parent = parentLabel ?? pair.parent ?? '';
  return (
    <section className="branch-diff" aria-labelledby="branch-diff-title" data-testid="branch-diff">
      <header className="branch-diff-header">
        <h2 id="branch-diff-title" className="pane-title">
          Schema of <span className="mono">{label}</span>
          {comparable && (
            <>
              {' '}
              against <span className="mono">{parent}</span>
            </>
          )}
        </h2>
        {comparable && !op.running && (
          <button
            type="button"
            className="button button-small"
            data-testid="branch-diff-refresh"
            onClick={() => void start((opId) => diffBranch(opId, pair.name))}
          >
            Compare again
          </button>
        )}
        {op.running && (
          <button type="button" className="button button-small" data-testid="branch-diff-cancel" onClick={op.cancel} disabled={op.cancelling}>
            {op.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
      </header>
      {!comparable ? (
        <p className="muted" data-testid="branch-diff-none">
          {pair.parent === null
            ? `${label} is a root: it has no parent to compare with. Open one of its branches to see what changed.`
            : `${label} has no database branch, so there is no schema to compare. Delete the pair, or run \`baton branch gc\`.`}
        </p>
      ) : op.running ? (
        <OpProgress progress={op.progress} running starting={`Comparing ${label} with ${parent}…`} />
      ) : op.error ? (
        <ErrorBanner
          error={op.error}
          title="The schemas could not be compared"
          actionLabel="Try again"
          onAction={() => void start((opId) => diffBranch(opId, pair.name))}
        />
      ) : op.value ? (
        <DiffBody diff={op.value} parent={parent} />
      ) : null}
    </section>
  );
}

function DiffBody({ diff, parent }: { diff: SchemaDiff; parent: string }) {
  const tables = useMemo(() => groupByTable(diff.changes), [diff.changes]);
  if (diff.changes.length === 0 && !diff.text) {
    return (
      <p className="branch-diff-empty" data-testid="branch-diff-empty">
        <Icon name="green" /> No schema changes against {parent}
      </p>
    );
  }
  return (
    <div className="branch-diff-body">
      <p className="muted" data-testid="branch-diff-count">
        {diff.changes.length} {diff.changes.length === 1 ? 'change' : 'changes'} in {tables.length} {tables.length === 1 ? 'table' : 'tables'}
      </p>
      {tables.map(([table, changes]) => (
        <section key={table} className="diff-table-group" data-testid={`branch-diff-table-${table}`} aria-label={`Table ${table}`}>
          <h3 className="mono diff-table-name">{table}</h3>
          <ul role="list" className="schema-changes">
            {changes.map((change, index) => (
              <ChangeRow key={index} change={change} />
            ))}
          </ul>
        </section>
      ))}
      {diff.text && (
        <section aria-label="The provider's own schema diff">
          <h3 className="pane-subtitle">As the provider reports it</h3>
          <pre className="branch-diff-text" data-testid="branch-diff-text">
            {diff.text}
          </pre>
        </section>
      )}
    </div>
  );
}

const KIND_ICON = (kind: SchemaChange['kind']): IconName => (kind.endsWith('added') ? 'plus' : kind.endsWith('removed') ? 'minus' : 'diff');

function ChangeRow({ change }: { change: SchemaChange }) {
  return (
    <li className="schema-change" data-testid="branch-diff-change" data-kind={change.kind}>
      <span className={`badge tone-${change.kind.endsWith('removed') ? 'danger' : change.kind.endsWith('added') ? 'success' : 'warning'}`}>
        <Icon name={KIND_ICON(change.kind)} />
        <span>{humanize(change.kind)}</span>
      </span>
      {change.name && <span className="mono schema-change-name">{change.name}</span>}
      <span className="schema-change-values">
        <span className="mono" data-testid="branch-diff-before">
          {change.before ?? '—'}
        </span>
        <span aria-label="becomes"> → </span>
        <span className="mono" data-testid="branch-diff-after">
          {change.after ?? '—'}
        </span>
      </span>
    </li>
  );
}

function groupByTable(changes: readonly SchemaChange[]): [string, SchemaChange[]][] {
  const groups = new Map<string, SchemaChange[]>();
  for (const change of changes) {
    const list = groups.get(change.table) ?? [];
    list.push(change);
    groups.set(change.table, list);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

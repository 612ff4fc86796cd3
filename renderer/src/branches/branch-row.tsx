/**
 * One pair in the tree: git half (branch, worktree) beside the database half (name, provider),
 * then depth, age, size, markers, whether it is merged into its parent, and the last migration check.
 */
import { PROVIDER_LABELS, type MigrationState, type ProviderKind } from '../../../shared/branches';
import { Icon, type IconName } from '../components/icon';
import { humanSize, markersOf, mergeFact, migrationFact, pairLabel, type MarkerKey, type TreeRow } from '../lib/branch-tree';
import { friendlyTime, relativeTime } from '../lib/format';
import { MergeBadge, MigrationBadge } from './fact-badge';

interface Props {
  readonly row: TreeRow;
  /** The list's provider, for a half not made yet. */
  readonly provider: ProviderKind;
  /** What the last "Check migrations" said of this pair, or null when it said nothing. */
  readonly migrations: MigrationState | null;
  readonly selected: boolean;
  readonly tabbable: boolean;
  readonly itemRef: (el: HTMLLIElement | null) => void;
  readonly onFocus: () => void;
  readonly onOpen: () => void;
  readonly onToggle: () => void;
}

const MARKER_ICON: Record<MarkerKey, IconName> = { tier: 'shield', masked: 'eye', orphan: 'warning', active: 'progress', expires: 'clock' };

export function BranchRow({ row, provider, migrations, selected, tabbable, itemRef, onFocus, onOpen, onToggle }: Props) {
  const { pair, level } = row;
  // The default branch's database is made when the first pair forks from it; until then it is not an orphan.
  const pendingRoot = pair.database === null && pair.orphan === null;
  const markers = markersOf(pair, (iso) => relativeTime(new Date(iso)));
  const created = pair.createdAt ? friendlyTime(pair.createdAt) : null;
  const depth = pair.database?.depth ?? level - 1;
  const label = pairLabel(pair);
  const merge = mergeFact(pair, row.parentLabel);
  const migrated = migrations ? migrationFact(label, migrations) : null;
  const spoken = [
    label,
    pair.kind,
    pair.database ? `database ${pair.database.name} (${PROVIDER_LABELS[pair.database.provider]})` : pendingRoot ? 'database made with the first pair' : null,
    ...markers.map((m) => m.word),
    merge?.word,
    migrated?.title,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <li
      ref={itemRef}
      role="treeitem"
      aria-level={level}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={row.hasChildren ? row.expanded : undefined}
      aria-selected={selected}
      aria-label={spoken}
      tabIndex={tabbable ? 0 : -1}
      className="branch-item"
      data-testid={`branch-row-${pair.name}`}
      data-kind={pair.kind}
      onFocus={onFocus}
      onClick={onOpen}
    >
      <div className="branch-row">
        <span className="branch-git-cell" style={{ paddingLeft: `${(level - 1) * 18}px` }}>
          <span className="branch-toggle">
            {row.hasChildren && (
              <button
                type="button"
                tabIndex={-1}
                aria-hidden="true"
                className={row.expanded ? 'toggle toggle-open' : 'toggle'}
                onClick={(e) => {
                  e.stopPropagation();
                  onToggle();
                }}
              >
                <Icon name="chevron" />
              </button>
            )}
          </span>
          <span className="branch-half branch-git" data-testid="branch-git">
            <span className="branch-name">
              <Icon name="branch" />
              {pair.gitBranch ? <span className="mono">{pair.gitBranch}</span> : <span className="muted">no git branch</span>}
            </span>
            <span className="branch-sub mono muted" data-testid="branch-worktree" title={pair.worktree ?? undefined}>
              {pair.worktree ?? (pair.tier ? 'main checkout' : '—')}
            </span>
          </span>
        </span>
        <span className="branch-half branch-db" data-testid="branch-db">
          <span className="branch-name">
            <Icon name="database" />
            {pair.database ? (
              <span className="mono">{pair.database.name}</span>
            ) : pendingRoot ? (
              <span className="mono muted">{pair.name}</span>
            ) : (
              <span className="muted">no database</span>
            )}
          </span>
          <span className="branch-sub muted" data-testid="branch-provider">
            {PROVIDER_LABELS[pair.database?.provider ?? provider]}
          </span>
          {pendingRoot && (
            <span className="branch-sub muted" data-testid="branch-db-pending">
              made with the first pair
            </span>
          )}
        </span>
        <span className="branch-cell" data-testid="branch-depth">
          depth {depth}
        </span>
        <span className="branch-cell" data-testid="branch-age" title={created?.absolute}>
          {created ? created.relative : '—'}
        </span>
        <span className="branch-cell" data-testid="branch-size">
          {humanSize(pair.database?.sizeBytes ?? null)}
        </span>
        <span className="branch-markers">
          {markers.map((m) => (
            <span key={m.key} className={`badge tone-${m.tone}`} title={m.title} data-testid={`branch-marker-${m.key}`}>
              <Icon name={MARKER_ICON[m.key]} />
              <span>{m.word}</span>
            </span>
          ))}
          <MergeBadge pair={pair} parentLabel={row.parentLabel} testId="branch-merged" />
          {migrations && <MigrationBadge label={label} migrations={migrations} testId="branch-migrations" />}
        </span>
      </div>
    </li>
  );
}

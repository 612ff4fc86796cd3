/**
 * Branches: tiers → features → experiments as a tree, the opened pair's schema diff beside it,
 * and Create, Reset and Delete above it. Reset and Delete say why when they cannot act.
 */
import { useEffect, useMemo, useState } from 'react';
import { PROVIDER_LABELS, type BranchCreated, type BranchPairView } from '../../../shared/branches';
import { ErrorBanner } from '../components/error-banner';
import { Icon } from '../components/icon';
import { blockedReason, buildForest, onlyTiers, pairLabel, visibleRows } from '../lib/branch-tree';
import { refreshBranches } from '../store/branch-actions';
import { useStore } from '../store/store';
import { BranchTreeView } from './branch-tree-view';
import { ConfirmBranchDialog, type ConfirmAction } from './confirm-dialog';
import { CreateBranchDialog } from './create-dialog';
import { MigrationsCheck } from './migrations-check';
import { SchemaDiffPanel } from './schema-diff-panel';

type Open = { readonly kind: 'create' } | { readonly kind: ConfirmAction; readonly pair: BranchPairView } | null;

export function BranchesView() {
  const root = useStore((s) => s.project?.root ?? null);
  const list = useStore((s) => s.branchList);
  const error = useStore((s) => s.branchListError);
  const loading = useStore((s) => s.branchListLoading);
  const selectedName = useStore((s) => s.branchSelected);
  const collapsed = useStore((s) => s.branchCollapsed);
  const migrations = useStore((s) => s.branchMigrations);
  const select = useStore((s) => s.selectBranch);
  const toggle = useStore((s) => s.toggleBranchCollapsed);
  const provider = useStore((s) => s.branchStatus?.provider ?? null);
  // "Try again" cannot help a bundle or a Consort project: it will never have branches here.
  const readOnly = useStore((s) => s.project?.readOnly ?? false);
  const [open, setOpen] = useState<Open>(null);

  useEffect(() => {
    if (root) void refreshBranches();
  }, [root]);

  const pairs = useMemo(() => list?.pairs ?? [], [list]);
  const rows = useMemo(() => visibleRows(buildForest(pairs), collapsed), [pairs, collapsed]);
  const byName = useMemo(() => new Map(pairs.map((p) => [p.name, p])), [pairs]);
  const selected = selectedName ? (byName.get(selectedName) ?? null) : null;
  const labelOf = (name: string | null): string | null => {
    const pair = name ? byName.get(name) : undefined;
    return pair ? pairLabel(pair) : name;
  };
  // A parent needs both halves, or is the default branch whose database the first create makes.
  const parents = pairs.filter((p) => p.gitBranch !== null && p.orphan === null);
  const defaultParent = selected && parents.includes(selected) ? selected.name : ((parents.find((p) => p.tier === 'production') ?? parents[0])?.name ?? null);

  if (!list) {
    if (error) {
      return (
        <div className="branches-view" data-testid="branches-unavailable">
          {readOnly ? (
            <ErrorBanner error={error} title="Branches are not available" />
          ) : (
            <ErrorBanner error={error} title="Branches are not available" actionLabel="Try again" onAction={() => void refreshBranches()} />
          )}
        </div>
      );
    }
    return <BranchesLoading provider={provider ? PROVIDER_LABELS[provider] : null} />;
  }

  const resetBlocked = blockedReason(selected, 'reset');
  const deleteBlocked = blockedReason(selected, 'delete');
  const hint = !selected
    ? 'Select a branch (click it, or Enter in the tree) to compare, reset or delete it.'
    : (deleteBlocked ??
      resetBlocked ??
      `${pairLabel(selected)}: Reset forks its database again from ${labelOf(selected.parent)}; Delete removes its git branch, worktree and database.`);
  const created = (pair: BranchCreated) => {
    setOpen(null);
    select(pair.name);
  };

  return (
    <div className="branches-view">
      <div className="branches-toolbar" role="toolbar" aria-label="Branch actions">
        <h2 className="pane-title">
          Branch pairs <span className="muted">({pairs.length})</span>
        </h2>
        <span className="tag" data-testid="branches-provider">
          {PROVIDER_LABELS[list.provider]}
          {list.experimental && ' · experimental'}
        </span>
        <span className="spacer" />
        <button type="button" className="button button-primary" data-testid="branch-create" onClick={() => setOpen({ kind: 'create' })}>
          <Icon name="plus" /> Create…
        </button>
        <button
          type="button"
          className="button"
          data-testid="branch-reset"
          disabled={resetBlocked !== null}
          title={resetBlocked ?? undefined}
          aria-describedby="branch-action-hint"
          onClick={() => selected && setOpen({ kind: 'reset', pair: selected })}
        >
          Reset…
        </button>
        <button
          type="button"
          className="button button-danger"
          data-testid="branch-delete"
          disabled={deleteBlocked !== null}
          title={deleteBlocked ?? undefined}
          aria-describedby="branch-action-hint"
          onClick={() => selected && setOpen({ kind: 'delete', pair: selected })}
        >
          Delete…
        </button>
        <MigrationsCheck />
        <button type="button" className="button button-quiet" data-testid="branch-refresh" onClick={() => void refreshBranches()} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p id="branch-action-hint" className="muted branch-action-hint" data-testid="branch-action-hint">
        {hint}
      </p>
      {error && <ErrorBanner error={error} title="The branches could not be refreshed" actionLabel="Try again" onAction={() => void refreshBranches()} />}
      <div className={selected ? 'branches-body branches-body-with-diff' : 'branches-body'}>
        <div className="branches-tree-pane">
          <div className="branch-columns" aria-hidden="true">
            <span className="branch-columns-git">Git branch · worktree</span>
            <span>Database · provider</span>
            <span>Depth</span>
            <span>Age</span>
            <span>Size</span>
            <span>Markers</span>
          </div>
          {rows.length > 0 && (
            <BranchTreeView rows={rows} provider={list.provider} migrations={migrations} selected={selectedName} onOpen={select} onToggle={toggle} />
          )}
          {onlyTiers(pairs) && (
            <div className="empty-state" data-testid="branches-empty">
              <div className="empty-stack">
                <p className="empty-title">No branches yet — create one from the default branch</p>
                <p>Each pair is a git branch with its own worktree and a database forked from its parent’s, so tests can destroy data freely.</p>
                <p>
                  <button type="button" className="button button-primary" onClick={() => setOpen({ kind: 'create' })}>
                    <Icon name="plus" /> Create a pair
                  </button>
                </p>
              </div>
            </div>
          )}
        </div>
        {selected && <SchemaDiffPanel key={selected.name} pair={selected} parentLabel={labelOf(selected.parent)} list={list} />}
      </div>
      {open?.kind === 'create' && <CreateBranchDialog parents={parents} defaultParent={defaultParent} onClose={() => setOpen(null)} onCreated={created} />}
      {open && open.kind !== 'create' && (
        <ConfirmBranchDialog
          action={open.kind}
          pair={open.pair}
          parentLabel={labelOf(open.pair.parent)}
          onClose={() => setOpen(null)}
          onDone={(action) => {
            setOpen(null);
            if (action === 'delete') select(null);
          }}
        />
      )}
    </div>
  );
}

function BranchesLoading({ provider }: { provider: string | null }) {
  return (
    <div className="branches-view" aria-busy="true" data-testid="branches-loading">
      <p className="muted" role="status">
        Opening the {provider ?? 'database'} branch provider… the first start can take a few seconds.
      </p>
      {[70, 55, 62].map((width, i) => (
        <div key={i} className="skeleton-line" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}

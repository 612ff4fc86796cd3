/**
 * The Branch tree as rows: pairs arranged under their parents (tiers first), flattened to what
 * is visible given the collapsed rows, with the words the markers show. Pure, so it is tested
 * without a DOM.
 */
import { describeMigrationState, type BranchPairView, type MigrationState } from '../../../shared/branches';

export interface TreeNode {
  readonly pair: BranchPairView;
  readonly children: readonly TreeNode[];
}

export interface TreeRow {
  readonly pair: BranchPairView;
  /** 1 for a root (aria-level). */
  readonly level: number;
  readonly parentName: string | null;
  /** The parent's label (pairLabel), or null for a root. */
  readonly parentLabel: string | null;
  readonly hasChildren: boolean;
  readonly expanded: boolean;
  /** Position among siblings, 1-based, and how many siblings (aria-posinset, aria-setsize). */
  readonly position: number;
  readonly siblings: number;
}

const TIER_ORDER = { production: 0, staging: 1 } as const;

/** Tiers first (production, then staging), then pairs whose parent is gone, then by name. */
function compare(a: BranchPairView, b: BranchPairView): number {
  const rank = (p: BranchPairView) => (p.tier ? TIER_ORDER[p.tier] : 2);
  return rank(a) - rank(b) || (a.gitBranch ?? a.name).localeCompare(b.gitBranch ?? b.name);
}

/** Pairs under their parents. A pair whose parent is not listed (or that would close a loop) is a root. */
export function buildForest(pairs: readonly BranchPairView[]): TreeNode[] {
  const byName = new Map(pairs.map((p) => [p.name, p]));
  const children = new Map<string, BranchPairView[]>();
  const roots: BranchPairView[] = [];
  for (const pair of pairs) {
    const parent = pair.parent !== null && pair.parent !== pair.name ? byName.get(pair.parent) : undefined;
    if (parent && !reachesItself(pair, byName)) {
      const list = children.get(parent.name) ?? [];
      list.push(pair);
      children.set(parent.name, list);
    } else {
      roots.push(pair);
    }
  }
  const grow = (pair: BranchPairView): TreeNode => ({
    pair,
    children: (children.get(pair.name) ?? []).sort(compare).map(grow),
  });
  return roots.sort(compare).map(grow);
}

/** True when following parents from `pair` comes back to it: such a loop is shown flat, never followed forever. */
function reachesItself(pair: BranchPairView, byName: ReadonlyMap<string, BranchPairView>): boolean {
  const seen = new Set<string>([pair.name]);
  let current = pair.parent ? byName.get(pair.parent) : undefined;
  while (current) {
    if (seen.has(current.name)) return current.name === pair.name;
    seen.add(current.name);
    current = current.parent ? byName.get(current.parent) : undefined;
  }
  return false;
}

/** The rows a person sees: every root, and the children of every row not collapsed. */
export function visibleRows(forest: readonly TreeNode[], collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (nodes: readonly TreeNode[], level: number, parent: BranchPairView | null) => {
    nodes.forEach((node, index) => {
      const expanded = node.children.length > 0 && !collapsed.has(node.pair.name);
      rows.push({
        pair: node.pair,
        level,
        parentName: parent?.name ?? null,
        parentLabel: parent ? pairLabel(parent) : null,
        hasChildren: node.children.length > 0,
        expanded,
        position: index + 1,
        siblings: nodes.length,
      });
      if (expanded) walk(node.children, level + 1, node.pair);
    });
  };
  walk(forest, 1, null);
  return rows;
}

/** The label a person knows a pair by: its git branch, else the database name. */
export const pairLabel = (pair: BranchPairView): string => pair.gitBranch ?? pair.name;

/** True when the tree holds nothing but tiers: the empty state invites the first pair. */
export const onlyTiers = (pairs: readonly BranchPairView[]): boolean => pairs.every((p) => p.kind === 'tier');

/** `1536` → `1.5 KB`; null → `—` (the provider does not know). */
export function humanSize(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes) || bytes < 0) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

export type MarkerKey = 'tier' | 'masked' | 'orphan' | 'active' | 'expires';

export interface Marker {
  readonly key: MarkerKey;
  readonly word: string;
  /** What the marker means, for the tooltip and screen readers. */
  readonly title: string;
  readonly tone: 'info' | 'warning' | 'muted' | 'danger' | 'success';
}

export function markersOf(pair: BranchPairView, relative: (iso: string) => string): Marker[] {
  const markers: Marker[] = [];
  if (pair.tier)
    markers.push({ key: 'tier', word: pair.tier, title: `A protected ${pair.tier} tier: never deleted, never written by an agent.`, tone: 'info' });
  if (pair.masked)
    markers.push({ key: 'masked', word: 'masked', title: 'Masked: the project’s masking ran on this database before anything else connected.', tone: 'info' });
  if (pair.orphan === 'git-missing') {
    markers.push({
      key: 'orphan',
      word: 'no git branch',
      title: 'An orphan: the database branch exists but its git branch is gone. `baton branch gc` removes it.',
      tone: 'warning',
    });
  }
  if (pair.orphan === 'database-missing') {
    markers.push({
      key: 'orphan',
      word: 'no database',
      title: 'An orphan: the git branch exists but its database branch is gone. Delete the pair, or `baton branch gc` removes it.',
      tone: 'warning',
    });
  }
  if (pair.active)
    markers.push({ key: 'active', word: 'active', title: 'An active cycle uses this pair: it cannot be reset, deleted or collected.', tone: 'info' });
  if (pair.expiresAt) {
    const when = relative(pair.expiresAt);
    markers.push({ key: 'expires', word: `expires ${when}`, title: `Past ${pair.expiresAt}, \`baton branch gc\` may remove this pair.`, tone: 'muted' });
  }
  return markers;
}

/** A word on a row beyond the markers: what it says, what it means (tooltip), its tone. */
export interface RowFact {
  readonly word: string;
  readonly title: string;
  readonly tone: Marker['tone'];
}

/** Whether the pair's git branch is merged into its parent's (`parentLabel`), or null when that means nothing (a root, an orphan, a branch with nothing of its own yet, an older host). */
export function mergeFact(pair: BranchPairView, parentLabel: string | null): RowFact | null {
  if (pair.merged === null || pair.merged === undefined) return null;
  const parent = parentLabel ?? pair.parent ?? 'its parent';
  return pair.merged
    ? { word: `merged into ${parent}`, title: `Every commit of ${pairLabel(pair)} is in ${parent}.`, tone: 'info' }
    : { word: `not merged into ${parent}`, title: `${pairLabel(pair)} has commits that ${parent} does not have yet.`, tone: 'muted' };
}

const MIGRATION_TONE: Readonly<Record<MigrationState['state'], RowFact['tone']>> = {
  current: 'success',
  'code-ahead': 'info',
  'database-ahead': 'warning',
  diverged: 'warning',
  unknown: 'muted',
};

/** A pair's database against its code's migrations, in a few words; the full words (describeMigrationState) for the tooltip. */
export function migrationFact(label: string, migrations: MigrationState): RowFact {
  const word = {
    current: 'migrated',
    'code-ahead': `code ahead: ${migrations.codeAhead.length}`,
    'database-ahead': `database ahead: ${migrations.databaseAhead.length}`,
    diverged: 'diverged',
    unknown: 'migrations: unknown',
  }[migrations.state];
  return { word, title: describeMigrationState(label, migrations), tone: MIGRATION_TONE[migrations.state] };
}

/** Why Reset or Delete cannot act on a pair, or null when it can. */
export function blockedReason(pair: BranchPairView | null, action: 'reset' | 'delete'): string | null {
  if (!pair) return `Select a branch to ${action} it.`;
  if (pair.tier) return `${pairLabel(pair)} is a protected ${pair.tier} tier: tiers are never reset or deleted.`;
  if (pair.active) return `An active cycle uses ${pairLabel(pair)}: wait for it to finish, then ${action} it.`;
  if (action === 'reset' && !pair.database) return `${pairLabel(pair)} has no database to reset: delete the pair, or create it again.`;
  if (action === 'reset' && !pair.parent) return `${pairLabel(pair)} has no parent to fork from again.`;
  return null;
}

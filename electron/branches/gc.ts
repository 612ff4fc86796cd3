/**
 * Seeing the pairs as they are (registry, database branches, git branches and leases side by
 * side) and deciding what garbage collection may remove. Pure: the service gathers the facts and
 * carries out the plan. Orphans are either half of a pair without the other; expired pairs are
 * past their time-to-live. Tiers and pairs held by an active cycle are never candidates for removal.
 */
import type { BranchPairView, GcEntry, ProviderKind, Tier } from '../../shared/branches';
import { plainDatabaseName } from './names';
import type { DatabaseBranch } from './provider';
import type { RegistryEntry } from './registry';

export interface PairFacts {
  readonly entries: readonly RegistryEntry[];
  readonly databases: readonly DatabaseBranch[];
  readonly gitBranches: ReadonlySet<string>;
  /** Pair names with a live lease. */
  readonly leased: ReadonlySet<string>;
  /** Git branch → tier; includes the default branch. */
  readonly tiers: Readonly<Record<string, Tier>>;
  readonly defaultBranch: string;
  /** The default branch's database name. */
  readonly rootName: string;
  /** What the names of the databases Baton makes start with ('' for none). */
  readonly prefix?: string;
  readonly provider: ProviderKind;
}

interface Draft {
  readonly name: string;
  readonly gitBranch: string | null;
  readonly worktree: string | null;
  readonly parent: string | null;
  readonly db: DatabaseBranch | null;
  readonly entry: RegistryEntry | null;
  readonly tier: Tier | null;
  readonly orphan: BranchPairView['orphan'];
}

/** Every pair, in tree order (a parent before its children; tiers first, then by name). */
export function surveyPairs(facts: PairFacts): BranchPairView[] {
  const dbs = new Map(facts.databases.map((d) => [d.name, d]));
  const drafts: Draft[] = facts.entries.map((entry) => {
    const db = dbs.get(entry.name) ?? null;
    const orphan = !facts.gitBranches.has(entry.gitBranch) ? 'git-missing' : db === null ? 'database-missing' : null;
    return {
      name: entry.name,
      gitBranch: entry.gitBranch,
      worktree: entry.worktree,
      parent: entry.parent,
      db,
      entry,
      tier: facts.tiers[entry.gitBranch] ?? null,
      orphan,
    };
  });
  const registered = new Set(facts.entries.map((e) => e.name));
  if (!registered.has(facts.rootName)) {
    // The root tier is paired lazily (first create or url): until then it is not an orphan.
    const db = dbs.get(facts.rootName) ?? null;
    drafts.push({
      name: facts.rootName,
      gitBranch: facts.defaultBranch,
      worktree: null,
      parent: null,
      db,
      entry: null,
      tier: facts.tiers[facts.defaultBranch] ?? 'production',
      orphan: null,
    });
    registered.add(facts.rootName);
  }
  for (const db of ownDatabases(facts, registered)) {
    if (registered.has(db.name)) continue;
    // A database named exactly like a tier's git branch is that tier's, registered or not.
    const tierGit = Object.keys(facts.tiers).find((git) => plainDatabaseName(git, facts.prefix) === db.name);
    drafts.push({
      name: db.name,
      gitBranch: null,
      worktree: null,
      parent: db.parent,
      db,
      entry: null,
      tier: tierGit ? facts.tiers[tierGit]! : null,
      orphan: 'git-missing',
    });
  }
  return treeOrder(drafts).map(({ draft, parentKind }) => toView(draft, parentKind, facts));
}

/**
 * The database branches that belong to this project. A pglite data folder is the project's own.
 * A server (postgres) or cloud project may hold other projects' branches, even under a root of the
 * same name (`main`), so there only registered pairs and the descendants of registered non-root
 * pairs are ours: anything else is not ours to show as an orphan, let alone collect.
 */
function ownDatabases(facts: PairFacts, registered: ReadonlySet<string>): readonly DatabaseBranch[] {
  if (facts.provider === 'pglite') return facts.databases;
  const byName = new Map(facts.databases.map((d) => [d.name, d]));
  const ours = (db: DatabaseBranch): boolean => {
    if (registered.has(db.name)) return true;
    const seen = new Set<string>([db.name]);
    for (
      let at = db.parent === null ? undefined : byName.get(db.parent);
      at && !seen.has(at.name);
      at = at.parent === null ? undefined : byName.get(at.parent)
    ) {
      if (at.name !== facts.rootName && registered.has(at.name)) return true;
      seen.add(at.name);
    }
    return false;
  };
  return facts.databases.filter(ours);
}

function treeOrder(drafts: readonly Draft[]): { draft: Draft; parentKind: BranchPairView['kind'] | null }[] {
  const names = new Set(drafts.map((d) => d.name));
  const children = new Map<string | null, Draft[]>();
  for (const draft of drafts) {
    const key = draft.parent !== null && names.has(draft.parent) ? draft.parent : null;
    children.set(key, [...(children.get(key) ?? []), draft]);
  }
  const order = (list: Draft[]) => list.sort((a, b) => Number(b.tier !== null) - Number(a.tier !== null) || a.name.localeCompare(b.name));
  const out: { draft: Draft; parentKind: BranchPairView['kind'] | null }[] = [];
  const visit = (draft: Draft, parentKind: BranchPairView['kind'] | null, seen: Set<string>) => {
    if (seen.has(draft.name)) return; // a corrupt registry with a parent cycle must not loop
    seen.add(draft.name);
    out.push({ draft, parentKind });
    const kind = kindOf(draft, parentKind);
    for (const child of order(children.get(draft.name) ?? [])) visit(child, kind, seen);
  };
  const seen = new Set<string>();
  for (const root of order(children.get(null) ?? [])) visit(root, null, seen);
  // Whatever a cycle hid from the walk still appears, at the end.
  for (const draft of drafts) if (!seen.has(draft.name)) visit(draft, null, seen);
  return out;
}

function kindOf(draft: Draft, parentKind: BranchPairView['kind'] | null): BranchPairView['kind'] {
  if (draft.tier !== null) return 'tier';
  return parentKind === 'tier' || parentKind === null ? 'feature' : 'experiment';
}

function toView(draft: Draft, parentKind: BranchPairView['kind'] | null, facts: PairFacts): BranchPairView {
  const kind = kindOf(draft, parentKind);
  const createdAt = draft.entry?.createdAt ?? draft.db?.createdAt ?? null;
  const ttl = draft.entry?.ttlHours ?? null;
  const expiresAt = kind !== 'tier' && ttl !== null && createdAt !== null ? new Date(Date.parse(createdAt) + ttl * 3_600_000).toISOString() : null;
  const db = draft.db;
  return {
    name: draft.name,
    gitBranch: draft.gitBranch,
    worktree: draft.worktree,
    database: db && { name: db.name, provider: facts.provider, parent: db.parent, createdAt: db.createdAt, sizeBytes: db.sizeBytes, depth: db.depth },
    parent: draft.parent,
    tier: draft.tier,
    kind,
    masked: draft.entry?.masked ?? false,
    orphan: draft.orphan,
    createdAt,
    expiresAt,
    active: facts.leased.has(draft.name),
  };
}

export interface GcPlan {
  /** Children before their parents. */
  readonly remove: readonly (GcEntry & { readonly pair: BranchPairView })[];
  readonly kept: readonly GcEntry[];
}

/** What gc would remove now, and the candidates it must leave alone (with why). */
export function planGc(pairs: readonly BranchPairView[], now: Date): GcPlan {
  const reasonOf = (p: BranchPairView): GcEntry['reason'] | null =>
    p.orphan ?? (p.expiresAt !== null && Date.parse(p.expiresAt) <= now.getTime() ? 'expired' : null);
  const kept: GcEntry[] = [];
  const removable = new Map<string, GcEntry['reason']>();
  for (const pair of pairs) {
    const reason = reasonOf(pair);
    if (reason === null) continue;
    if (pair.kind === 'tier') kept.push({ name: pair.name, gitBranch: pair.gitBranch, reason: 'tier' });
    else if (pair.active) kept.push({ name: pair.name, gitBranch: pair.gitBranch, reason: 'active' });
    else removable.set(pair.name, reason);
  }
  // A pair whose child stays must stay too (a database branch cannot lose its parent under it).
  const byName = new Map(pairs.map((p) => [p.name, p]));
  for (let changed = true; changed;) {
    changed = false;
    for (const pair of pairs) {
      if (removable.has(pair.name) || pair.parent === null || !removable.has(pair.parent)) continue;
      const reason = removable.get(pair.parent)!;
      removable.delete(pair.parent);
      const parent = byName.get(pair.parent)!;
      // Kept because of a child: name the child's reason when it is an active one, else its own.
      kept.push({ name: parent.name, gitBranch: parent.gitBranch, reason: pair.active ? 'active' : reason });
      changed = true;
    }
  }
  const remove = [...pairs]
    .reverse()
    .filter((p) => removable.has(p.name))
    .map((pair) => ({ name: pair.name, gitBranch: pair.gitBranch, reason: removable.get(pair.name)!, pair }));
  return { remove, kept };
}

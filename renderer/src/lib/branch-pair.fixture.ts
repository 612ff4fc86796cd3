/** Test helper: a BranchPairView with every field filled, named fields patched (`kind` defaults to `defaultKind`). */
import type { BranchPairView } from '../../../shared/branches';

export function pairView(name: string, patch: Partial<BranchPairView> = {}, defaultKind: BranchPairView['kind'] = 'feature'): BranchPairView {
  return {
    name,
    gitBranch: name,
    worktree: `/wt/${name}`,
    database: { name, provider: 'pglite', parent: patch.parent ?? null, createdAt: null, sizeBytes: null, depth: 0 },
    parent: null,
    tier: null,
    kind: defaultKind,
    masked: false,
    orphan: null,
    createdAt: null,
    expiresAt: null,
    active: false,
    ...patch,
  };
}

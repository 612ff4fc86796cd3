import { describe, expect, it } from 'vitest';
import { pairView } from './branch-pair.fixture';
import type { BranchPairView } from '../../../shared/branches';
import { featureGitBranch, featurePath } from './run-path';

const pair = (name: string, patch: Partial<BranchPairView> = {}): BranchPairView => pairView(name, patch, 'experiment');

const main = pair('main', { kind: 'tier', tier: 'production', worktree: null });
const feature = pair('baton-f-inventory', { gitBranch: 'baton/f-inventory', parent: 'main', kind: 'feature', merged: false });
const s1 = pair('baton-f-inventory--s-1', { gitBranch: 'baton/f-inventory--s-1', parent: 'baton-f-inventory', merged: false });
const s2 = pair('baton-f-inventory--s-2', { gitBranch: 'baton/f-inventory--s-2', parent: 'baton-f-inventory--s-1', merged: false });
const other = pair('baton-f-other', { gitBranch: 'baton/f-other', parent: 'main', kind: 'feature' });
const otherStory = pair('baton-f-other--s-1', { gitBranch: 'baton/f-other--s-1', parent: 'baton-f-other' });

const shape = (rows: ReturnType<typeof featurePath>) => rows.map((r) => `${r.pair.gitBranch} → ${r.parentLabel ?? '∅'}`);

describe('the run path', () => {
  it('names the feature branch as the orchestrator does', () => {
    expect(featureGitBranch('F-inventory')).toBe('baton/f-inventory');
  });

  it('goes from the stacked story experiments through the feature pair to the tier, and leaves other features out', () => {
    expect(shape(featurePath([main, other, otherStory, feature, s1, s2], 'F-inventory'))).toEqual([
      'baton/f-inventory--s-2 → baton/f-inventory--s-1',
      'baton/f-inventory--s-1 → baton/f-inventory',
      'baton/f-inventory → main',
      'main → ∅',
    ]);
  });

  it('puts the later of two stories cut from the feature pair first', () => {
    const s10 = pair('baton-f-inventory--s-10', { gitBranch: 'baton/f-inventory--s-10', parent: 'baton-f-inventory' });
    const s3 = pair('baton-f-inventory--s-3', { gitBranch: 'baton/f-inventory--s-3', parent: 'baton-f-inventory' });
    expect(featurePath([main, feature, s3, s10], 'F-inventory').map((r) => r.pair.gitBranch)).toEqual([
      'baton/f-inventory--s-10',
      'baton/f-inventory--s-3',
      'baton/f-inventory',
      'main',
    ]);
  });

  it('is the feature pair and the tier once the stories are merged, and empty before the first PLAN', () => {
    expect(shape(featurePath([main, feature], 'F-inventory'))).toEqual(['baton/f-inventory → main', 'main → ∅']);
    expect(featurePath([main, other], 'F-inventory')).toEqual([]);
  });

  it('survives a parent loop and a parent that is not listed', () => {
    const a = pair('baton-f-x--a', { gitBranch: 'baton/f-x--a', parent: 'baton-f-x--b' });
    const b = pair('baton-f-x--b', { gitBranch: 'baton/f-x--b', parent: 'baton-f-x--a' });
    const lost = pair('baton-f-x', { gitBranch: 'baton/f-x', parent: 'gone', kind: 'feature' });
    expect(shape(featurePath([a, b, lost], 'F-x'))).toEqual(['baton/f-x--b → baton/f-x--a', 'baton/f-x--a → baton/f-x--b', 'baton/f-x → gone']);
  });
});

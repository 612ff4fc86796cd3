/**
 * The run panel's Path: where a feature's code stands, from its story experiments up to the tier.
 * The orchestrator builds each story on an experiment pair `baton/<feature>--<story>` (lower-cased),
 * cut from the feature pair `baton/<feature>` or from the previous story's experiment (stacked);
 * acceptance merges them into the feature branch and removes them. Pure, so it is tested without a DOM.
 */
import { featureBranch, type BranchPairView } from '../../../shared/branches';
import { pairLabel } from './branch-tree';

/** The feature pair's git branch, as the orchestrator names it (shared/branches.ts). */
export const featureGitBranch = featureBranch;

/** The prefix every story experiment of the feature's git branch has (shared/branches.ts, storyBranch). */
const storyPrefix = (feature: string): string => `${featureGitBranch(feature)}--`;

export interface PathRow {
  readonly pair: BranchPairView;
  /** The label of the pair this one forks from (and merges into), or null for a root. */
  readonly parentLabel: string | null;
}

/**
 * The feature's pairs from the leaves to the root: its story experiments (the most deeply stacked
 * first; among equals the later story first), then the feature pair, then its ancestors up to the
 * tier. Empty when the feature has no pair yet.
 */
export function featurePath(pairs: readonly BranchPairView[], feature: string): PathRow[] {
  const byName = new Map(pairs.map((p) => [p.name, p]));
  const parentOf = (p: BranchPairView): BranchPairView | undefined => (p.parent !== null && p.parent !== p.name ? byName.get(p.parent) : undefined);
  const row = (pair: BranchPairView): PathRow => {
    const parent = parentOf(pair);
    return { pair, parentLabel: parent ? pairLabel(parent) : pair.parent };
  };

  const prefix = storyPrefix(feature);
  const stories = pairs.filter((p) => p.gitBranch?.startsWith(prefix));
  const storyNames = new Set(stories.map((p) => p.name));
  /** How many story experiments a story stacks on (0 for one cut from the feature pair). */
  const depth = (pair: BranchPairView): number => {
    let count = 0;
    const seen = new Set([pair.name]);
    for (let up = parentOf(pair); up && storyNames.has(up.name) && !seen.has(up.name); up = parentOf(up)) {
      seen.add(up.name);
      count += 1;
    }
    return count;
  };
  const ordered = [...stories].sort((a, b) => depth(b) - depth(a) || pairLabel(b).localeCompare(pairLabel(a), undefined, { numeric: true }));

  const featurePair = pairs.find((p) => p.gitBranch === featureGitBranch(feature));
  const ancestors: BranchPairView[] = [];
  const seen = new Set([...storyNames, ...(featurePair ? [featurePair.name] : [])]);
  for (let up = featurePair ? parentOf(featurePair) : undefined; up && !seen.has(up.name); up = parentOf(up)) {
    seen.add(up.name);
    ancestors.push(up);
  }
  return [...ordered, ...(featurePair ? [featurePair] : []), ...ancestors].map(row);
}

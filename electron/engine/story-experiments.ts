/**
 * Story experiments: each story is built on its own experiment pair (git branch + database branch),
 * `baton/<feature>--<story>`, cut from the feature pair `baton/<feature>` — or, when an earlier
 * story of the feature is still unmerged, from that story's pair, so a later story builds on the
 * code of the earlier ones (the chain is merged in its order). A later round of an earlier story's
 * item (a revision, an amendment) builds at the tip of the chain, on the newest code. Once acceptance is approved the
 * orchestrator merges each story's experiment into the feature branch (a Baton merge commit per
 * story), migrates the feature database to the merged head, records `story.merged`, and removes the
 * experiment pair. A merge that conflicts is undone and stops the run with what to do.
 */
import { existsSync } from 'node:fs';
import { featureBranch, storyBranch, type BranchPairView } from '../../shared/branches';
import { RECORD_TYPES } from '../../shared/records';
import type { BranchService } from '../branches/service-api';
import type { CycleDeps, ExperimentPair } from './cycle-deps';
import { keepMigrated } from './feature-db';
import { git } from './git';
import { KeyedLock } from '../platform/keyed-lock';

const asPair = (p: BranchPairView): ExperimentPair | null =>
  p.gitBranch && p.database && p.worktree ? { gitBranch: p.gitBranch, worktree: p.worktree, database: p.database.name } : null;

/**
 * Makes (once) and returns the experiment pair of a story: the feature pair first (from the default
 * branch) when it does not exist, then the story's, from the nearest story it may stack on (`stackable`:
 * the stories before it in its lane, lanes.ts) that still has its pair, else from the feature pair.
 */
export function storyExperiments(
  branches: BranchService,
  feature: string,
  defaultBranch: string,
  stackable: (story: string) => Promise<readonly string[]>,
): StoryExperiments {
  const made = new Map<string, Promise<ExperimentPair>>();
  // Listing the pairs asks git whether each is merged (three processes a pair), and every cycle
  // step asks for its story's pair: a story's answer is kept until a pair is made or removed
  // (`forget`), or its worktree is gone (issue 17).
  const resolved = new Map<string, ExperimentPair>();
  const serial = new KeyedLock();
  const ensure = (gitBranch: string, parent: () => Promise<string>): Promise<ExperimentPair> => {
    let pair = made.get(gitBranch);
    if (!pair) {
      pair = (async () => {
        const existing = (await branches.list()).pairs.find((p) => p.gitBranch === gitBranch);
        const found = existing ? asPair(existing) : null;
        if (found) return found;
        // Lanes built at once make their pairs one at a time: one git repository, one branch service.
        const from = await parent();
        const created = await serial.run('create', () => branches.create(gitBranch, { parent: from, ttlHours: null }));
        // A new pair may stack on a story already resolved: every answer is asked again.
        resolved.clear();
        return { gitBranch, worktree: created.worktree, database: created.database };
      })();
      made.set(gitBranch, pair);
      pair.catch(() => made.delete(gitBranch));
    }
    return pair;
  };
  const featurePair = () => ensure(featureBranch(feature), async () => defaultBranch);
  const experiment = async (story: string): Promise<ExperimentPair> => {
    const known = resolved.get(story);
    if (known && existsSync(known.worktree)) return known;
    const pair = await resolve(story);
    resolved.set(story, pair);
    return pair;
  };
  const chained = `${featureBranch(feature)}--`;
  const resolve = async (story: string): Promise<ExperimentPair> => {
    const base = await featurePair();
    const gitBranch = storyBranch(feature, story);
    const pairs = (await branches.list()).pairs;
    const tip = pairs.find((p) => p.gitBranch === gitBranch && asPair(p));
    if (!tip) {
      // Not there (never made, or merged and removed since): made now, from the chain as it stands.
      made.delete(gitBranch);
      return ensure(gitBranch, async () => {
        const earlier = [...(await stackable(story))].reverse();
        const stacked = earlier.map((s) => pairs.find((p) => p.gitBranch === storyBranch(feature, s))).find((p) => p && asPair(p));
        return stacked?.gitBranch ?? base.gitBranch;
      });
    }
    // A later story is stacked on this one: a later round of this story's items (a revision, an
    // amendment) builds at the tip of the chain, so no story is built on code the chain has moved past.
    let top: BranchPairView = tip;
    for (;;) {
      const child = pairs.find((p) => p.parent === top.name && p.gitBranch?.startsWith(chained) && asPair(p));
      if (!child) return asPair(top)!;
      top = child;
    }
  };
  return Object.assign(experiment, {
    forget: () => {
      resolved.clear();
      made.clear();
    },
  });
}

/** A story's experiment pair, made once; `forget` after pairs were merged or removed outside it. */
export type StoryExperiments = ((story: string) => Promise<ExperimentPair>) & { forget(): void };

export interface MergedStory {
  readonly story: string;
  readonly experiment: string;
  readonly commit: string;
  readonly merge: string;
}

/**
 * Merges every story experiment of the feature into the feature branch, in chain order (parents
 * first), migrates the feature database, records each merge, and removes the experiment pairs
 * (children first). Idempotent: an experiment already merged is only removed.
 */
export async function mergeStoryExperiments(deps: CycleDeps, branches: BranchService, stories: readonly string[]): Promise<MergedStory[]> {
  const target = featureBranch(deps.feature);
  const pairs = (await branches.list()).pairs;
  const feature = pairs.find((p) => p.gitBranch === target);
  const featurePair = feature ? asPair(feature) : null;
  if (!featurePair) return [];
  const byStory = stories.flatMap((story) => {
    const pair = pairs.find((p) => p.gitBranch === storyBranch(deps.feature, story));
    return pair ? [{ story, pair, branch: storyBranch(deps.feature, story) }] : [];
  });
  const depth = (p: BranchPairView): number => {
    const parent = pairs.find((q) => q.name === p.parent);
    return parent && parent !== feature && parent.gitBranch?.startsWith(`${target}--`) ? 1 + depth(parent) : 0;
  };
  const chain = byStory.sort((a, b) => depth(a.pair) - depth(b.pair));
  // Chains cut from the feature pair itself: more than one means lanes were built in parallel.
  const lanes = chain.filter((c) => depth(c.pair) === 0).length;
  const merged: MergedStory[] = [];
  for (const { story, branch } of chain) {
    const commit = await git(deps.root, ['rev-parse', `refs/heads/${branch}`]);
    const before = await git(deps.root, ['rev-parse', `refs/heads/${target}`]);
    const contained = await git(deps.root, ['merge-base', '--is-ancestor', commit, before]).then(
      () => true,
      () => false,
    );
    if (!contained) {
      try {
        await git(featurePair.worktree, [
          '-c',
          'user.name=Baton',
          '-c',
          'user.email=orchestrator@baton.invalid',
          'merge',
          '--no-ff',
          '--no-verify',
          '-q',
          '-m',
          // Anchored to the newest record (the story's acceptance, or later): a ledger cut or rewritten before it no longer holds it.
          `Baton: story ${story} accepted — merge ${branch} into ${target}${await evidenceTrailer(deps.ledger)}`,
          branch,
        ]);
      } catch (error) {
        await git(featurePair.worktree, ['merge', '--abort']).catch(() => undefined);
        const why = (error as Error).message.split('\n')[0];
        // Stories of other lanes were built beside this one, not under it: sending it back would build it beside them again.
        throw new Error(
          lanes > 1
            ? `merging story ${story} (${branch}) into ${target} conflicts with a story built beside it (its story.json declared them independent, so they were built in parallel, lanes.ts), so nothing of it was merged: ${why}. They were not independent: name the story it needs in its story.json's depends_on (then approve the spec again and run: it is built on top of that story), or merge it by hand in ${featurePair.worktree} and run again.`
            : `merging story ${story} (${branch}) into ${target} conflicts, so nothing was merged: ${why}. Send the story back at acceptance (its items run again on top of the others), or merge it by hand in ${featurePair.worktree} and run again.`,
        );
      }
      const after = await git(deps.root, ['rev-parse', `refs/heads/${target}`]);
      await keepMigrated(deps, featurePair, before, after);
      const record = await deps.ledger.append({
        type: RECORD_TYPES.storyMerged,
        actor: { kind: 'orchestrator', id: 'baton' },
        subject: { feature: deps.feature, story },
        data: { story, experiment: branch, into: target, commit, merge: after },
      });
      deps.emit({ kind: 'recorded', type: RECORD_TYPES.storyMerged, hash: record.hash, item: null });
      merged.push({ story, experiment: branch, commit, merge: after });
    }
  }
  for (const { pair } of [...chain].reverse()) await branches.delete(pair.name);
  return merged;
}

/** The ledger's newest record as a `Baton-Evidence` trailer (none for an empty ledger, which cannot have accepted a story). */
async function evidenceTrailer(ledger: CycleDeps['ledger']): Promise<string> {
  const newest = (await ledger.read()).records.at(-1);
  return newest ? `\n\nBaton-Evidence: ${newest.hash}` : '';
}

/** A discarded story's experiment pair is removed (nothing of it is merged); no pair, nothing to do. */
export async function dropStoryExperiment(branches: BranchService, feature: string, story: string): Promise<void> {
  const pair = (await branches.list()).pairs.find((p) => p.gitBranch === storyBranch(feature, story));
  if (pair) await branches.delete(pair.name);
}

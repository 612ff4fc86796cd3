/**
 * Discarding a story at acceptance (a rejection with `discard`): allowed only for a story's
 * acceptance, and refused while a later story's experiment is built on this one's code (stories
 * are stacked: engine/story-experiments.ts) — that story must be discarded first.
 */
import { featureBranch, storyBranch } from '../../shared/branches';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { err, type Result } from '../../shared/result';
import { git } from '../platform/git';

const head = (root: string, branch: string): Promise<string | null> => git(root, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]).catch(() => null);
const contains = (root: string, ancestor: string, of: string): Promise<boolean> =>
  git(root, ['merge-base', '--is-ancestor', ancestor, of]).then(
    () => true,
    () => false,
  );

/** Null when the story may be discarded; otherwise the refusal, saying what to do. */
export async function discardRefusal(root: string, ref: { feature: string; story?: string | null | undefined; gate: string }): Promise<Result<never> | null> {
  if (ref.gate !== 'acceptance' || !ref.story)
    return err(
      'invalid-request',
      `Only a story's acceptance can be discarded (--gate acceptance --story S); to send ${ref.gate} back, reject it without --discard.`,
    );
  const own = await head(root, storyBranch(ref.feature, ref.story));
  if (own === null) return null;
  const into = await head(root, featureBranch(ref.feature));
  if (into !== null && (await contains(root, own, into))) return null;
  const prefix = `${featureBranch(ref.feature)}--`;
  const others = (await git(root, ['for-each-ref', '--format=%(refname:short)', `refs/heads/${prefix}*`]))
    .split('\n')
    .filter((b) => b && b !== storyBranch(ref.feature, ref.story!));
  const stacked: string[] = [];
  for (const branch of others) {
    const tip = await head(root, branch);
    if (tip && (await contains(root, own, tip))) stacked.push(branch);
  }
  if (stacked.length === 0) return null;
  return err(
    'has-children',
    `${ref.story} cannot be discarded alone: ${stacked.join(', ')} ${stacked.length === 1 ? 'is' : 'are'} built on its code. Discard ${stacked.length === 1 ? 'that story' : 'those stories'} first, or send ${ref.story} back to revise it instead.`,
  );
}

/** The feature's stories discarded at acceptance (and taken up by the orchestrator): no gate of theirs is waited for. */
export const discardedStories = (records: readonly LedgerRecord[], feature: string): Set<string> =>
  new Set(
    recordsOf(records, RECORD_TYPES.storyDiscarded)
      .filter((r) => r.subject.feature === feature)
      .map((r) => r.data.story),
  );

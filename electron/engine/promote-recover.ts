/**
 * A promotion Baton stopped in the middle of (a kill, a crash, a power cut) is rolled back before
 * the feature is promoted again (issue 32). Its `promote.started` record, written before anything
 * moved, with no `promote.done` or `promote.rolledback` after it, says what it was about to do; the
 * recorded state always allows a rollback, because the snapshot is taken before anything else moves:
 *
 * - the tier's branch goes back to its recorded commit when it holds Baton's merge of the recorded
 *   commits (the checkout too when it is on the tier); one that never moved is left alone; one moved
 *   by anyone else stops the recovery with what to check;
 * - the tier database is restored from the snapshot when the snapshot was registered (it was taken
 *   whole before the first migration), and is untouched otherwise (nothing had reached it);
 * - `promote.rolledback` is recorded with `failedAt: "interrupted"`, naming the intent.
 */
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import type { LedgerRecord } from '../../shared/ledger';
import { deleteGitBranch } from '../branches/git-pair';
import { git } from './git';
import type { PromoteRequest } from './promote';
import { undoMerge } from './promote-merge';

export type PromoteIntent = TypedRecord<typeof RECORD_TYPES.promoteStarted>;

/** The feature's promotion that started and never ended, or null. */
export function openPromoteIntent(records: readonly LedgerRecord[], feature: string): PromoteIntent | null {
  const started = recordsOf(records, RECORD_TYPES.promoteStarted)
    .filter((r) => r.subject.feature === feature)
    .at(-1);
  if (!started) return null;
  const ended = [...recordsOf(records, RECORD_TYPES.promoteDone), ...recordsOf(records, RECORD_TYPES.promoteRolledBack)].some(
    (r) => r.subject.feature === feature && r.seq > started.seq,
  );
  return ended ? null : started;
}

export interface PromoteRecovery {
  /** The `promote.rolledback` record's hash. */
  readonly record: string;
  /** What was found and done, in words. */
  readonly message: string;
}

/** Rolls back the feature's interrupted promotion, if there is one (null when there is none). Throws when it cannot be undone safely. */
export async function recoverPromote(request: PromoteRequest, say: (text: string) => void = () => undefined): Promise<PromoteRecovery | null> {
  const { root, ledger, branches, feature } = request;
  const intent = openPromoteIntent((await ledger.read()).records, feature);
  if (!intent) return null;
  const { tier, tierCommit, featureCommit, tierDatabase, snapshot, snapshotBranch } = intent.data;
  say(`a promotion of ${feature} was interrupted (promote.started #${intent.seq}): rolling it back first`);
  const head = await git(root, ['rev-parse', '--verify', `refs/heads/${tier}`]);
  let mergeCommit: string | null = null;
  let mergeUndone = true;
  if (head !== tierCommit) {
    const parents = (await git(root, ['rev-list', '--parents', '-n', '1', head])).split(' ').slice(1);
    if (parents[0] !== tierCommit || parents[1] !== featureCommit) {
      throw new Error(
        `A promotion of ${feature} was interrupted (ledger record #${intent.seq}), and ${tier} has moved since to ${head.slice(0, 12)}, which is not Baton's merge of ` +
          `${featureCommit.slice(0, 12)} into ${tierCommit.slice(0, 12)}: Baton cannot tell what to undo. Check ${tier} and the ${tierDatabase} database ` +
          `(its snapshot from before the promotion is ${snapshot}), then record the outcome by promoting again once ${tier} is as you want it.`,
      );
    }
    mergeCommit = head;
    const checkoutOnTier = (await git(root, ['symbolic-ref', '-q', 'HEAD']).catch(() => '')) === `refs/heads/${tier}`;
    mergeUndone = await undoMerge(root, { tier, tierCommit, checkoutOnTier }, head);
    say(mergeUndone ? `${tier} moved back to ${tierCommit.slice(0, 12)}` : `${tier} could not be moved back to ${tierCommit.slice(0, 12)}`);
  }
  const registered = (await branches.list()).pairs.some((p) => p.name === snapshot);
  let databaseRestored = true;
  if (registered) {
    databaseRestored = await branches.provider
      .reset(tierDatabase, { from: snapshot })
      .then(() => true)
      .catch((e: unknown) => (say(`restoring ${tierDatabase} failed: ${e instanceof Error ? e.message : String(e)}`), false));
    if (databaseRestored) say(`${tierDatabase} restored from ${snapshot}`);
  } else {
    // Stopped before the snapshot was whole: nothing had reached the tier database. Its half-made copy and branch go.
    await branches.provider.delete(snapshot).catch(() => undefined);
    await deleteGitBranch(root, snapshotBranch).catch(() => undefined);
  }
  const error = `Baton stopped during this promotion (promote.started #${intent.seq}); it was found unfinished and rolled back before promoting again.`;
  const record = await ledger.append({
    type: RECORD_TYPES.promoteRolledBack,
    actor: { kind: 'orchestrator', id: 'baton' },
    subject: { feature },
    data: {
      feature,
      tier,
      tierCommit,
      featureCommit,
      mergeCommit,
      snapshot,
      applied: [],
      ms: 0,
      failedAt: 'interrupted',
      error,
      mergeUndone,
      databaseRestored,
      intent: intent.hash,
    },
  });
  if (!mergeUndone || !databaseRestored) {
    throw new Error(
      `${error} But ${!mergeUndone ? `${tier} could not be moved back to ${tierCommit.slice(0, 12)}` : `${tierDatabase} could not be restored from ${snapshot}`}: ` +
        `fix that by hand (ledger record ${record.hash.slice(0, 12)} says what was found), then promote again.`,
    );
  }
  return { record: record.hash, message: error };
}

/**
 * The merged feature's verification (`feature.verified`, engine/verify-feature.ts) as the gates and
 * the run summary read it: one fold of the ledger, so `baton gates`, `baton status`, the Inbox and
 * the run's own stop all say the same. Stories built in separate lanes are each GREEN on their own
 * branch; only the merged branch, run on a fresh database with the migrations in file order, shows
 * whether they were really independent (issue 30). Pure.
 */
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import type { AppError } from '../../shared/result';

export type FeatureVerified = TypedRecord<typeof RECORD_TYPES.featureVerified>;

/** The feature's latest verification, or null when its merged branch was never verified. */
export function lastVerification(records: readonly LedgerRecord[], feature: string): FeatureVerified | null {
  return (
    recordsOf(records, RECORD_TYPES.featureVerified)
      .filter((r) => r.data.feature === feature)
      .at(-1) ?? null
  );
}

/**
 * The feature's failed verification while it is still the last word on the merged branch (no story
 * merged since: a later merge is verified again before anything goes on), else null.
 */
export function standingFailure(records: readonly LedgerRecord[], feature: string): FeatureVerified | null {
  const last = lastVerification(records, feature);
  if (!last || last.data.verdict !== 'failed') return null;
  const mergedSince = recordsOf(records, RECORD_TYPES.storyMerged).some((r) => r.subject.feature === feature && r.seq > last.seq);
  return mergedSince ? null : last;
}

const quoted = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(', ');

/** What failed, where, and what to do: the run's stop, the summary and the deploy gate's refusal. */
export function verificationFailure(record: FeatureVerified): string {
  const d = record.data;
  const tests = d.failing.map((f) => `${f.test}${f.stories.length ? ` (story ${f.stories.join(', ')})` : ''}`);
  const what = [
    tests.length ? `${tests.join('; ')} ${tests.length === 1 ? 'fails' : 'fail'}${d.flaky.length ? ` (flaky: ${d.flaky.join(', ')})` : ''}` : null,
    d.integrity.length ? `its runs could not be trusted (${d.integrity.join('; ')})` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(', and ');
  // The stories a failing test belongs to need the others named with them.
  const owners = [...new Set(d.failing.flatMap((f) => f.stories))];
  const needs = owners
    .map((owner) => [owner, d.stories.filter((s) => s !== owner)] as const)
    .filter(([, others]) => others.length > 0)
    .map(([owner, others]) => `"depends_on": [${quoted(others)}] in ${owner}'s story.json`);
  const apart = d.lanes.length > 1;
  const stories = !d.stories.length
    ? ''
    : apart
      ? ` Each story passed on its own branch, so ${d.stories.join(', ')} were built apart (declared independent) but are not independent.`
      : // One lane: every database of the build applied the migrations in the order the commits came, not in file order.
        ` ${d.stories.join(', ')} were built one on top of the other, each database of the build migrated commit by commit: in file order the migrations do not give the same database.`;
  return (
    `The merged feature ${d.feature} (${d.branch} at ${d.commit.slice(0, 12)}) fails its whole suite on a fresh database with every migration applied in file order (record #${record.seq}): ${what}.` +
    `${stories} Nothing after acceptance runs until the merged feature passes: no deploy, and the deploy gate cannot be approved.` +
    ` What to do: fix it on ${d.branch} (its worktree is ${d.worktree}) and commit, then run again: Baton verifies the new head.` +
    (apart && needs.length
      ? ` Declare the dependency too (${needs.join('; ')}), then approve the spec and those stories' acceptance again, so they are built in one lane, one on top of the other, from now on.`
      : '')
  );
}

/**
 * Why the deploy gate, or another story's acceptance, cannot be approved: the merged feature failed
 * its verification (the gate would approve a deploy of code whose suite fails on a fresh database,
 * or merge more into it). Null otherwise.
 */
export function verificationError(
  ref: { feature: string; gate: string; story?: string | null | undefined },
  records: readonly LedgerRecord[],
): AppError | null {
  if (ref.gate !== 'deploy' && ref.gate !== 'acceptance') return null;
  const failed = standingFailure(records, ref.feature);
  if (!failed) return null;
  // Accepting another story would merge it into a branch whose suite already fails.
  const story = ref.gate === 'acceptance' ? `Story ${ref.story ?? ''} cannot be accepted while the merged feature fails. ` : '';
  return { code: 'not-verified', message: `${story}${verificationFailure(failed)}` };
}

/**
 * A promote gate with nothing left to guard (issue 32): the feature's newest deploy has been
 * promoted already (by `baton promote`, which a person runs on purpose). Approving it would approve
 * nothing, so it is never offered as "Ready to decide". Pure over the ledger.
 */
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import type { AppError } from '../../shared/result';

/** Null unless `ref` is a promote gate whose feature's latest deploy was promoted since. */
export function promotedError(ref: { feature: string; gate: string }, records: readonly LedgerRecord[]): AppError | null {
  if (ref.gate !== 'promote') return null;
  const done = recordsOf(records, RECORD_TYPES.promoteDone)
    .filter((r) => r.data.feature === ref.feature)
    .at(-1);
  const deployed = recordsOf(records, RECORD_TYPES.deployRan)
    .filter((r) => r.data.feature === ref.feature)
    .at(-1);
  if (!done || (deployed && deployed.seq > done.seq)) return null;
  return {
    code: 'already-approved',
    message:
      `The promote gate of ${ref.feature} has nothing left to guard: ${ref.feature} was promoted to ${done.data.tier} at ${done.at} ` +
      `(merge ${done.data.mergeCommit.slice(0, 12)}, migrations ${done.data.applied.join(', ') || 'none'}; record #${done.seq}). A new deploy opens it again.`,
  };
}

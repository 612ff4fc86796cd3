/**
 * A gate sent back and being revised (`gate.revising`, engine/revise.ts) cannot be approved on the
 * old evidence: a story's acceptance waits until every item it sent round again has finished its
 * new cycle, and the deploy gate until the new deploy has run.
 */
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import type { AppError } from '../../shared/result';

export function revisingError(ref: { feature: string; story?: string | null | undefined; gate: string }, records: readonly LedgerRecord[]): AppError | null {
  const revising = recordsOf(records, RECORD_TYPES.gateRevising)
    .filter((r) => r.subject.feature === ref.feature && r.data.gate === ref.gate && (r.subject.story ?? null) === (ref.story ?? null))
    .at(-1);
  if (!revising) return null;
  const after = records.filter((r) => r.seq > revising.seq && r.subject.feature === ref.feature);
  if (ref.gate === 'deploy') {
    if (after.some((r) => r.type === RECORD_TYPES.deployRan)) return null;
    return {
      code: 'not-built',
      message: `The deploy gate of ${ref.feature} was sent back (record #${revising.seq}) and has not been deployed again yet: run the feature so Baton deploys it anew, then decide.`,
    };
  }
  const finished = new Set(after.filter((r) => r.type === RECORD_TYPES.cycleFinished).map((r) => r.subject.item));
  const waiting = revising.data.items.filter((item) => !finished.has(item));
  if (waiting.length === 0) return null;
  return {
    code: 'not-built',
    message: `${ref.story ?? ref.feature} was sent back (record #${revising.seq}) and ${waiting.join(', ')} ${waiting.length === 1 ? 'has' : 'have'} not finished the new round yet: run the feature, then decide on the revised work.`,
  };
}

/**
 * Test amendments: a person's proposal and a decision on a pending one. Each returns the Result so
 * the caller shows a refusal inline and keeps what was typed; main re-reads the project after
 * either is recorded.
 */
import type { LedgerRecord } from '../../../shared/ledger';
import type { AmendmentDecision } from '../../../shared/model';
import type { Result } from '../../../shared/result';
import { api } from '../../client';
import type { AmendmentDraft, AmendmentRef } from '../lib/amendment-model';

export function decideAmendment(ref: AmendmentRef, decision: AmendmentDecision, approver: string, note: string): Promise<Result<LedgerRecord>> {
  const trimmed = note.trim();
  return api.invoke('amendments:decide', { feature: ref.feature, amendment: ref.amendment, decision, approver, ...(trimmed ? { note: trimmed } : {}) });
}

/** Proposes new content for locked test files of `item` (those the draft changed), as `approver` (a person). */
export function proposeAmendment(
  feature: string,
  item: string,
  files: readonly { path: string; content: string }[],
  draft: Pick<AmendmentDraft, 'reason'>,
  approver: string,
): Promise<Result<LedgerRecord>> {
  return api.invoke('amendments:propose', { feature, item, files: [...files], reason: draft.reason.trim(), approver });
}

/**
 * Decisions on escalated items. Each returns the
 * Result so the caller shows its error inline; main re-reads the project after a decision.
 */
import type { LedgerRecord } from '../../../shared/ledger';
import type { EscalationDecision } from '../../../shared/model';
import type { Result } from '../../../shared/result';
import { api } from '../../client';
import type { EscalationRef } from '../lib/inbox-model';

export function decideEscalation(ref: EscalationRef, decision: EscalationDecision, approver: string, note: string): Promise<Result<LedgerRecord>> {
  const trimmed = note.trim();
  return api.invoke('escalations:decide', { feature: ref.feature, item: ref.item, decision, approver, ...(trimmed ? { note: trimmed } : {}) });
}

/**
 * Allows the item's code that tells a test run apart (every tell its violations named and no one
 * allowed yet), with the note as the recorded reason, then retries it: two records, and the retry
 * only once the allowance is in (a refused allowance decides nothing).
 */
export async function allowTellsAndRetry(ref: EscalationRef, approver: string, reason: string): Promise<Result<LedgerRecord>> {
  const allowed = await api.invoke('tells:allow', { feature: ref.feature, item: ref.item, reason: reason.trim(), approver });
  if (!allowed.ok) return allowed;
  return decideEscalation(ref, 'retry', approver, reason);
}

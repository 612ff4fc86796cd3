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

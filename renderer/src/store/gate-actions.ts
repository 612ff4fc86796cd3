/** Gate decisions and what they are about. Each returns the Result so the caller shows its error inline. */
import type { DriftEntry, GateEvidence, LedgerRecord } from '../../../shared/ledger';
import type { Result } from '../../../shared/result';
import { api } from '../../client';
import { requestOf, type GateRef } from '../lib/gate-ref';

/** The backend's code when an artifact's hash on disk differs from the one the person was shown. */
export const STALE_ARTIFACT = 'stale-artifact';

export const loadEvidence = (ref: GateRef): Promise<Result<GateEvidence>> => api.invoke('gates:evidence', requestOf(ref));

/** What an approval with exceptions sends: every unproven AC it accepts anyway, and why. */
export interface ApprovalExceptions {
  readonly acs: readonly string[];
  readonly reason: string;
}

/**
 * `expect` is exactly what was displayed: each artifact's hash as the evidence carried it. With
 * `exceptions` (a story's acceptance whose ACs are not all proven) the approval accepts them anyway.
 */
export function approveGate(
  ref: GateRef,
  approver: string,
  evidence: GateEvidence,
  viewedMs?: number,
  exceptions?: ApprovalExceptions,
): Promise<Result<LedgerRecord>> {
  const expect: Record<string, string> = {};
  for (const artifact of evidence.artifacts) if (artifact.sha256) expect[artifact.name] = artifact.sha256;
  const excepted = exceptions ? { exceptions: { acs: [...exceptions.acs], reason: exceptions.reason } } : {};
  return api.invoke('gates:approve', { ...requestOf(ref), approver, expect, ...viewed(viewedMs), ...excepted });
}

/** How long the evidence was open, recorded with the decision (whole milliseconds, within the contract's bounds). */
const viewed = (ms: number | undefined) => (ms === undefined ? {} : { viewedMs: Math.min(30 * 86_400_000, Math.max(0, Math.round(ms))) });

export const rejectGate = (ref: GateRef, approver: string, reason: string, viewedMs?: number): Promise<Result<LedgerRecord>> =>
  api.invoke('gates:reject', { ...requestOf(ref), approver, reason, ...viewed(viewedMs) });

export const withdrawGate = (ref: GateRef, approver: string, reason: string): Promise<Result<LedgerRecord>> =>
  api.invoke('gates:withdraw', { ...requestOf(ref), approver, reason });

/** What a withdrawal does besides reopening the gate (the backend cascades from spec). */
export const withdrawConsequence = (gate: string): string =>
  gate === 'spec' ? 'Withdrawing the spec also reopens the design and test_list gates.' : 'The gate reopens and waits for a new decision in the inbox.';

/** `expect` is the drift the person was shown: each drifted artifact's current hash (null when missing). */
export function restoreGate(ref: GateRef, approver: string, drift: readonly DriftEntry[]): Promise<Result<LedgerRecord>> {
  const expect = Object.fromEntries(drift.map((d) => [d.artifact, d.actual]));
  return api.invoke('gates:restore', { ...requestOf(ref), approver, expect });
}

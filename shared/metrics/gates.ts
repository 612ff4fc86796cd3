/**
 * How long a feature's gates waited for a person, and how long the person looked: each
 * `gate.approved` / `gate.rejected` with the `waitedMs` (opened for a decision → decided) and
 * `viewedMs` (the decider had the evidence open) the deciding screen recorded. Pure.
 */
import type { LedgerRecord } from '../ledger';
import { RECORD_TYPES, recordsOf } from '../records';
import { sumOf } from './turns';

export interface GateDecisionMetric {
  readonly gate: string;
  readonly story: string | null;
  readonly decision: 'approved' | 'rejected';
  readonly at: string;
  readonly by: string;
  /** Null when the decision recorded no timing (a decision made from the CLI). */
  readonly waitedMs: number | null;
  readonly viewedMs: number | null;
}

export interface GateLatency {
  readonly gate: string;
  readonly decisions: number;
  /** Over the decisions that recorded it; null when none did. */
  readonly meanWaitedMs: number | null;
  readonly maxWaitedMs: number | null;
  readonly meanViewedMs: number | null;
}

/** `records`: the feature's own, in ledger order. */
export function gateDecisions(records: readonly LedgerRecord[]): GateDecisionMetric[] {
  const decided = [
    ...recordsOf(records, RECORD_TYPES.gateApproved).map((r) => ({ r, data: r.data, decision: 'approved' as const })),
    ...recordsOf(records, RECORD_TYPES.gateRejected).map((r) => ({ r, data: r.data, decision: 'rejected' as const })),
  ].sort((a, b) => a.r.seq - b.r.seq);
  return decided.map(({ r, data, decision }) => ({
    gate: r.subject.gate ?? data.gate ?? 'unknown',
    story: r.subject.story ?? null,
    decision,
    at: r.at,
    by: data.approver,
    waitedMs: data.waitedMs ?? null,
    viewedMs: data.viewedMs ?? null,
  }));
}

const mean = (values: readonly number[]): number | null => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);
const recorded = (values: readonly (number | null)[]): number[] => values.flatMap((v) => (v === null ? [] : [v]));

/** Per gate name (a story's acceptance gates together), in the order first decided. */
export function gateLatency(decisions: readonly GateDecisionMetric[]): GateLatency[] {
  const names = [...new Set(decisions.map((d) => d.gate))];
  return names.map((gate) => {
    const mine = decisions.filter((d) => d.gate === gate);
    const waited = recorded(mine.map((d) => d.waitedMs));
    return {
      gate,
      decisions: mine.length,
      meanWaitedMs: mean(waited),
      maxWaitedMs: waited.length ? Math.max(...waited) : null,
      meanViewedMs: mean(recorded(mine.map((d) => d.viewedMs))),
    };
  });
}

/** The total time the decisions waited; null when none recorded it. */
export const totalWaitedMs = (decisions: readonly GateDecisionMetric[]): number | null => sumOf(decisions, (d) => d.waitedMs);

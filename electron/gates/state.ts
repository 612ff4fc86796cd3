/**
 * The state of every Baton gate, folded from the ledger's gate.* records. The ledger is the only
 * source: nothing about a Baton gate's decision is stored anywhere else.
 */
import { type BlobRef, type GateName, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordOf } from '../../shared/records';
import { recordHash } from '../ledger';
import { downstreamOf, isGateName } from './definitions';
import type { ApprovedArtifact } from './drift';
import type { GateExceptions } from '../../shared/model';

export type FoldStatus = 'open' | 'approved' | 'rejected' | 'withdrawn';

export interface GateApproval {
  readonly seq: number;
  readonly at: string;
  readonly approver: string;
  readonly comment: string | null;
  readonly artifacts: readonly ApprovedArtifact[];
  /** The frozen contents, one blob per artifact, named by artifact path. */
  readonly blobs: readonly BlobRef[];
  /** An acceptance approved with exceptions: each unproven AC and why, and the approver's reason; null for a plain approval. */
  readonly exceptions: GateExceptions | null;
}

export interface GateFold {
  readonly feature: string;
  readonly story: string | null;
  readonly gate: GateName;
  readonly status: FoldStatus;
  /** The approval in force; null unless status is approved. */
  readonly approval: GateApproval | null;
  /** The latest approval ever recorded, in force or not: "what was approved before". */
  readonly lastApproval: GateApproval | null;
  /** The approval taken back, while the gate stays withdrawn. */
  readonly withdrawn: GateApproval | null;
  /** The approver's comment, or the reason of the latest rejection, withdrawal or reopening. */
  readonly note: string | null;
  /** seq of the record that set the current status; null for a gate reopened before any decision. */
  readonly seq: number | null;
  /** The hash of the rejection in force (status rejected), or of the latest one. */
  readonly rejection?: string;
  /** What the rejection in force was of: its artifacts' hashes (absent in a rejection that recorded none). */
  readonly rejectedArtifacts?: readonly ApprovedArtifact[];
  /** Who rejected or withdrew the gate, and when: the decision in force while it stays rejected or withdrawn. */
  readonly decidedBy: GateDecider | null;
}

export interface GateDecider {
  readonly who: string;
  readonly at: string;
}

export interface GateRefKey {
  readonly feature: string;
  readonly story?: string | null;
  readonly gate: string;
}

export const gateKey = (ref: GateRefKey): string => JSON.stringify([ref.feature, ref.story ?? null, ref.gate]);

/** Blank text (a comment or reason of only spaces) is no text. */
const text = (value: string | null | undefined): string | null => (value !== undefined && value !== null && value.trim() !== '' ? value : null);

const blank = (feature: string, story: string | null, gate: GateName): GateFold => ({
  feature,
  story,
  gate,
  status: 'open',
  approval: null,
  lastApproval: null,
  withdrawn: null,
  note: null,
  seq: null,
  decidedBy: null,
});

/** The record still hashes to its own `hash`: an edited one must not decide anything (verify names it). */
const intact = (record: LedgerRecord): boolean => {
  try {
    return recordHash(record) === record.hash;
  } catch {
    return false;
  }
};

/** Key → fold for every gate any gate.* record names. Gates never decided are simply absent (open). */
export const foldGates = (records: readonly LedgerRecord[]): Map<string, GateFold> => {
  const folds = new Map<string, GateFold>();
  for (const record of records) {
    // Fail closed: a rejection or withdrawal takes the approval back even when its data is malformed
    // (verify names it; only its words are lost). A malformed approval, or one whose record no longer
    // hashes to its own hash (edited after it was written), approves nothing.
    const candidate = recordOf(record, RECORD_TYPES.gateApproved);
    const approved = candidate && intact(record) ? candidate : null;
    const rejected = record.type === RECORD_TYPES.gateRejected ? { data: recordOf(record, RECORD_TYPES.gateRejected)?.data } : null;
    const withdrawn = record.type === RECORD_TYPES.gateWithdrawn ? { data: recordOf(record, RECORD_TYPES.gateWithdrawn)?.data } : null;
    const revising = recordOf(record, RECORD_TYPES.gateRevising);
    const { feature } = record.subject;
    if (revising) {
      reviseFold(folds, record, revising.data);
      continue;
    }
    const gate = record.subject.gate ?? (approved ?? rejected ?? withdrawn)?.data?.gate;
    if (!(approved || rejected || withdrawn) || typeof feature !== 'string' || gate === undefined || !isGateName(gate)) continue;
    const story = record.subject.story ?? null;
    const key = gateKey({ feature, story, gate });
    const before = folds.get(key) ?? blank(feature, story, gate);
    if (approved) {
      const { data } = approved;
      const approval: GateApproval = {
        seq: record.seq,
        at: record.at,
        approver: text(data.approver) ?? record.actor.id,
        comment: text(data.comment),
        artifacts: Object.entries(data.artifacts).map(([name, a]) => ({ name, sha256: a.sha256, algorithm: a.algorithm })),
        blobs: record.blobs,
        exceptions: data.exceptions?.length ? { acs: data.exceptions, reason: data.exceptionReason ?? '' } : null,
      };
      folds.set(key, {
        ...before,
        status: 'approved',
        approval,
        lastApproval: approval,
        withdrawn: null,
        note: approval.comment,
        seq: record.seq,
        decidedBy: null,
      });
    } else if (rejected) {
      folds.set(key, {
        ...before,
        status: 'rejected',
        approval: null,
        withdrawn: null,
        note: text(rejected.data?.reason),
        seq: record.seq,
        rejection: record.hash,
        rejectedArtifacts: rejected.data?.artifacts
          ? Object.entries(rejected.data.artifacts).map(([name, a]) => ({ name, sha256: a.sha256, algorithm: a.algorithm }))
          : undefined,
        decidedBy: { who: text(rejected.data?.approver) ?? record.actor.id, at: record.at },
      });
    } else {
      const reason = text(withdrawn?.data?.reason);
      folds.set(key, {
        ...before,
        status: 'withdrawn',
        approval: null,
        withdrawn: before.approval ?? before.withdrawn,
        note: reason,
        seq: record.seq,
        decidedBy: { who: text(withdrawn?.data?.approver) ?? record.actor.id, at: record.at },
      });
      reopen(folds, withdrawn?.data?.reopened, record.seq, feature, gate, reason);
    }
  }
  return folds;
};

/**
 * The orchestrator took up the rejection it names: the gate is open again (waiting for a decision
 * on the revised work). A revising record for any other state (a later decision came first) changes nothing.
 */
const reviseFold = (folds: Map<string, GateFold>, record: LedgerRecord, data: { gate: string; rejection: string; note: string | null }): void => {
  const { feature } = record.subject;
  if (typeof feature !== 'string' || !isGateName(data.gate)) return;
  const key = gateKey({ feature, story: record.subject.story ?? null, gate: data.gate });
  const before = folds.get(key);
  if (before?.status !== 'rejected' || before.rejection !== data.rejection) return;
  folds.set(key, { ...before, status: 'open', note: `sent back${data.note ? `: ${data.note}` : ''}; revising`, seq: record.seq });
};

/**
 * The cascade: approvals of the gates named in `data.reopened` (every downstream gate when a record
 * lacks the list) return to open. Acceptance is per story, so every story's acceptance reopens.
 */
const reopen = (
  folds: Map<string, GateFold>,
  listed: readonly string[] | undefined,
  seq: number,
  feature: string,
  gate: GateName,
  reason: string | null,
): void => {
  const names: readonly string[] = listed ?? downstreamOf(gate);
  const note = `reopened: the ${gate} gate was withdrawn${reason ? ` (${reason})` : ''}`;
  for (const [key, fold] of folds) {
    if (fold.feature === feature && names.includes(fold.gate) && fold.status === 'approved') {
      folds.set(key, { ...fold, status: 'open', approval: null, note, seq });
    }
  }
};

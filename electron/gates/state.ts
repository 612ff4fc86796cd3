/**
 * The state of every Baton gate, folded from the ledger's gate.* records. The ledger is the only
 * source: nothing about a Baton gate's decision is stored anywhere else.
 */
import { RECORD_TYPES, type BlobRef, type GateName, type HashAlgorithm, type LedgerRecord } from '../../shared/ledger';
import { isObject } from '../project/fields';
import { downstreamOf, isGateName } from './definitions';
import type { ApprovedArtifact } from './drift';

export type FoldStatus = 'open' | 'approved' | 'rejected' | 'withdrawn';

export interface GateApproval {
  readonly seq: number;
  readonly at: string;
  readonly approver: string;
  readonly comment: string | null;
  readonly artifacts: readonly ApprovedArtifact[];
  /** The frozen contents, one blob per artifact, named by artifact path. */
  readonly blobs: readonly BlobRef[];
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
}

export interface GateRefKey {
  readonly feature: string;
  readonly story?: string | null;
  readonly gate: string;
}

export const gateKey = (ref: GateRefKey): string => JSON.stringify([ref.feature, ref.story ?? null, ref.gate]);

const HASH = /^[0-9a-f]{64}$/;
const ALGORITHMS: readonly HashAlgorithm[] = ['jcs-sha256', 'text-sha256'];

/** The approval's `data.artifacts`, or null when malformed (such a record approves nothing). */
const approvedArtifacts = (value: unknown): ApprovedArtifact[] | null => {
  if (!isObject(value)) return null;
  const artifacts: ApprovedArtifact[] = [];
  for (const [name, entry] of Object.entries(value)) {
    if (!isObject(entry) || typeof entry['sha256'] !== 'string' || !HASH.test(entry['sha256'])) return null;
    const algorithm = entry['algorithm'];
    if (!ALGORITHMS.includes(algorithm as HashAlgorithm)) return null;
    artifacts.push({ name, sha256: entry['sha256'], algorithm: algorithm as HashAlgorithm });
  }
  return artifacts.length === 0 ? null : artifacts;
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

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
});

/** Key → fold for every gate any gate.* record names. Gates never decided are simply absent (open). */
export const foldGates = (records: readonly LedgerRecord[]): Map<string, GateFold> => {
  const folds = new Map<string, GateFold>();
  for (const record of records) {
    const { feature } = record.subject;
    const gate = record.subject.gate ?? record.data['gate'];
    if (typeof feature !== 'string' || typeof gate !== 'string' || !isGateName(gate)) continue;
    const story = record.subject.story ?? null;
    const key = gateKey({ feature, story, gate });
    const before = folds.get(key) ?? blank(feature, story, gate);
    if (record.type === RECORD_TYPES.gateApproved) {
      const artifacts = approvedArtifacts(record.data['artifacts']);
      if (artifacts === null) continue;
      const approval: GateApproval = {
        seq: record.seq,
        at: record.at,
        approver: text(record.data['approver']) ?? record.actor.id,
        comment: text(record.data['comment']),
        artifacts,
        blobs: record.blobs,
      };
      folds.set(key, { ...before, status: 'approved', approval, lastApproval: approval, withdrawn: null, note: approval.comment, seq: record.seq });
    } else if (record.type === RECORD_TYPES.gateRejected) {
      folds.set(key, { ...before, status: 'rejected', approval: null, withdrawn: null, note: text(record.data['reason']), seq: record.seq });
    } else if (record.type === RECORD_TYPES.gateWithdrawn) {
      const reason = text(record.data['reason']);
      folds.set(key, { ...before, status: 'withdrawn', approval: null, withdrawn: before.approval ?? before.withdrawn, note: reason, seq: record.seq });
      reopen(folds, record, feature, gate, reason);
    }
  }
  return folds;
};

/**
 * The cascade: approvals of the gates named in `data.reopened` (every downstream gate when a record
 * lacks the list) return to open. Acceptance is per story, so every story's acceptance reopens.
 */
const reopen = (folds: Map<string, GateFold>, record: LedgerRecord, feature: string, gate: GateName, reason: string | null): void => {
  const listed = record.data['reopened'];
  const names = Array.isArray(listed) ? listed.filter((name): name is string => typeof name === 'string') : downstreamOf(gate);
  const note = `reopened: the ${gate} gate was withdrawn${reason ? ` (${reason})` : ''}`;
  for (const [key, fold] of folds) {
    if (fold.feature === feature && names.includes(fold.gate) && fold.status === 'approved') {
      folds.set(key, { ...fold, status: 'open', approval: null, note, seq: record.seq });
    }
  }
};

/**
 * Whether a Baton gate may be approved now, fail closed. The same checks run for a decision (inside
 * the ledger transaction) and for the evidence panel's "approvable", so the UI never offers what
 * the backend would refuse.
 */
import type { AppError, AppErrorCode } from '../../shared/result';
import { artifactsIn, PREREQUISITE } from './definitions';
import { approvalDrift, sameHashes } from './drift';
import { artifactError, currentHashes, describeRef, type ArtifactSnapshot, type GateRef, type LocatedGate } from './artifacts';
import { gateKey, type GateFold } from './state';
import { conformanceError, gateConformance } from './conformance';
import { amendmentError } from './amendments';
import { revisingError } from './revising';
import { verificationError } from './feature-verified';
import { acceptanceProofError } from './acceptance-proof';
import { promotedError } from './promoted';
import type { LedgerRecord } from '../../shared/ledger';
import type { Layout } from '../../shared/model';

const fail = (code: AppErrorCode, message: string): AppError => ({ code, message });

/** The prerequisite must be approved and still match its approved content. */
const prerequisiteError = async (located: LocatedGate, ref: GateRef, folds: ReadonlyMap<string, GateFold>): Promise<AppError | null> => {
  const pre = PREREQUISITE[ref.gate];
  if (pre === null) return null;
  const fold = folds.get(gateKey({ feature: ref.feature, gate: pre }));
  if (!fold || fold.status !== 'approved' || fold.approval === null) {
    return fail(
      'prerequisite',
      `Cannot approve ${describeRef(ref)}: the ${pre} gate comes first and is ${fold?.status ?? 'open'}. Approve the ${pre} gate of ${ref.feature} first.`,
    );
  }
  // The prerequisite is a feature-level gate (acceptance is nobody's prerequisite), so no story folder.
  const covered = await artifactsIn(located.site.featureDir, pre, null);
  const drift = await approvalDrift(located.site.root, located.site.featureDir, fold.approval.artifacts, covered);
  if (drift.length > 0) {
    return fail(
      'prerequisite',
      `Cannot approve ${describeRef(ref)}: the ${pre} gate it builds on has drifted (${drift.map((d) => d.artifact).join(', ')} changed since it was approved). Re-approve or withdraw the ${pre} gate first.`,
    );
  }
  return null;
};

/** The gate's own state: approved and unchanged, or withdrawn and unchanged, is refused. */
const stateError = async (located: LocatedGate, ref: GateRef, fold: GateFold | undefined, now: Record<string, string>): Promise<AppError | null> => {
  if (fold?.status === 'approved' && fold.approval) {
    // A file the gate now covers that the approval did not (a new AC) is new content to approve.
    const drift = await approvalDrift(located.site.root, located.site.featureDir, fold.approval.artifacts, located.names);
    if (drift.length === 0) {
      return fail(
        'already-approved',
        `${describeRef(ref)} is already approved (by ${fold.approval.approver} at ${fold.approval.at}) and its artifacts have not changed; there is nothing new to approve.`,
      );
    }
  }
  if (fold?.status === 'withdrawn' && fold.withdrawn) {
    const withdrawn = Object.fromEntries(fold.withdrawn.artifacts.map((a) => [a.name, a.sha256]));
    if (sameHashes(withdrawn, now)) {
      return fail(
        'withdrawn-unchanged',
        `${describeRef(ref)} was withdrawn${fold.note ? ` (${fold.note})` : ''} and its artifacts are exactly the ones withdrawn. Change the artifacts first, then approve the new version.`,
      );
    }
  }
  return null;
};

/** null when the gate could be approved now; otherwise the first reason it cannot. */
export const approvalBlocker = async (
  located: LocatedGate,
  ref: GateRef,
  folds: ReadonlyMap<string, GateFold>,
  snapshots: readonly ArtifactSnapshot[],
  layout: Layout,
  records: readonly LedgerRecord[],
  /** The unproven ACs an approval with exceptions names (acceptance only). */
  excepted: readonly string[] = [],
): Promise<AppError | null> =>
  // First: a promote gate whose deploy was promoted already has nothing to approve, whatever else holds.
  promotedError(ref, records) ??
  (await prerequisiteError(located, ref, folds)) ??
  // Before the evidence files: a failed merged suite says what to do, a missing deploy-evidence.json does not.
  verificationError(ref, records) ??
  artifactError(snapshots, ref) ??
  conformanceError(ref, await gateConformance(located, ref.gate, layout)) ??
  amendmentError(ref, records) ??
  revisingError(ref, records) ??
  (await stateError(located, ref, folds.get(gateKey(ref)), currentHashes(snapshots))) ??
  // Last: when the only thing missing is proof, the evidence panel offers "Approve with exceptions".
  acceptanceProofError(located.feature, ref, records, excepted);

/** `expect` must name exactly the current artifacts with exactly their current hashes. */
export const staleError = (ref: GateRef, expect: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): AppError | null => {
  if (sameHashes(expect, now)) return null;
  const changed = Object.keys(now).filter((name) => expect[name] !== undefined && expect[name] !== now[name]);
  const unseen = Object.keys(now).filter((name) => expect[name] === undefined);
  const gone = Object.keys(expect).filter((name) => now[name] === undefined);
  const parts = [
    changed.length > 0 ? `changed since you reviewed it: ${changed.join(', ')}` : null,
    unseen.length > 0 ? `not among what you reviewed: ${unseen.join(', ')}` : null,
    gone.length > 0 ? `reviewed but no longer part of the gate: ${gone.join(', ')}` : null,
  ].filter((part): part is string => part !== null);
  return fail(
    'stale-artifact',
    `Cannot approve ${describeRef(ref)}: what is on disk is not what you were shown (${parts.join('; ')}). Reload the evidence, review it again and approve what you see.`,
  );
};

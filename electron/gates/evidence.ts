/**
 * What a Product Owner sees before deciding a gate: each artifact as it is now and as it was last
 * approved, a summary of the feature's progress, and whether an approval could succeed (computed by
 * the same checks a decision runs, so the UI never offers what the backend would refuse).
 */
import type { EvidenceArtifact, GateEvidence } from '../../shared/ledger';
import { readOnlyReason } from '../../shared/read-only';
import { recordOf, RECORD_TYPES, type TypedRecord } from '../../shared/records';
import type { Feature, Gate, ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import type { Ledger } from '../ledger';
import { readProject } from '../project';
import { locateGate, snapshotArtifacts, type ArtifactSnapshot, type GateRef, type LocatedGate } from './artifacts';
import { approvalBlocker } from './checks';
import { gateConformance } from './conformance';
import { artifactsIn, batonGateName } from './definitions';
import { textOf } from './files';
import { batonGate, foreignGate } from './gate-view';
import { featureSites } from './site';
import { evidenceSummary } from './proof';
import { foldGates, gateKey, type GateApproval } from './state';

const readOnlyGates = (view: ProjectView): string => readOnlyReason(view, 'gates') ?? 'This project is read-only.';

const current = (s: ArtifactSnapshot, approved: EvidenceArtifact['approved'], fallback: EvidenceArtifact['algorithm']): EvidenceArtifact => ({
  name: s.name,
  algorithm: s.hash?.algorithm ?? fallback,
  sha256: s.hash?.sha256 ?? null,
  text: s.text,
  problem: s.problem,
  approved,
});

/** The text a decision kept of one artifact, from its blob (null when binary, absent or there is no ledger). */
const keptText = async (ledger: Ledger | null, blobs: readonly { name: string; sha256: string }[], name: string): Promise<string | null> => {
  const blob = blobs.find((b) => b.name === name);
  const bytes = blob && ledger ? await ledger.readBlob(blob.sha256) : null;
  return bytes ? textOf(bytes) : null;
};

/** The frozen text of one artifact of an approval. */
const frozen = async (ledger: Ledger | null, approval: GateApproval, name: string): Promise<EvidenceArtifact['approved']> => {
  const artifact = approval.artifacts.find((a) => a.name === name);
  if (!artifact) return null;
  return { sha256: artifact.sha256, text: await keptText(ledger, approval.blobs, name), approvedAt: approval.at, approver: approval.approver };
};

/** One artifact as a rejection recorded it (its hash, and its text from the blob when the rejection kept one). */
const sentBackVersion = async (
  ledger: Ledger | null,
  rejection: TypedRecord<typeof RECORD_TYPES.gateRejected>,
  name: string,
): Promise<EvidenceArtifact['sentBack']> => {
  const hash = rejection.data.artifacts?.[name];
  if (!hash) return null;
  return {
    sha256: hash.sha256,
    text: await keptText(ledger, rejection.blobs, name),
    at: rejection.at,
    by: rejection.data.approver,
    reason: rejection.data.reason,
  };
};

/** The newest approval in force at another gate of the feature that approved exactly this version of `name`. */
const approvedElsewhere = (folds: ReturnType<typeof foldGates>, ref: GateRef, name: string, sha256: string | null): EvidenceArtifact['approvedElsewhere'] => {
  let found: NonNullable<EvidenceArtifact['approvedElsewhere']> | null = null;
  for (const [key, fold] of folds) {
    if (fold.feature !== ref.feature || key === gateKey(ref) || sha256 === null) continue;
    const approval = fold.approval;
    if (!approval?.artifacts.some((a) => a.name === name && a.sha256 === sha256)) continue;
    if (found === null || approval.at > found.approvedAt) found = { gate: fold.gate, sha256, approvedAt: approval.at, approver: approval.approver };
  }
  return found;
};

const batonEvidence = async (view: ProjectView, ledger: Ledger | null, ref: GateRef): Promise<Result<GateEvidence>> => {
  const records = ledger ? (await ledger.read()).records : [];
  // The disk as it is now: the caller's view may be older than the files.
  const fresh = await readProject(view.root);
  if (!fresh.ok) return fresh;
  const located = await locateGate(fresh.value, ref);
  if (!located.ok) return located;
  const folds = foldGates(records);
  const fold = folds.get(gateKey(ref));
  const last = fold?.lastApproval ?? null;
  const snapshots = await snapshotArtifacts(fresh.value, located.value);
  // Rejected, or sent back and being revised: the revision is compared with what was sent back.
  const rejection =
    fold?.rejection && (fold.status === 'rejected' || fold.status === 'open')
      ? recordOf(
          records.find((r) => r.hash === fold.rejection),
          RECORD_TYPES.gateRejected,
        )
      : null;
  const artifacts = await Promise.all(
    snapshots.map(async (s) => ({
      ...current(s, last ? await frozen(ledger, last, s.name) : null, s.name.endsWith('.json') ? 'jcs-sha256' : 'text-sha256'),
      ...(rejection ? { sentBack: await sentBackVersion(ledger, rejection, s.name) } : {}),
      ...(last?.artifacts.some((a) => a.name === s.name) ? {} : { approvedElsewhere: approvedElsewhere(folds, ref, s.name, s.hash?.sha256 ?? null) }),
    })),
  );
  // An artifact approved before but no longer covered (a deleted AC) is shown, so its removal is seen.
  for (const gone of last?.artifacts.filter((a) => !located.value.names.includes(a.name)) ?? []) {
    artifacts.push({
      name: gone.name,
      algorithm: gone.algorithm,
      sha256: null,
      text: null,
      problem: 'was approved before but is no longer part of this gate (removed)',
      approved: await frozen(ledger, last!, gone.name),
    });
  }
  const gate = await batonGate(located.value.site, ref.gate, located.value.story, fold);
  const blocker = view.readOnly ? null : await approvalBlocker(located.value, ref, folds, snapshots, view.layout, records);
  const conformance = await gateConformance(located.value, ref.gate, view.layout);
  return ok({
    feature: ref.feature,
    story: located.value.story,
    gate: ref.gate,
    status: gate.status,
    artifacts,
    summary: evidenceSummary(located.value.feature, records, located.value.story),
    conformance,
    approvable: view.readOnly
      ? { ok: false, reason: readOnlyGates(view) }
      : { ok: blocker === null, reason: blocker?.message ?? null, ...(blocker ? { code: blocker.code } : {}) },
  });
};

/** A Consort gate by Baton's name (Consort's `plan` is `design`), preferring an exact name match. */
const findForeign = (feature: Feature, ref: GateRef): Gate | undefined => {
  const story = ref.story ?? null;
  const candidates = feature.gates.filter((g) => batonGateName(g.name) === ref.gate && g.story === story);
  return candidates.find((g) => g.name === ref.gate) ?? candidates[0];
};

const foreignEvidence = async (view: ProjectView, ref: GateRef): Promise<Result<GateEvidence>> => {
  const feature = view.features.find((f) => f.id === ref.feature);
  if (!feature) return err('not-found', `There is no feature "${ref.feature}" in ${view.root}. Check the feature id.`);
  const site = await (await featureSites(view))(feature.id);
  if (site.featureDir === null) return err('not-found', `The folder of feature ${ref.feature} is gone; reload the project.`);
  const stored = findForeign(feature, ref);
  const story = ref.story ?? null;
  // An open Consort gate lists no hashes yet; what it will cover comes from Baton's definitions.
  const names =
    stored && stored.artifacts.length > 0
      ? stored.artifacts.map((a) => a.name)
      : await artifactsIn(site.featureDir, ref.gate, story === null ? null : (site.stories.get(story) ?? story));
  const located: LocatedGate = { feature, story, site: { ...site, featureDir: site.featureDir }, names };
  const snapshots = await snapshotArtifacts(view, located);
  const artifacts = snapshots.map((s) => {
    const hash = stored?.artifacts.find((a) => a.name === s.name);
    const approved = hash ? { sha256: hash.sha256, text: null, approvedAt: stored?.approvedAt ?? '', approver: stored?.approver ?? '' } : null;
    return current(s, approved, 'text-sha256');
  });
  return ok({
    feature: ref.feature,
    story,
    gate: ref.gate,
    // A gate gates.json does not list has never been approved: open.
    status: stored ? (await foreignGate(view, site, stored)).status : 'open',
    artifacts,
    summary: evidenceSummary(feature, null, story),
    conformance: [],
    approvable: { ok: false, reason: readOnlyGates(view) },
  });
};

/** `ledger` is null for foreign layouts (their decisions live in gates.json). */
export const gateEvidence = async (view: ProjectView, ledger: Ledger | null, ref: GateRef): Promise<Result<GateEvidence>> =>
  view.layout === 'baton' ? batonEvidence(view, ledger, ref) : foreignEvidence(view, ref);

/**
 * One gate as a person sees it: its decided status (from the ledger, or a foreign gates.json),
 * turned `drifted` when an approved artifact no longer matches the disk, and how long it has waited.
 */
import type { GateName, LedgerRecord } from '../../shared/ledger';
import type { Feature, Gate, GateBlock, GateStatus, ProjectView } from '../../shared/model';
import { readOnlyReason } from '../../shared/read-only';
import type { AppError } from '../../shared/result';
import { snapshotArtifacts } from './artifacts';
import { approvalBlocker } from './checks';
import { artifactsIn, batonGateName, isGateName, PREREQUISITE } from './definitions';
import { approvalDrift, type ApprovedArtifact } from './drift';
import { newestMtime, readArtifact } from './files';
import type { FeatureSite } from './site';
import { gateKey, type GateFold } from './state';

/** Statuses that wait for a person: these carry `pendingSince`. */
const WAITING: readonly GateStatus[] = ['open', 'rejected', 'withdrawn', 'drifted'];

const storyFolder = (site: FeatureSite, story: string | null): string | null => (story === null ? null : (site.stories.get(story) ?? story));

/** Drift of the approved artifacts, and when the gate started waiting (its artifacts' latest change). */
const judge = async (
  site: FeatureSite,
  gate: GateName | null,
  story: string | null,
  stored: GateStatus,
  approved: readonly ApprovedArtifact[],
  layoutIsBaton = false,
): Promise<Pick<Gate, 'status' | 'drift' | 'pendingSince'>> => {
  // Only Baton gates know every file they cover; a Consort gates.json may hash a subset on purpose.
  const covered = layoutIsBaton && gate && site.featureDir !== null ? await artifactsIn(site.featureDir, gate, storyFolder(site, story)) : null;
  const drift = stored === 'approved' && approved.length > 0 ? await approvalDrift(site.root, site.featureDir, approved, covered) : [];
  const status: GateStatus = drift.length > 0 ? 'drifted' : stored;
  let pendingSince: string | null = null;
  if (WAITING.includes(status) && site.featureDir !== null) {
    // A drifted gate waits since its changed artifacts changed (a deleted one leaves no time, so
    // then the gate's other files speak); any other gate since its artifacts last changed.
    const changed =
      status === 'drifted'
        ? await newestMtime(
            site.root,
            site.featureDir,
            drift.map((d) => d.artifact),
          )
        : null;
    const names = changed === null && gate ? await artifactsIn(site.featureDir, gate, storyFolder(site, story)) : [];
    pendingSince = changed ?? (await newestMtime(site.root, site.featureDir, names));
  }
  return { status, drift, pendingSince };
};

/** A Baton gate from its fold (absent: never decided, so open); whether it can be decided is added by batonFeatureGates. */
export const batonGate = async (site: FeatureSite, gate: GateName, story: string | null, fold: GateFold | undefined): Promise<Gate> => {
  const approval = fold?.approval ?? null;
  const judged = await judge(site, gate, story, fold?.status ?? 'open', approval?.artifacts ?? [], true);
  return {
    name: gate,
    story,
    ...judged,
    approver: approval?.approver ?? null,
    approvedAt: approval?.at ?? null,
    ...(approval ? { approvalSeq: approval.seq } : {}),
    ...(approval?.exceptions ? { exceptions: approval.exceptions } : {}),
    artifacts: (approval?.artifacts ?? []).map(({ name, sha256 }) => ({ name, sha256, kind: 'file' as const })),
    note: fold?.note ?? null,
    ...(fold?.decidedBy && (fold.status === 'rejected' || fold.status === 'withdrawn') ? { decidedBy: fold.decidedBy } : {}),
    ...(judged.status === 'rejected' && fold?.rejectedArtifacts ? { sentBack: await unchangedSince(site, gate, story, fold.rejectedArtifacts) } : {}),
    blockedBy: null,
  };
};

/** Whether a rejected gate's artifacts are byte for byte what was rejected (none changed, none added): its author has not answered yet. */
const unchangedSince = async (site: FeatureSite, gate: GateName, story: string | null, rejected: readonly ApprovedArtifact[]): Promise<boolean> => {
  if (site.featureDir === null) return false;
  const covered = await artifactsIn(site.featureDir, gate, storyFolder(site, story));
  return (await approvalDrift(site.root, site.featureDir, rejected, covered)).length === 0;
};

/** The approval check's refusal, as the Inbox files it: an earlier gate, missing evidence, nothing changed. */
const blockOf = (gate: GateName, error: AppError): GateBlock => {
  if (error.code === 'amendment-open') return { kind: 'amendment', gate: null, message: error.message };
  if (error.code === 'unproven') return { kind: 'unproven', gate: null, message: error.message };
  if (error.code === 'not-verified') return { kind: 'evidence', gate: null, message: error.message };
  if (error.code === 'prerequisite') return { kind: 'earlier-gate', gate: PREREQUISITE[gate], message: error.message };
  if (error.code === 'missing-artifact' || error.code === 'invalid-artifact') {
    return { kind: gate === 'deploy' || gate === 'promote' ? 'evidence' : 'artifacts', gate: null, message: error.message };
  }
  return { kind: 'unchanged', gate: null, message: error.message };
};

/**
 * Whether a waiting Baton gate could be approved now, by the very checks an approval runs, so the
 * Inbox never lists as "ready to decide" what the backend would refuse.
 */
const blockedBy = async (
  view: ProjectView,
  site: FeatureSite,
  feature: Feature,
  gate: Gate,
  folds: ReadonlyMap<string, GateFold>,
  records: readonly LedgerRecord[],
): Promise<GateBlock | null> => {
  if (!WAITING.includes(gate.status) || !isGateName(gate.name)) return null;
  const readOnly = readOnlyReason(view, 'gates');
  if (readOnly) return { kind: 'read-only', gate: null, message: readOnly };
  if (site.featureDir === null) return { kind: 'artifacts', gate: null, message: `The folder of feature ${feature.id} is gone; nothing can be approved.` };
  const ref = { feature: feature.id, gate: gate.name, ...(gate.story ? { story: gate.story } : {}) };
  const names = await artifactsIn(site.featureDir, gate.name, storyFolder(site, gate.story));
  const located = { feature, story: gate.story, site: { ...site, featureDir: site.featureDir }, names };
  const error = await approvalBlocker(located, ref, folds, await snapshotArtifacts(view, located), view.layout, records);
  return error === null ? null : blockOf(gate.name, error);
};

/**
 * A hashed name that is no file: no `.` or `/` in it and nothing of that name in the feature folder.
 * Consort's promote gate hashes `promote_ref` (the promoted branch's name), not a file; a deleted
 * file (`plan.json`) still has its extension, so it stays a file and its absence is drift.
 */
const isReference = async (site: FeatureSite, name: string): Promise<boolean> => {
  if (name.includes('.') || name.includes('/')) return false;
  if (site.featureDir === null) return true;
  return (await readArtifact(site.root, site.featureDir, name)).state === 'missing';
};

/** A Consort/sftdd gate as the reader found it; Consort hashes every artifact as text. Baton never decides it. */
export const foreignGate = async (view: ProjectView, site: FeatureSite, gate: Gate): Promise<Gate> => {
  const artifacts = await Promise.all(
    gate.artifacts.map(async (a) => ({ ...a, kind: (await isReference(site, a.name)) ? ('reference' as const) : ('file' as const) })),
  );
  const approved = artifacts.filter((a) => a.kind === 'file').map((a) => ({ name: a.name, sha256: a.sha256, algorithm: 'text-sha256' as const }));
  // A view annotated before (as the Workbench holds it) says drifted; the file says approved.
  const stored = gate.status === 'drifted' ? 'approved' : gate.status;
  const judged = await judge(site, batonGateName(gate.name), gate.story, stored, approved);
  const readOnly = WAITING.includes(judged.status) ? readOnlyReason(view, 'gates') : null;
  return { ...gate, artifacts, ...judged, blockedBy: readOnly ? { kind: 'read-only', gate: null, message: readOnly } : null };
};

/** Every gate a Baton feature has, in order, plus decided gates of stories no longer on disk. */
export const batonFeatureGates = async (
  view: ProjectView,
  site: FeatureSite,
  feature: Feature,
  folds: ReadonlyMap<string, GateFold>,
  records: readonly LedgerRecord[],
): Promise<Gate[]> => {
  const slots: { gate: GateName; story: string | null }[] = [
    { gate: 'spec', story: null },
    { gate: 'design', story: null },
    { gate: 'test_list', story: null },
    ...feature.stories.map((s) => ({ gate: 'acceptance' as const, story: s.id })),
    { gate: 'deploy', story: null },
    { gate: 'promote', story: null },
  ];
  const known = new Set(slots.map((slot) => gateKey({ feature: feature.id, ...slot })));
  // An approval outlives a deleted story; it must still show up (drifted: its files are gone).
  for (const fold of folds.values()) {
    if (fold.feature === feature.id && !known.has(gateKey(fold))) slots.push({ gate: fold.gate, story: fold.story });
  }
  return Promise.all(
    slots.map(async (slot) => {
      const gate = await batonGate(site, slot.gate, slot.story, folds.get(gateKey({ feature: feature.id, ...slot })));
      return { ...gate, blockedBy: await blockedBy(view, site, feature, gate, folds, records) };
    }),
  );
};

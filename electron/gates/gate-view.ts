/**
 * One gate as a person sees it: its decided status (from the ledger, or a foreign gates.json),
 * turned `drifted` when an approved artifact no longer matches the disk, and how long it has waited.
 */
import type { GateName } from '../../shared/ledger';
import type { Feature, Gate, GateStatus } from '../../shared/model';
import { artifactsIn, batonGateName } from './definitions';
import { approvalDrift, type ApprovedArtifact } from './drift';
import { newestMtime, readArtifact } from './files';
import type { FeatureSite } from './site';
import { gateKey, type GateFold } from './state';

/** Statuses that wait for a person: these carry `pendingSince`. */
const WAITING: readonly GateStatus[] = ['open', 'rejected', 'withdrawn', 'drifted'];

const storyFolder = (site: FeatureSite, story: string | null): string | null =>
  story === null ? null : (site.stories.get(story) ?? story);

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
  const covered =
    layoutIsBaton && gate && site.featureDir !== null ? await artifactsIn(site.featureDir, gate, storyFolder(site, story)) : null;
  const drift = stored === 'approved' && approved.length > 0 ? await approvalDrift(site.root, site.featureDir, approved, covered) : [];
  const status: GateStatus = drift.length > 0 ? 'drifted' : stored;
  let pendingSince: string | null = null;
  if (WAITING.includes(status) && site.featureDir !== null) {
    // A drifted gate waits since its changed artifacts changed (a deleted one leaves no time, so
    // then the gate's other files speak); any other gate since its artifacts last changed.
    const changed = status === 'drifted' ? await newestMtime(site.root, site.featureDir, drift.map((d) => d.artifact)) : null;
    const names = changed === null && gate ? await artifactsIn(site.featureDir, gate, storyFolder(site, story)) : [];
    pendingSince = changed ?? (await newestMtime(site.root, site.featureDir, names));
  }
  return { status, drift, pendingSince };
};

/** A Baton gate from its fold (absent: never decided, so open). */
export const batonGate = async (site: FeatureSite, gate: GateName, story: string | null, fold: GateFold | undefined): Promise<Gate> => {
  const approval = fold?.approval ?? null;
  const judged = await judge(site, gate, story, fold?.status ?? 'open', approval?.artifacts ?? [], true);
  return {
    name: gate,
    story,
    ...judged,
    approver: approval?.approver ?? null,
    approvedAt: approval?.at ?? null,
    artifacts: (approval?.artifacts ?? []).map(({ name, sha256 }) => ({ name, sha256, kind: 'file' as const })),
    note: fold?.note ?? null,
  };
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

/** A Consort/sftdd gate as the reader found it; Consort hashes every artifact as text. */
export const foreignGate = async (site: FeatureSite, gate: Gate): Promise<Gate> => {
  const artifacts = await Promise.all(gate.artifacts.map(async (a) => ({ ...a, kind: (await isReference(site, a.name)) ? ('reference' as const) : ('file' as const) })));
  const approved = artifacts.filter((a) => a.kind === 'file').map((a) => ({ name: a.name, sha256: a.sha256, algorithm: 'text-sha256' as const }));
  // A view annotated before (as the Workbench holds it) says drifted; the file says approved.
  const stored = gate.status === 'drifted' ? 'approved' : gate.status;
  return { ...gate, artifacts, ...(await judge(site, batonGateName(gate.name), gate.story, stored, approved)) };
};

/** Every gate a Baton feature has, in order, plus decided gates of stories no longer on disk. */
export const batonFeatureGates = async (site: FeatureSite, feature: Feature, folds: ReadonlyMap<string, GateFold>): Promise<Gate[]> => {
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
  return Promise.all(slots.map((slot) => batonGate(site, slot.gate, slot.story, folds.get(gateKey({ feature: feature.id, ...slot })))));
};

/**
 * `gates.json` (per feature, and per sprint under `sprints/<S>/`): named approvals with the
 * SHA-256 of what was approved. Reading never decides a gate is satisfied; verification does.
 */
import { GATE_STATUSES, type Gate, type GateArtifact, type GateStatus } from '../../shared/model';
import { isObject, matchToken, pick, pickString, shapeOf, type JsonObject } from './fields';
import { readJson, report, type ReadContext } from './read-context';

export interface GatesFile {
  readonly featureId: string | null;
  readonly gates: Gate[];
}

const SHA256 = /^[0-9a-f]{64}$/i;

/** An approver may be written as a name or as `{name|id|email}`. */
const approverOf = (gate: JsonObject): string | null => {
  const value = pick(gate, 'approver', 'approved_by', 'approvedBy');
  if (typeof value === 'string') return value;
  if (isObject(value)) return pickString(value, 'name', 'id', 'email') ?? null;
  return null;
};

const artifactsOf = (ctx: ReadContext, file: string, name: string, gate: JsonObject): GateArtifact[] => {
  const artifacts: GateArtifact[] = [];
  const add = (artifact: string, sha: unknown): void => {
    if (typeof sha === 'string' && SHA256.test(sha)) artifacts.push({ name: artifact, sha256: sha.toLowerCase(), kind: 'file' });
    else report(ctx, file, `gate "${name}" lists artifact "${artifact}" with hash ${JSON.stringify(sha)}, which is not a SHA-256 (64 hex digits); left out`);
  };
  const hashes = pick(gate, 'artifact_hashes', 'artifactHashes');
  if (isObject(hashes)) {
    for (const [artifact, sha] of Object.entries(hashes)) add(artifact, sha);
  }
  const list = pick(gate, 'artifacts');
  if (Array.isArray(list)) {
    for (const entry of list) {
      if (isObject(entry)) add(pickString(entry, 'name', 'path') ?? '(unnamed)', pick(entry, 'sha256', 'hash'));
    }
  }
  return artifacts;
};

/** `gates` as an object keyed by gate name, or as an array of `{name, ...}`. */
const entriesOf = (gates: unknown): [string, unknown][] | null => {
  if (isObject(gates)) return Object.entries(gates);
  if (Array.isArray(gates)) {
    return gates.map((gate, index) => [(isObject(gate) && pickString(gate, 'name', 'gate', 'id')) || `#${index + 1}`, gate]);
  }
  return null;
};

export const readGatesFile = async (ctx: ReadContext, file: string, story: string | null): Promise<GatesFile> => {
  const read = await readJson(ctx, file);
  if (read.state !== 'ok') return { featureId: null, gates: [] };
  const doc = read.value;
  const entries = isObject(doc) ? entriesOf(doc['gates']) : null;
  if (!isObject(doc) || entries === null) {
    report(ctx, file, `expected an object with a "gates" map (gate name to gate), found ${shapeOf(doc)}${isObject(doc) ? ' without one' : ''}`);
    return { featureId: null, gates: [] };
  }
  const gates: Gate[] = [];
  for (const [name, gate] of entries) {
    if (!isObject(gate)) {
      report(ctx, file, `gate "${name}" should be an object, found ${shapeOf(gate)}; left out`);
      continue;
    }
    // Gates fail closed: one that names no status has not been approved.
    const rawStatus = pickString(gate, 'status', 'state') ?? 'open';
    const status = matchToken<GateStatus>(rawStatus, GATE_STATUSES);
    if (status === undefined) {
      report(ctx, file, `gate "${name}" has status "${rawStatus}", which is not one of: ${GATE_STATUSES.join(', ')}; left out`);
      continue;
    }
    gates.push({
      name,
      status,
      approver: approverOf(gate),
      approvedAt: pickString(gate, 'approved_at', 'approvedAt') ?? null,
      artifacts: artifactsOf(ctx, file, name, gate),
      story: story ?? pickString(gate, 'story', 'story_id', 'storyId') ?? null,
      // Drift is found later, by re-hashing the approved artifacts (electron/gates).
      drift: [],
      note: pickString(gate, 'comment', 'reason', 'note') ?? null,
      pendingSince: null,
      // Whether it can be decided is judged with its project (electron/gates), not here.
      blockedBy: null,
    });
  }
  return { featureId: pickString(doc, 'feature_id', 'featureId') ?? null, gates };
};

/**
 * Restore a drifted gate's approved files from the frozen copies its approval recorded: changed and
 * missing files get the approved bytes back, files added since are removed. What is replaced or
 * removed is kept as blobs of the `gate.restored` record, so nothing is lost. Fail closed like every
 * decision: a writable project, a named person, an approval in force, and exactly the drift the
 * person was shown (a file changed again since is refused, never overwritten unseen).
 */
import { readlink, rm } from 'node:fs/promises';
import path from 'node:path';
import { type DriftEntry, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import type { ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import type { Ledger } from '../ledger';
import { writeFileAtomic } from '../platform/atomic-write';
import { isSafeReadError, readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project/read-context';
import { describeRef, type GateRef } from './artifacts';
import { decideOnDisk, subjectOf } from './decide';
import { approvalDrift } from './drift';
import { projectPath } from './files';
import { foldGates, gateKey } from './state';

export interface RestoreRequest extends GateRef {
  readonly approver: string;
  /** What the person was shown: each drifted artifact and its current hash (null: missing). */
  readonly expect: Readonly<Record<string, string | null>>;
}

/** What a restore will do, for a confirmation that says exactly what is overwritten and removed. */
export interface RestorePlan {
  readonly drift: readonly DriftEntry[];
  readonly overwrite: readonly string[];
  readonly recreate: readonly string[];
  readonly remove: readonly string[];
}

export const planOf = (drift: readonly DriftEntry[]): RestorePlan => ({
  drift,
  overwrite: drift.filter((d) => d.expected !== null && d.actual !== null).map((d) => d.artifact),
  recreate: drift.filter((d) => d.expected !== null && d.actual === null).map((d) => d.artifact),
  remove: drift.filter((d) => d.expected === null).map((d) => d.artifact),
});

const sameDrift = (drift: readonly DriftEntry[], expect: Readonly<Record<string, string | null>>): boolean =>
  drift.length === Object.keys(expect).length && drift.every((d) => Object.hasOwn(expect, d.artifact) && expect[d.artifact] === d.actual);

/** `<featureDir>/<name>`, refused if a name from the ledger would lead out of the feature folder. */
/**
 * What is kept of a drifted file before it is replaced: its bytes, or for a link, a FIFO, a device or
 * a file too large to keep, a line that says what it was (a link is never followed, a huge file
 * never loaded: what is kept goes into the ledger).
 */
const keptContent = async (abs: string): Promise<Buffer> => {
  try {
    return await readRegularFile(abs, { maxBytes: MAX_ARTIFACT_BYTES });
  } catch (error) {
    if (!isSafeReadError(error)) throw error;
    if (error.reason === 'symlink') return Buffer.from(`a symbolic link to ${await readlink(abs).catch(() => '?')}; not followed\n`);
    return Buffer.from(`not kept: ${error.detail}\n`);
  }
};

const inside = (featureDir: string, name: string): string | null => {
  const abs = path.resolve(featureDir, name);
  const rel = path.relative(featureDir, abs);
  return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? null : abs;
};

export const restoreGate = (view: ProjectView, ledger: Ledger, req: RestoreRequest): Promise<Result<LedgerRecord>> =>
  decideOnDisk(view, ledger, req, async (tx, located) => {
    const fold = foldGates(tx.records).get(gateKey(req));
    const approval = fold?.status === 'approved' ? fold.approval : null;
    if (!approval)
      return err('not-approved', `${describeRef(req)} is ${fold?.status ?? 'open'}: only an approved gate's files can be restored to what was approved.`);
    const { site, names } = located;
    const drift = await approvalDrift(site.root, site.featureDir, approval.artifacts, names);
    if (drift.length === 0)
      return err('not-drifted', `${describeRef(req)} has not drifted: its files are exactly what was approved, so there is nothing to restore.`);
    if (!sameDrift(drift, req.expect)) {
      return err(
        'stale-artifact',
        `The files of ${describeRef(req)} changed again since you were shown them; nothing was restored. Review what changed and restore again.`,
      );
    }
    const kept: { name: string; content: Uint8Array }[] = [];
    const writes: { abs: string; content: Buffer | null }[] = [];
    for (const d of drift) {
      const abs = inside(site.featureDir, d.artifact);
      if (abs === null) return err('invalid-artifact', `${d.artifact} leads outside the folder of ${req.feature}; nothing was restored.`);
      if (d.actual !== null) kept.push({ name: `${d.expected === null ? 'removed' : 'replaced'}/${d.artifact}`, content: await keptContent(abs) });
      if (d.expected === null) {
        writes.push({ abs, content: null });
        continue;
      }
      const blob = approval.blobs.find((b) => b.name === d.artifact);
      const content = blob ? await ledger.readBlob(blob.sha256) : null;
      if (content === null) {
        return err(
          'missing-blob',
          `The ledger no longer holds the approved content of ${projectPath(site.root, site.featureDir, d.artifact)}, so it cannot be restored. Withdraw the ${req.gate} gate and approve the files as they are instead.`,
        );
      }
      writes.push({ abs, content });
    }
    for (const w of writes) {
      if (w.content === null) await rm(w.abs, { force: true });
      else await writeFileAtomic(w.abs, w.content, { root: site.root });
    }
    const plan = planOf(drift);
    const approver = req.approver.trim();
    return ok(
      await tx.append({
        type: RECORD_TYPES.gateRestored,
        actor: { kind: 'person', id: approver },
        subject: subjectOf(req),
        data: {
          gate: req.gate,
          approver,
          approval: approval.seq,
          restored: drift.filter((d) => d.expected !== null).map((d) => ({ artifact: d.artifact, from: d.actual, to: d.expected })),
          removed: plan.remove,
        },
        blobs: kept,
      }),
    );
  });

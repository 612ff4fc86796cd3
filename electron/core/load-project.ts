/**
 * Opens a project folder or a review bundle and returns the view with its gates folded from the
 * ledger and re-hashed against the disk (drift). Used by the Workbench and by the CLI, so both
 * see exactly the same state.
 */
import { rm } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { LedgerRecord } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { ok, type Result } from '../../shared/result';
import { annotateGates } from '../gates';
import { annotateItems } from '../gates/annotate-items';
import { annotateStories } from '../gates/annotate-stories';
import { annotateEscalations } from '../gates/escalations';
import { annotateAmendments } from '../gates/amendments';
import { annotateRunBlocks } from '../gates/frozen';
import { annotateCycles } from '../gates/proof';
import { checkSignature, isBundleFile, Ledger, openBundle } from '../ledger';
import { readProject } from '../project';
import { allowedApprovers, type ApproverPolicy } from '../../shared/approvers';
import { annotateApproverProofs, approverPolicy } from './approver-proofs';
import { missingApprovalProblems } from './git-anchors';
import { runElsewhere } from '../engine/run-housekeeping';

export interface LoadedProject {
  readonly view: ProjectView;
  /** The ledger of a Baton project (read-only for a bundle); null for Consort layouts. */
  readonly ledger: Ledger | null;
  readonly records: readonly LedgerRecord[];
  /** Removes what opening made (a bundle's extracted copy); safe to call twice. */
  dispose(): Promise<void>;
}

export async function loadProject(path: string): Promise<Result<LoadedProject>> {
  const target = resolve(path);
  if (await isBundleFile(target)) {
    const opened = await openBundle(target);
    if (!opened.ok) return opened;
    const dispose = () => rm(opened.value.root, { recursive: true, force: true });
    const loaded = await loadFolder(opened.value.root, { bundle: target, dispose });
    if (!loaded.ok) await dispose();
    return loaded;
  }
  return loadFolder(target, { bundle: null, dispose: async () => undefined });
}

async function loadFolder(root: string, origin: { bundle: string | null; dispose: () => Promise<void> }): Promise<Result<LoadedProject>> {
  const read = await readProject(root);
  if (!read.ok) return read;
  let view: ProjectView = origin.bundle ? { ...read.value, readOnly: true, bundle: origin.bundle } : read.value;
  const ledger = view.layout === 'baton' ? Ledger.forArtifactRoot(view.artifactRoot) : null;
  const snapshot = ledger ? await ledger.read() : null;
  const records = snapshot?.records ?? [];
  view = annotateAmendments(
    annotateCycles(annotateEscalations(annotateStories(annotateItems(await annotateGates(view, ledger ? records : null), records), records), records), records),
    records,
  );
  view = await annotateRunBlocks(view, records);
  // project.json's approver policy, read once: who may decide each gate, and what each approval proves.
  const policy = view.layout === 'baton' ? await approverPolicy(view.artifactRoot) : {};
  view = annotateApprovers(view, policy.policy);
  if (ledger) view = annotateApproverProofs(view, records, policy);
  view = await annotateMissingApprovals(view, ledger !== null && !origin.bundle, records);
  if (ledger) view = await annotateUnsigned(view, records);
  // A run another process is making (the CLI, another window): the screens say so (a bundle runs nothing).
  const elsewhere = view.layout === 'baton' && !origin.bundle ? await runElsewhere(root) : null;
  if (elsewhere) view = { ...view, runElsewhere: elsewhere };
  return ok({ view, ledger, records, dispose: origin.dispose });
}

/**
 * A gate with no decision in the ledger on a feature the orchestrator built commits for: its approval
 * record is gone (git-anchors.ts). The gate reads "open", so the Problems list must say why that is
 * not to be believed. Cheap when nothing is missing: one `git for-each-ref`, and only then.
 */
async function annotateMissingApprovals(view: ProjectView, anchored: boolean, records: readonly LedgerRecord[]): Promise<ProjectView> {
  if (!anchored) return view;
  const ledgerFile = relative(view.root, join(view.artifactRoot, 'ledger', 'events.jsonl'));
  const missing = await missingApprovalProblems(
    view.root,
    view.features.map((f) => f.id),
    records,
    ledgerFile,
  ).catch(() => []);
  return missing.length ? { ...view, problems: [...view.problems, ...missing.map(({ file, message }) => ({ file, message }))] } : view;
}

/**
 * In a project that signs checkpoints, an approval after the newest valid one is marked `unsigned`:
 * a record appended to the folder after the last signature reads as a decision, and the screen must
 * not vouch for it more than the signatures do. A project that signs nothing shows no mark.
 */
async function annotateUnsigned(view: ProjectView, records: readonly LedgerRecord[]): Promise<ProjectView> {
  const check = await checkSignature(join(view.artifactRoot, 'ledger'), records).catch(() => null);
  if (!check || check.state === 'unsigned') return view;
  // An invalid checkpoint vouches for nothing: every approval is unsigned.
  const signedTo = check.state === 'invalid' ? 0 : (check.seq ?? 0);
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      gates: f.gates.map((g) => (g.approvalSeq === undefined ? g : { ...g, unsigned: g.approvalSeq > signedTo })),
    })),
  };
}

/** Each Baton gate's `approvers` from the policy in project.json (`gates`); none when anyone may decide. */
function annotateApprovers(view: ProjectView, policy: ApproverPolicy | undefined): ProjectView {
  if (!policy?.gates) return view;
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      gates: f.gates.map((g) => {
        const approvers = allowedApprovers(policy, g.name);
        return approvers ? { ...g, approvers } : g;
      }),
    })),
  };
}

/**
 * `baton verify`: the chain and its blobs, the signed checkpoints and whose keys signed them, git's
 * evidence trailers against the ledger, every gate's approved hashes against the disk, and the
 * tiers' applied migrations against the code.
 */
import { join, relative } from 'node:path';
import type { CheckpointSummary, LedgerRecord, VerifyProblem, VerifyReport } from '../../shared/ledger';
import { verifyGates } from '../gates';
import { checkSignature, verifyChain, type SignatureCheck } from '../ledger';
import { rememberCheckpoint, witnessFor, witnessProblem } from '../ledger/witness';
import { approverPolicy, checkApprovals } from './approver-proofs';
import { gitAnchorProblems, missingApprovalProblems } from './git-anchors';
import type { LoadedProject } from './load-project';
import { tierMigrationProblems } from './tier-migrations';
import { trustedKeys } from './trust';

export interface VerifyContext {
  /** The user's config folder: their own keys and trusted-keys.json. */
  readonly configDir: string;
  /** Only the user's own lists count (not the folder's project.json trustedKeys). */
  readonly ownTrust?: boolean;
}

const NO_CHECKPOINTS: CheckpointSummary = { count: 0, signedSeq: null, unsignedTail: 0, untrustedKeys: [], message: null };

export async function verifyProject(project: LoadedProject, context: VerifyContext): Promise<VerifyReport> {
  const { view, records } = project;
  const ledgerDir = join(view.artifactRoot, 'ledger');
  const chain = project.ledger ? await verifyChain(ledgerDir) : { records: 0, head: null, chain: { ok: true }, problems: [] };
  const trust = project.ledger ? await trustedKeys(context.configDir, view.bundle ? null : view.artifactRoot, { ownOnly: context.ownTrust ?? false }) : null;
  const signature = project.ledger && trust ? await checkSignature(ledgerDir, records, trust.keys) : null;
  const gates = await verifyGates(view, project.ledger ? records : null);
  const tiers = project.ledger ? await tierMigrationProblems(view.root, view.artifactRoot, records) : [];
  // A review bundle has no git history; a project folder's commits vouch for the records they name.
  const ledgerFile = relative(view.root, join(ledgerDir, 'events.jsonl')) || 'events.jsonl';
  const anchored = project.ledger !== null && !view.bundle;
  const approvals = project.ledger
    ? checkApprovals(await approverPolicy(view.artifactRoot), records, ledgerFile, context.ownTrust && trust ? trust.keys : null)
    : null;
  const anchors = anchored
    ? [
        ...(await gitAnchorProblems(view.root, records, ledgerFile)),
        ...(await missingApprovalProblems(
          view.root,
          view.features.map((f) => f.id),
          records,
          ledgerFile,
        )),
      ]
    : [];
  const witnessed =
    anchored && chain.chain.ok ? await witnessCheck(context.configDir, records, signature, relative(view.root, join(ledgerDir, 'checkpoints.jsonl'))) : [];
  const problems: VerifyProblem[] = [
    ...chain.problems,
    ...(signature?.problems ?? []),
    ...witnessed,
    ...(trust?.problems ?? []),
    ...(approvals?.problems ?? []),
    ...anchors,
    ...gates.problems,
    ...tiers,
  ];
  const checkpoints: CheckpointSummary = signature
    ? {
        count: signature.checkpoints,
        signedSeq: signature.seq ?? null,
        unsignedTail: signature.unsignedTail,
        untrustedKeys: signature.untrustedKeys,
        message: signature.message ?? null,
      }
    : NO_CHECKPOINTS;
  return {
    ok: chain.chain.ok && problems.length === 0,
    records: chain.records,
    head: chain.head,
    chain: chain.chain,
    gates: gates.gates,
    signature: signature?.state ?? 'unsigned',
    checkpoints,
    ...(approvals ? { approvals: approvals.summary } : {}),
    problems,
  };
}

/**
 * The folder against this machine's witness (witness.ts): older than what was seen here is a
 * problem; a newer trusted checkpoint is remembered. A bundle is a snapshot in time: not compared.
 */
async function witnessCheck(configDir: string, records: readonly LedgerRecord[], signature: SignatureCheck | null, file: string): Promise<VerifyProblem[]> {
  const witness = await witnessFor(configDir, records);
  const problem = witness ? witnessProblem(witness, records, signature?.seq ?? null, file) : null;
  if (problem) return [problem];
  const newest = signature?.state === 'signed' ? signature.newest : undefined;
  if (newest && records[0]) await rememberCheckpoint(configDir, records[0].hash, newest).catch(() => undefined);
  return [];
}

/**
 * What `--strict` adds to the problems: the whole ledger vouched for by trusted keys. Records after
 * the newest checkpoint, a checkpoint by an untrusted key, or no checkpoint at all each fail it.
 */
export const strictFailures = (report: VerifyReport): string[] => {
  const c = report.checkpoints ?? NO_CHECKPOINTS;
  const failures: string[] = [];
  if (report.records > 0 && c.count === 0) failures.push('no signed checkpoint: run `baton sign` (with a key the reviewer trusts)');
  if (report.signature === 'untrusted')
    failures.push(
      `checkpoints signed by a key on no trusted list (${c.untrustedKeys.map((k) => `${k.slice(0, 16)}…`).join(', ')}): add it to trustedKeys in project.json or to your trusted-keys.json if you trust it`,
    );
  for (const a of report.approvals?.unauthenticated ?? [])
    failures.push(`unauthenticated approval: record #${a.seq} (the ${a.gate} gate, approved as ${a.approver}): ${a.why}`);
  if (c.count > 0 && c.unsignedTail > 0)
    failures.push(`unsigned tail: ${c.unsignedTail} record${c.unsignedTail === 1 ? '' : 's'} after the checkpoint at #${c.signedSeq}: run \`baton sign\``);
  return failures;
};

/**
 * The approver policy as every decision applies it (shared/approvers.ts has the rules): read from
 * project.json, fail closed — a project.json that names a policy but does not validate refuses
 * every decision.
 */
import { dirname, join } from 'node:path';
import { approverRefusal, keyRefusal } from '../../shared/approvers';
import type { ProjectView } from '../../shared/model';
import { err, type Result } from '../../shared/result';
import { readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project';
import { readSettings } from '../project/read-settings';
import type { Ledger } from '../ledger';

/**
 * Null when `approver` may decide under `gate`'s approvers, signing with `signer` (the public key
 * the decision will be signed with; null: unsigned); `what` names the decision in the refusal.
 */
export async function policyRefusal(view: ProjectView, gate: string, approver: string, signer: string | null, what?: string): Promise<Result<never> | null> {
  if (view.layout !== 'baton') return null;
  const read = await readSettings(view.artifactRoot);
  if (!read.ok && (await namesPolicy(view.artifactRoot))) return err('invalid-settings', `Nothing was decided: ${read.error.message}`);
  const policy = read.ok ? read.value.settings : undefined;
  const why = approverRefusal(policy, gate, approver, what) ?? keyRefusal(policy, approver, signer);
  return why ? err('not-allowed', why) : null;
}

/** The public key `ledger` signs people's decisions with; null when it signs none. */
export const signerOf = (ledger: Ledger): string | null => ledger.signer?.publicKeyText ?? null;

/** Whether project.json, valid or not, says who may decide. */
async function namesPolicy(artifactRoot: string): Promise<boolean> {
  try {
    // As readSettings reads it: a regular file inside the project, at most 10 MB (a FIFO fails closed at once).
    const bytes = await readRegularFile(join(artifactRoot, 'project.json'), { maxBytes: MAX_ARTIFACT_BYTES, root: dirname(artifactRoot), followInside: true });
    const json: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof json === 'object' && json !== null && ('gates' in json || 'approverRoles' in json || 'approverKeys' in json);
  } catch {
    return false;
  }
}

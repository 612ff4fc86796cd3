/**
 * The approver policy as every decision applies it (shared/approvers.ts has the rules): read from
 * project.json, fail closed — a project.json that names a policy but does not validate refuses
 * every decision.
 */
import { dirname, join } from 'node:path';
import { approverRefusal } from '../../shared/approvers';
import type { ProjectView } from '../../shared/model';
import { err, type Result } from '../../shared/result';
import { readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project';
import { readSettings } from '../project/read-settings';

/** Null when `approver` may decide under `gate`'s approvers; `what` names the decision in the refusal. */
export async function policyRefusal(view: ProjectView, gate: string, approver: string, what?: string): Promise<Result<never> | null> {
  if (view.layout !== 'baton') return null;
  const read = await readSettings(view.artifactRoot);
  if (!read.ok && (await namesPolicy(view.artifactRoot))) return err('invalid-settings', `Nothing was decided: ${read.error.message}`);
  const why = approverRefusal(read.ok ? read.value.settings : undefined, gate, approver, what);
  return why ? err('not-allowed', why) : null;
}

/** Whether project.json, valid or not, says who may decide. */
async function namesPolicy(artifactRoot: string): Promise<boolean> {
  try {
    // As readSettings reads it: a regular file inside the project, at most 10 MB (a FIFO fails closed at once).
    const bytes = await readRegularFile(join(artifactRoot, 'project.json'), { maxBytes: MAX_ARTIFACT_BYTES, root: dirname(artifactRoot), followInside: true });
    const json: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof json === 'object' && json !== null && ('gates' in json || 'approverRoles' in json);
  } catch {
    return false;
  }
}

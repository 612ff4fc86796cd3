/**
 * Why nothing can be decided, run or changed in a project, in one set of words for every screen and
 * command: a review bundle is evidence to read, a Consort project belongs to the tool that writes it.
 * Pure.
 */
import type { ProjectView } from './model';
import { err, ok, type Result } from './result';

export type ReadOnlyAction = 'gates' | 'escalations' | 'amendments' | 'runs' | 'changes' | 'repair';

const VERB: Readonly<Record<ReadOnlyAction, string>> = {
  gates: 'decide its gates',
  escalations: 'decide its escalations',
  amendments: 'amend its locked tests',
  runs: 'run its enforced loop',
  changes: 'change it',
  repair: 'mend its ledger',
};

/** The reason, or null when `view` is a writable Baton project. */
export function readOnlyReason(view: Pick<ProjectView, 'readOnly' | 'bundle' | 'layout'>, action: ReadOnlyAction): string | null {
  if (view.bundle) return `This is a review bundle, opened read-only: ${VERB[action]} in the Baton project it was exported from.`;
  if (view.readOnly || view.layout !== 'baton') {
    return `Baton reads this ${view.layout === 'baton' ? '' : `${view.layout === 'sftdd' ? 'Consort (.sftdd)' : 'Consort'} `}project and never writes it: ${VERB[action]} with the tool that owns it.`;
  }
  return null;
}

/**
 * The one guard every host and command uses before it writes: a `read-only` error naming the
 * project and why, or ok when `view` is a writable Baton project.
 */
export function writableProject(view: Pick<ProjectView, 'readOnly' | 'bundle' | 'layout' | 'root'>, action: ReadOnlyAction): Result<null> {
  const reason = readOnlyReason(view, action);
  return reason ? err('read-only', `${view.bundle ?? view.root}: ${reason}`) : ok(null);
}

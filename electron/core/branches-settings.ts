/**
 * Whether the open project can have database branches, and its settings when it can: only a
 * writable Baton project (`.baton/project.json`) in a git repository pairs git and database
 * branches. Consort layouts, review bundles and read-only projects are refused with the reason.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import { readSettings } from '../project/read-settings';
import type { ProjectSettings } from '../project/settings';

const run = promisify(execFile);

export const NEEDS_BATON_GIT = 'Branches need a Baton project in a git repository';

export interface BranchProjectSettings {
  readonly settings: ProjectSettings;
  /** The settings file's text, so a later call can tell whether it changed. */
  readonly text: string;
}

export async function loadBranchSettings(view: ProjectView): Promise<Result<BranchProjectSettings>> {
  if (view.bundle) {
    return err('unavailable', `${NEEDS_BATON_GIT}: ${view.bundle} is a review bundle, which has no branches. Open the project's own folder to manage them.`);
  }
  if (view.layout !== 'baton' || view.readOnly) {
    return err(
      'unavailable',
      `${NEEDS_BATON_GIT}: ${view.root} is a Consort project, which Baton only reads. Run \`baton init\` in a git repository to use branches.`,
    );
  }
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read.error.code === 'no-settings' ? err('unavailable', `${NEEDS_BATON_GIT}: ${read.error.message}`) : read;
  const inGit = await run('git', ['-C', view.root, 'rev-parse', '--is-inside-work-tree']).then(
    (r) => r.stdout.trim() === 'true',
    () => false,
  );
  if (!inGit) {
    return err(
      'unavailable',
      `${NEEDS_BATON_GIT}: ${view.root} is not inside a git repository. Run \`git init\` there and commit once, then open Branches again.`,
    );
  }
  return ok({ settings: read.value.settings, text: read.value.text });
}

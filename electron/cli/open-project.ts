/** Commands that act on a project open it through a Workbench, exactly as the UI does. */
import { defaultConfigDir } from '../platform/config-dir';
import { readVersion } from '../platform/version';
import { Workbench } from '../core/workbench';
import type { ProjectView } from '../../shared/model';
import { writableProject, type ReadOnlyAction } from '../../shared/read-only';
import { EXIT, type ExitCode } from './exit-codes';
import { printError, type Io } from './io';

/**
 * `writes` names what a command would change: on a read-only project (a Consort project, a review
 * bundle) it says why it cannot and exits 1 before doing or printing anything else.
 */
export async function withProject(
  path: string,
  json: boolean,
  io: Io,
  fn: (workbench: Workbench, view: ProjectView) => Promise<ExitCode>,
  writes?: ReadOnlyAction,
): Promise<ExitCode> {
  const workbench = new Workbench({ host: 'cli', version: readVersion(), configDir: defaultConfigDir() });
  const opened = await workbench.open(path);
  if (!opened.ok) {
    printError(io, opened.error, json);
    return EXIT.problems;
  }
  const writable = writes ? writableProject(opened.value, writes) : null;
  if (writable && !writable.ok) {
    printError(io, writable.error, json);
    await workbench.close();
    return EXIT.problems;
  }
  try {
    return await fn(workbench, opened.value);
  } finally {
    await workbench.close();
  }
}

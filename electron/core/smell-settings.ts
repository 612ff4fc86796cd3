/**
 * The smell report's thresholds for an open project: `smells` of its `.baton/project.json` over the
 * defaults (shared/metrics/smells.ts). A project without settings of its own (a Consort project, a
 * bundle without project.json) gets the defaults; settings that do not validate are the reader's
 * error (which file, which key, what to do), never a silent default.
 */
import { SMELL_DEFAULTS, type SmellThresholds } from '../../shared/metrics/smells';
import type { ProjectView } from '../../shared/model';
import { ok, type Result } from '../../shared/result';
import { readSettings } from '../project/read-settings';

export async function smellThresholds(view: Pick<ProjectView, 'artifactRoot'>): Promise<Result<SmellThresholds>> {
  const read = await readSettings(view.artifactRoot);
  if (!read.ok) return read.error.code === 'no-settings' ? ok(SMELL_DEFAULTS) : read;
  const set = read.value.settings.smells ?? {};
  return ok({
    stallFactor: set.stallFactor ?? SMELL_DEFAULTS.stallFactor,
    rubberStampSeconds: set.rubberStampSeconds ?? SMELL_DEFAULTS.rubberStampSeconds,
    gateWaitHours: set.gateWaitHours ?? SMELL_DEFAULTS.gateWaitHours,
    repeatedViolations: set.repeatedViolations ?? SMELL_DEFAULTS.repeatedViolations,
  });
}

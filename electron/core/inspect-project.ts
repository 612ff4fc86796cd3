/** `baton inspect`: its own module, so the command loads only what reading a project takes (no database drivers, no engine). */
import { ok, type Result } from '../../shared/result';
import { formatInspect, inspectReport, type InspectReport } from '../project';
import { loadProject } from './load-project';

export type { InspectReport };

/** What a project holds and the problems found reading it, as data and as text. Remembers nothing. */
export async function inspectProject(path: string): Promise<Result<{ report: InspectReport; text: string }>> {
  const loaded = await loadProject(path);
  if (!loaded.ok) return loaded;
  try {
    const report = inspectReport(loaded.value.view);
    return ok({ report, text: formatInspect(report) });
  } finally {
    await loaded.value.dispose();
  }
}

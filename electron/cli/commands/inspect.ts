/** `baton inspect <dir> [--json]`: what a project holds, and the problems found reading it. */
import { formatInspect, inspectReport, readProject } from '../../project';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { printError, printJson, type Io } from '../io';

export async function inspectCommand(positionals: string[], flags: { json: boolean }, io: Io): Promise<ExitCode> {
  const [dir, ...extra] = positionals;
  if (!dir || extra.length) throw new UsageError('inspect takes one folder: baton inspect <dir> [--json]');
  const result = await readProject(dir);
  if (!result.ok) {
    printError(io, result.error, flags.json);
    return EXIT.problems;
  }
  const report = inspectReport(result.value);
  if (flags.json) printJson(io, report);
  else io.out(formatInspect(report));
  return report.problems.length ? EXIT.problems : EXIT.ok;
}

/** `baton init <dir> [--force] [--json]`: start a Baton project in a git repository. */
import { initProject } from '../../project/init';
import { EXIT, UsageError, type ExitCode } from '../exit-codes';
import { printError, printJson, type Io } from '../io';

export async function initCommand(positionals: string[], flags: { json: boolean; force: boolean }, io: Io): Promise<ExitCode> {
  const [dir, ...extra] = positionals;
  if (!dir || extra.length) throw new UsageError('init takes one folder: baton init <dir> [--force] [--json]');
  const result = await initProject(dir, { force: flags.force });
  if (!result.ok) {
    printError(io, result.error, flags.json);
    return EXIT.problems;
  }
  const { settingsFile, settings } = result.value;
  if (flags.json) {
    printJson(io, { ok: true, ...result.value });
    return EXIT.ok;
  }
  io.out(`Created ${settingsFile}`);
  io.out(`  test command:   ${settings.testCommand ?? '(none detected: set testCommand in project.json)'}`);
  io.out(`  report format:  ${settings.reportFormat}`);
  io.out(`  branch provider: ${settings.branchProvider}`);
  io.out(`  migrations:     ${settings.migrations ? `${settings.migrations.tool} in ${settings.migrations.path}/` : '(none detected)'}`);
  io.out('Review the file, then commit it. Next: `baton serve ' + dir + '` to open the workbench.');
  return EXIT.ok;
}

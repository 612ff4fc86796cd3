/** `baton init <dir> [--force] [--json]`: start a Baton project in a git repository. */
import { initProject } from '../../core/project-tools';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printError, printJson } from '../io';

export const initCommand: Command = {
  name: 'init',
  synopsis: 'init <dir> [--force] [--json]',
  summary: 'Start a Baton project in a git repository (.baton/project.json)',
  options: { ...JSON_OPTION, force: { type: 'boolean', default: false } },
  async run(positionals, values, io) {
    const dir = onePath(positionals, this.synopsis);
    const json = flag(values, 'json');
    const result = await initProject(dir, { force: flag(values, 'force') });
    if (!result.ok) {
      printError(io, result.error, json);
      return EXIT.problems;
    }
    const { settingsFile, settings } = result.value;
    if (json) {
      printJson(io, { ok: true, ...result.value });
      return EXIT.ok;
    }
    io.out(`Created ${settingsFile}`);
    io.out(`  test command:    ${settings.testCommand ?? '(none detected: set testCommand in project.json)'}`);
    io.out(`  report format:   ${settings.reportFormat}`);
    io.out(`  branch provider: ${settings.branchProvider}`);
    io.out(`  migrations:      ${settings.migrations ? `${settings.migrations.tool} in ${settings.migrations.path}/` : '(none detected)'}`);
    io.out(`Review the file, then commit it. Next: \`baton serve ${dir}\` to open the workbench.`);
    return EXIT.ok;
  },
};

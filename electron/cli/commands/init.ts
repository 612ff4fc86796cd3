/** `baton init <dir> [--ci github] [--force] [--json]`: start a Baton project in a git repository (and its CI check). */
import type { CiKind } from '../../core/project-tools';
import { projectTools } from '../core';
import { flag, JSON_OPTION, onePath, text, type Command } from '../command';
import { EXIT, UsageError } from '../exit-codes';
import { printError, printJson } from '../io';

export const initCommand: Command = {
  name: 'init',
  synopsis: 'init <dir> [--ci github] [--force] [--json]',
  summary: 'Start a Baton project in a git repository (.baton/project.json); --ci github adds a workflow that runs baton verify on pull requests',
  options: { ...JSON_OPTION, force: { type: 'boolean', default: false }, ci: { type: 'string' } },
  async run(positionals, values, io) {
    const dir = onePath(positionals, this.synopsis);
    const json = flag(values, 'json');
    const ci = text(values, 'ci');
    const { CI_KINDS, initProject } = await projectTools();
    if (ci !== undefined && !(CI_KINDS as readonly string[]).includes(ci)) throw new UsageError(`--ci takes ${CI_KINDS.join(', ')}; got "${ci}".`);
    const result = await initProject(dir, { force: flag(values, 'force'), ...(ci ? { ci: ci as CiKind } : {}) });
    if (!result.ok) {
      printError(io, result.error, json);
      return EXIT.problems;
    }
    const { settingsFile, settings } = result.value;
    if (json) {
      printJson(io, { ok: true, ...result.value });
      return EXIT.ok;
    }
    const workflow = result.value.created.find((file) => file.endsWith('baton.yml'));
    if (workflow && result.value.created.length === 1) {
      io.out(
        `Created ${workflow}: pull requests now run \`baton verify\`. Set the repository variable BATON_PACKAGE to where Baton installs from, then commit it.`,
      );
      return EXIT.ok;
    }
    io.out(`Created ${settingsFile}`);
    if (workflow) io.out(`Created ${workflow} (pull requests run \`baton verify\`; set the repository variable BATON_PACKAGE)`);
    io.out(`  test command:    ${settings.testCommand ?? '(none detected: set testCommand in project.json)'}`);
    io.out(`  report format:   ${settings.reportFormat}`);
    io.out(`  branch provider: ${settings.branchProvider}`);
    io.out(`  migrations:      ${settings.migrations ? `${settings.migrations.tool} in ${settings.migrations.path}/` : '(none detected)'}`);
    io.out(`Review the file, then commit it. Next: \`baton serve ${dir}\` to open the workbench.`);
    return EXIT.ok;
  },
};

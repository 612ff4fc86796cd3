/** `baton inspect <dir> [--json]`: what a project holds, and the problems found reading it. */
import { inspection } from '../core';
import { flag, JSON_OPTION, onePath, type Command } from '../command';
import { EXIT } from '../exit-codes';
import { printError, printJson } from '../io';

export const inspectCommand: Command = {
  name: 'inspect',
  synopsis: 'inspect <dir> [--json]',
  summary: 'Features, stories, test lists, gates and problems of a Baton or Consort project',
  options: JSON_OPTION,
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const result = await (await inspection()).inspectProject(onePath(positionals, this.synopsis));
    if (!result.ok) {
      printError(io, result.error, json);
      return EXIT.problems;
    }
    const { report, text } = result.value;
    if (json) printJson(io, report);
    else io.out(text);
    return report.problems.length ? EXIT.problems : EXIT.ok;
  },
};

/** The `baton` command: parses arguments, runs one command, returns the exit code. */
import { parseArgs } from 'node:util';
import { readVersion } from '../core/version';
import { initCommand } from './commands/init';
import { inspectCommand } from './commands/inspect';
import { serveCommand } from './commands/serve';
import { EXIT, UsageError, type ExitCode } from './exit-codes';
import { processIo, type Io } from './io';

export const USAGE = `Usage: baton <command> [options]

Commands:
  init <dir> [--force] [--json]     Start a Baton project in a git repository (.baton/project.json)
  inspect <dir> [--json]            Features, stories, test lists, gates and problems of a project
                                    (Baton .baton/, Consort .consort/ or .sftdd/, or an artifact root)
  serve [dir] [--port N] [--json]   The workbench in your browser on 127.0.0.1 (token-protected URL)

Options:
  --json        Machine-readable output (one JSON document on stdout)
  -h, --help    Show this help
  -v, --version Show Baton's version

Exit codes: 0 ok, 1 problems found, 2 usage error.`;

const OPTIONS = {
  json: { type: 'boolean', default: false },
  force: { type: 'boolean', default: false },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

export async function main(argv: string[], io: Io = processIo): Promise<ExitCode> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const [command, ...rest] = positionals;
    if (values.version) {
      io.out(readVersion());
      return EXIT.ok;
    }
    if (values.help || command === 'help') {
      io.out(USAGE);
      return EXIT.ok;
    }
    switch (command) {
      case 'init':
        return await initCommand(rest, { json: values.json, force: values.force }, io);
      case 'inspect':
        return await inspectCommand(rest, { json: values.json }, io);
      case 'serve':
        return await serveCommand(rest, { json: values.json, ...(values.port !== undefined ? { port: values.port } : {}) }, io);
      case undefined:
        throw new UsageError('no command given.');
      default:
        throw new UsageError(`unknown command "${command}".`);
    }
  } catch (cause) {
    if (cause instanceof UsageError || (cause as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`baton: ${(cause as Error).message}\nRun \`baton --help\` for usage.`);
      return EXIT.usage;
    }
    throw cause;
  }
}

/** The `baton` command: finds the command, parses its options, runs it, returns the exit code. */
import { parseArgs } from 'node:util';
import { hostDefaults } from '../core/host-defaults';
import type { Command } from './command';
import { benchCommand } from './commands/bench';
import { branchCommand } from './commands/branch';
import { demoCommand } from './commands/demo';
import { deployCommand } from './commands/deploy';
import { promoteCommand } from './commands/promote';
import { runCommand, statusCommand } from './commands/run';
import { recordScenarioCommand, replayCommand } from './commands/replay';
import { approveCommand, rejectCommand, resolveCommand, restoreCommand, withdrawCommand } from './commands/decide';
import { exportCommand, keyCommand, signCommand } from './commands/export';
import { featureCommand } from './commands/feature';
import { amendCommand } from './commands/amend';
import { allowTellsCommand } from './commands/allow-tells';
import { gatesCommand } from './commands/gates';
import { initCommand } from './commands/init';
import { inspectCommand } from './commands/inspect';
import { logCommand } from './commands/log';
import { metricsCommand } from './commands/metrics';
import { dossierCommand } from './commands/dossier';
import { evalCommand } from './commands/eval';
import { serveCommand } from './commands/serve';
import { verifyCommand } from './commands/verify';
import { EXIT, UsageError, type ExitCode } from './exit-codes';
import { printUnexpected, processIo, type Io } from './io';

const COMMANDS: readonly Command[] = [
  initCommand,
  inspectCommand,
  demoCommand,
  featureCommand,
  runCommand,
  statusCommand,
  deployCommand,
  promoteCommand,
  replayCommand,
  recordScenarioCommand,
  serveCommand,
  gatesCommand,
  approveCommand,
  rejectCommand,
  withdrawCommand,
  resolveCommand,
  allowTellsCommand,
  amendCommand,
  restoreCommand,
  logCommand,
  metricsCommand,
  dossierCommand,
  evalCommand,
  verifyCommand,
  exportCommand,
  signCommand,
  keyCommand,
  branchCommand,
  benchCommand,
];

export const USAGE = `Usage: baton <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.synopsis}\n      ${c.summary}`).join('\n')}

Options:
  --json        Machine-readable output (one JSON document on stdout)
  -h, --help    Show this help (or a command's: baton <command> --help)
  -v, --version Show Baton's version

Exit codes: 0 ok, 1 problems found, 2 usage error.`;

const GLOBAL = {
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const;

/** parseArgs's own refusals (unknown option, missing value): a usage error. `throw null` must not fail here. */
const isParseArgsError = (cause: unknown): boolean => {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
};

export async function main(argv: string[], io: Io = processIo): Promise<ExitCode> {
  try {
    const name = argv.find((arg) => !arg.startsWith('-'));
    const command = COMMANDS.find((c) => c.name === name);
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...GLOBAL, ...(command?.options ?? { json: { type: 'boolean' } }) },
      allowPositionals: true,
      strict: true,
    });
    if (values.version) {
      io.out(hostDefaults('cli').version);
      return EXIT.ok;
    }
    if (values.help || name === 'help') {
      io.out(command ? `Usage: baton ${command.synopsis}\n\n${command.summary}.` : USAGE);
      return EXIT.ok;
    }
    if (!name) throw new UsageError('no command given.');
    if (!command) throw new UsageError(`unknown command "${name}".`);
    return await command.run(positionals.slice(1), values, io);
  } catch (cause) {
    if (cause instanceof UsageError || isParseArgsError(cause)) {
      io.err(`baton: ${(cause as Error).message}\nRun \`baton --help\` for usage.`);
      return EXIT.usage;
    }
    // Last resort: whatever went wrong, the caller gets one clear line (and, with --json, one JSON
    // document), never a stack trace, and a non-zero exit code.
    try {
      printUnexpected(io, cause, argv.includes('--json'));
    } catch {
      // Even stderr failed: the exit code still says it.
    }
    return EXIT.problems;
  }
}

/**
 * Which runner a project's test command drives, and how the orchestrator runs exactly the files it
 * means to run with it — never the runner's own discovery. The family decides how files are passed
 * (`node --test f1 f2`, `vitest run f1`, `jest --runTestsByPath f1`, `pytest f1`, or `npm test -- f1`),
 * which canaries it can load (canaries.ts) and, for node:test, that Baton's own reporter reports.
 */
import { quoteArg } from '../process/run-command';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const RUNNER_FAMILIES = ['node-test', 'vitest', 'jest', 'pytest', 'other'] as const;
export type RunnerFamily = (typeof RUNNER_FAMILIES)[number];

/** `npm test`, `npm run test:unit`, `pnpm test`, `yarn test`: the script's own command decides the family. */
const NPM_SCRIPT = /^(?:npm|pnpm|yarn)\s+(?:run(?:-script)?\s+)?([\w:.-]+)\s*$/;

const familyOf = (command: string): RunnerFamily => {
  if (/(^|\s|\/)node\s+(?:[^|&;]*\s)?--test(\s|=|$)/.test(command) || /^node\s+--test\b/.test(command)) return 'node-test';
  if (/(^|\s|\/)vitest(\s|$)/.test(command)) return 'vitest';
  if (/(^|\s|\/)jest(\s|$)/.test(command)) return 'jest';
  if (/(^|\s|\/)(?:python3?\s+-m\s+)?pytest(\s|$)/.test(command)) return 'pytest';
  return 'other';
};

export interface RunnerSpec {
  readonly family: RunnerFamily;
  /** True when the command is an npm (pnpm, yarn) script: arguments go after `--`. */
  readonly viaScript: boolean;
  /** The script's own command, when the command is a script whose command is simple enough to run directly. */
  readonly script: string | null;
}

/** The family of `command`; `packageJson` is the project's package.json text, to read a script's command. */
export function runnerSpec(command: string, packageJson: string | null): RunnerSpec {
  const script = NPM_SCRIPT.exec(command.trim());
  if (script) {
    let scripts: Record<string, unknown> = {};
    try {
      scripts = ((packageJson ? JSON.parse(packageJson) : {}) as { scripts?: Record<string, unknown> }).scripts ?? {};
    } catch {
      // A broken package.json: the family cannot be told, so nothing is assumed about it.
    }
    const name = script[1] === 'test' || script[1] === 't' ? 'test' : script[1]!;
    const body = scripts[name];
    if (typeof body !== 'string') return { family: 'other', viaScript: true, script: null };
    return { family: familyOf(body), viaScript: true, script: splitCommand(body) ? body : null };
  }
  return { family: familyOf(command), viaScript: false, script: null };
}

/** Baton's reporter for node:test: where its module is and where it writes (outside the tested tree), and Baton's driver beside it. */
export interface NodeReporter {
  readonly module: string;
  readonly destination: string;
  /** baton-run.mjs (BATON_NODE_RUNNER): runs the files in the order given, which `node --test` does not. */
  readonly runner?: string;
  /** The file the driver reads its signing key from (and deletes). */
  readonly keyFile?: string;
  /** Baton's preload (canary-source.ts, nodeGuard), loaded before the project's node options. */
  readonly guard?: string;
  /** The sealed runtime (sealed-node.ts) the driver starts with, in place of the command's `node` when that is the runtime it copies. */
  readonly node?: { readonly from: string; readonly path: string };
}

/**
 * The command that runs exactly `files` (relative to the run folder, in this order). For node:test
 * Baton's reporter is added beside the project's own reporters. `other` runners cannot be told which
 * files to run unless the command says where with `{files}`; otherwise they run as configured.
 *
 * A simple command (no pipes, redirections, `&&` or substitutions) is rewritten token by token: the
 * runner's own path arguments (`node --test test/`, `vitest run src`), which would make it discover
 * files, are dropped and the chosen files take their place. An npm script with a simple command is
 * run as that command (with `node_modules/.bin` on PATH, as npm would), so its paths are dropped
 * too. A command Baton cannot take apart gets the files appended, as the runner's arguments allow.
 */
export function commandFor(command: string, spec: RunnerSpec, files: readonly string[], reporter: NodeReporter | null): string {
  const reporterArgs =
    spec.family === 'node-test' && reporter ? [`--test-reporter=${reporter.module}`, `--test-reporter-destination=${reporter.destination}`] : [];
  // `{files}` stands where the files go; for node:test Baton's reporter goes just before them (options before paths).
  if (command.includes('{files}')) return command.split('{files}').join([...reporterArgs, ...files].map(quoteArg).join(' '));
  if (spec.family === 'other') return command;
  const fileArgs = spec.family === 'jest' ? ['--runTestsByPath', ...files] : [...files];
  const source = spec.viaScript ? spec.script : command;
  const tokens = source === null ? null : splitCommand(source);
  const runner = tokens ? runnerIndex(tokens, spec.family) : -1;
  if (tokens && runner >= 0) {
    const kept = withoutPaths(tokens, runner, spec.family);
    const path = spec.viaScript ? ['PATH="$PWD/node_modules/.bin:$PATH"'] : [];
    if (spec.family === 'node-test' && reporter?.runner && reporter.keyFile) return [...path, ...viaBatonRunner(kept, runner, reporter, files)].join(' ');
    return [...path, ...kept.map(quoteToken), ...[...reporterArgs, ...fileArgs].map(quoteArg)].join(' ');
  }
  const args = [...reporterArgs, ...fileArgs].map(quoteArg).join(' ');
  return spec.viaScript ? `${command} -- ${args}` : `${command} ${args}`;
}

/**
 * `node [options] --test [--test-* options]` as `node [options] baton-run.mjs …`: the node options
 * (`--import tsx`, `--env-file`) stay, the test runner's own flags go (Baton reports, and a name
 * pattern or `--test-only` would leave locked tests out), except the concurrency and the timeout.
 */
function viaBatonRunner(kept: readonly string[], runner: number, reporter: NodeReporter, files: readonly string[]): string[] {
  const options: string[] = [];
  const test: Record<string, string> = {};
  for (let i = runner + 1; i < kept.length; i++) {
    const token = kept[i]!;
    const [name, inline] = token.includes('=') ? [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)] : [token, null];
    const value = inline ?? (VALUE_OPTIONS['node-test'].has(name) && i + 1 < kept.length ? kept[++i]! : null);
    if (name === '--test' || name.startsWith('--test-')) {
      if (value !== null) test[name] = value;
      continue;
    }
    options.push(token, ...(inline === null && value !== null ? [value] : []));
  }
  const concurrency = test['--test-concurrency'];
  const timeout = test['--test-timeout'];
  const node = kept[runner]!;
  const sealed = reporter.node && (/^node(?:js)?$/.test(node) || resolve(node) === reporter.node.from) ? reporter.node.path : null;
  // `exec`, after any leading assignments: the shell gives way to the driver, which is then the tests' parent and no shell is left beside it.
  const words = kept.slice(0, runner);
  const assignments = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const lead = assignments < 0 ? words.length : assignments;
  return [
    ...words.slice(0, lead).map(quoteToken),
    'exec',
    ...words.slice(lead).map(quoteToken),
    sealed ? quoteArg(sealed) : quoteToken(node),
    ...(reporter.guard ? [quoteArg(`--import=${pathToFileURL(reporter.guard).href}`)] : []),
    ...options.map(quoteArg),
    quoteArg(reporter.runner!),
    quoteArg(`--destination=${reporter.destination}`),
    quoteArg(`--key-file=${reporter.keyFile!}`),
    ...(concurrency !== undefined ? [quoteArg(`--concurrency=${concurrency}`)] : []),
    ...(timeout !== undefined ? [quoteArg(`--timeout=${timeout}`)] : []),
    '--',
    ...files.map(quoteArg),
  ];
}

/** Whether Baton can choose the files a runner of this family runs (and so load canaries into it). */
export const choosesFiles = (command: string, spec: RunnerSpec): boolean => spec.family !== 'other' || command.includes('{files}');

/** Splits a simple shell command into words (quotes removed); null when it uses anything beyond words and quotes. */
export function splitCommand(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      if (end < 0) return null;
      const inner = command.slice(i + 1, end);
      if (c === '"' && /[$`\\]/.test(inner)) return null;
      word = (word ?? '') + inner;
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (/[|&;<>()$`\\*?[\]{}~#!]/.test(c)) {
      return null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words.length ? words : null;
}

/** Environment assignments are kept as written (`NODE_ENV=test node --test`): their value may need quotes. */
const quoteToken = (token: string): string => {
  const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(token);
  return assignment ? `${assignment[1]}=${quoteArg(assignment[2]!)}` : quoteArg(token);
};

/** Where the runner's own word is: `node` (followed by --test), `vitest`, `jest`, `pytest` (or `python -m pytest`). */
function runnerIndex(tokens: readonly string[], family: RunnerFamily): number {
  const base = (t: string) => t.split('/').pop() ?? t;
  if (family === 'node-test') return tokens.findIndex((t, i) => /^node(?:js)?$/.test(base(t)) && tokens.slice(i + 1).some((n) => n === '--test'));
  if (family === 'pytest') {
    const m = tokens.findIndex((t, i) => t === '-m' && tokens[i + 1] === 'pytest');
    return m >= 0 ? m + 1 : tokens.findIndex((t) => base(t) === 'pytest');
  }
  const at = tokens.findIndex((t) => base(t) === family);
  // `vitest run` keeps its sub-command.
  return family === 'vitest' && (tokens[at + 1] === 'run' || tokens[at + 1] === 'watch') ? at + 1 : at;
}

/** Options whose value may come as the next word (`--import tsx`), per family: that word is not a path. */
const VALUE_OPTIONS: Readonly<Record<RunnerFamily, ReadonlySet<string>>> = {
  'node-test': new Set([
    '-r',
    '--require',
    '--import',
    '--loader',
    '--experimental-loader',
    '-C',
    '--conditions',
    '--test-reporter',
    '--test-reporter-destination',
    '--test-name-pattern',
    '--test-skip-pattern',
    '--test-concurrency',
    '--test-timeout',
    '--env-file',
    '--input-type',
    '--stack-size',
    '--max-old-space-size',
  ]),
  vitest: new Set([
    '-c',
    '--config',
    '-r',
    '--root',
    '--dir',
    '--project',
    '--reporter',
    '--outputFile',
    '-t',
    '--testNamePattern',
    '--environment',
    '--pool',
    '--mode',
    '--coverage.reporter',
  ]),
  jest: new Set([
    '-c',
    '--config',
    '--rootDir',
    '--reporters',
    '-t',
    '--testNamePattern',
    '--testEnvironment',
    '--maxWorkers',
    '-w',
    '--outputFile',
    '--selectProjects',
  ]),
  pytest: new Set([
    '-k',
    '-m',
    '-p',
    '-c',
    '-o',
    '--rootdir',
    '--junitxml',
    '--junit-xml',
    '--tb',
    '--maxfail',
    '--confcutdir',
    '--basetemp',
    '-W',
    '--import-mode',
  ]),
  other: new Set(),
};

/** The command up to and including the runner's options, without the path arguments that make it discover files. */
function withoutPaths(tokens: readonly string[], runner: number, family: RunnerFamily): string[] {
  const kept = tokens.slice(0, runner + 1);
  for (let i = runner + 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.startsWith('-')) continue;
    kept.push(token);
    if (!token.includes('=') && VALUE_OPTIONS[family].has(token) && i + 1 < tokens.length) kept.push(tokens[++i]!);
  }
  return kept;
}

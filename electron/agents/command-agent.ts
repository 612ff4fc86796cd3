/**
 * The `command` adapter: any program as an agent, and the base of every preset (presets.ts).
 *
 * The protocol (docs/agents.md, "Your own agent"): the program runs in the turn's worktree with the prompt
 * on standard input and BATON_ROLE, BATON_STEP, BATON_FEATURE, BATON_ITEM, BATON_ATTEMPT,
 * BATON_CONTEXT (the context pack's path) and DATABASE_URL (the turn's own database branch) set.
 * Exit 0: the turn is done; anything else is a failed turn. A reviewer says its verdict on a line
 * `BATON-REVIEW: accept|refactor|smell <note>`. Inside the sandbox only the worktree and a private
 * HOME (seeded with the host's login files) are writable; its whole process tree is killed at the
 * end, after the timeout, or after too long a silence.
 */
import { cp, lstat, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { agentConfigOf, type AgentConfig, type AgentSetting, type AgentUsage } from '../../shared/agents';
import { matchesAny } from '../../shared/glob';
import { childEnv } from '../platform/child-env';
import { snapshotTree } from '../platform/tree-snapshot';
import { CommandError, quoteArg, runCommand } from '../process/run-command';
import { findExecutable, openSandbox, type SandboxSetting } from '../process/sandbox';
import type { AgentAdapter, TurnRequest, TurnResult } from './agent-port';
import { plainStream, PRESET_SPECS, type PresetSpec } from './presets';

export const DEFAULT_TURN_TIMEOUT_S = 900;
export const DEFAULT_SILENCE_S = 300;
/** Exit codes for a turn that did not end by itself (as shells report them). */
const TIMED_OUT = 124;
const NOT_STARTED = 127;

export interface CommandAgentOptions {
  readonly config: AgentConfig;
  readonly sandbox?: SandboxSetting;
  readonly bwrap?: string;
  readonly hide?: readonly string[];
  readonly passEnv?: readonly string[];
  /** Where the variables come from (default process.env). */
  readonly from?: NodeJS.ProcessEnv;
  /** The person's HOME, whose login files are copied into the agent's private one (default os.homedir()). */
  readonly home?: string;
}

const presetOf = (config: AgentConfig): PresetSpec | null =>
  config.adapter === 'command' || config.adapter === 'scripted' ? null : PRESET_SPECS[config.adapter];

/** The program and its fixed arguments: `command` as configured, or the preset's binary. */
function programOf(config: AgentConfig): string[] {
  const preset = presetOf(config);
  if (config.command) return [...config.command];
  if (preset) return [preset.binary];
  throw new Error('An agent with adapter "command" needs "command": the program and its arguments, e.g. ["my-agent", "--flag"].');
}

const REVIEW_LINE = /^\s*BATON-REVIEW:\s*(accept|refactor|smell)\b[ \t:-]*(.*)$/gim;

/** The last `BATON-REVIEW:` line in what the agent said; none: accept (its tests already passed). */
export function reviewIn(text: string): { decision: 'accept' | 'refactor' | 'smell'; note: string | null } | null {
  let found: { decision: 'accept' | 'refactor' | 'smell'; note: string | null } | null = null;
  for (const m of text.matchAll(REVIEW_LINE)) found = { decision: m[1]!.toLowerCase() as 'accept', note: m[2]!.trim() || null };
  return found;
}

export function commandAgent(options: CommandAgentOptions): AgentAdapter {
  const { config } = options;
  const preset = presetOf(config);
  const program = programOf(config);
  const from = options.from ?? process.env;
  const keyEnv = preset ? preset.keyEnv.filter((name) => from[name] !== undefined) : [];
  const pass = [...(options.passEnv ?? []), ...keyEnv];
  const secrets = pass.filter((name) => keyEnv.includes(name) || /KEY|TOKEN|SECRET|PASSWORD/i.test(name)).map((name) => from[name] ?? '');
  return {
    name: config.adapter,
    needsDatabase: true,
    async turn(request: TurnRequest): Promise<TurnResult> {
      const started = Date.now();
      const lines: string[] = [];
      const stream = preset ? preset.stream() : plainStream();
      const say = (line: string) => {
        lines.push(line);
        request.onOutput?.(`${line}\n`);
      };
      const scratch = await mkdtemp(join(tmpdir(), 'baton-turn-'));
      try {
        const contextDir = join(scratch, 'context');
        const home = join(scratch, 'home');
        await mkdir(contextDir);
        await mkdir(home);
        const contextFile = join(contextDir, 'context.json');
        await writeFile(contextFile, `${JSON.stringify(request.context ?? null, null, 2)}\n`);
        if (preset) await seedHome(options.home ?? homedir(), home, preset.homeSeed);
        const writable = request.context?.mayWrite ?? [];
        const readOnlyFiles = request.context?.readOnly ?? [];
        const built = preset
          ? preset.command({
              role: request.role,
              step: request.step,
              model: config.model,
              writable,
              editableFiles: writable.length ? await filesMatching(request.worktree, writable, readOnlyFiles) : [],
              readOnlyFiles,
              prompt: request.prompt,
            })
          : { args: [], stdin: request.prompt };
        const argv = [...program, ...built.args, ...(config.args ?? [])];
        // The program and files its command line or settings name may sit where the sandbox hides (under /tmp, Baton's folders).
        const named = [
          ...(await existingPaths([...argv, ...Object.values(config.env ?? {})].flatMap(absolutePathsIn))),
          ...(await programPaths(program[0]!)),
          ...(config.readPaths ?? []),
        ];
        const sandbox = await openSandbox(options.sandbox, [request.worktree, home], {
          hide: [...(options.hide ?? [])],
          readOnly: [contextDir, ...named],
          protect: readOnlyFiles.map((f) => join(request.worktree, f)),
          ...(options.bwrap ? { binary: options.bwrap } : {}),
        });
        const who = `${request.role} ${request.step}${request.item ? ` ${request.item}` : ''} attempt ${request.attempt}`;
        say(`[${config.adapter}] ${who}: ${program.map(quoteArg).join(' ')}${config.model ? ` (model ${config.model})` : ''}`);
        say(sandbox.note);
        const env = childEnv({
          home,
          pass,
          from,
          extra: {
            ...request.env,
            ...config.env,
            BATON_ROLE: request.role,
            BATON_STEP: request.step,
            BATON_FEATURE: request.context?.feature.id ?? '',
            BATON_ITEM: request.item ?? '',
            BATON_ATTEMPT: String(request.attempt),
            BATON_CONTEXT: contextFile,
          },
        });
        const spawn = sandbox.spawnOptions(request.worktree, env);
        let code: number;
        try {
          const result = await runCommand(argv.map(quoteArg).join(' '), {
            cwd: request.worktree,
            ...spawn,
            ...(built.stdin !== undefined ? { input: built.stdin } : {}),
            timeoutMs: (config.timeoutSeconds ?? DEFAULT_TURN_TIMEOUT_S) * 1000,
            silenceMs: (config.silenceSeconds ?? DEFAULT_SILENCE_S) * 1000,
            signal: request.signal,
            secrets,
            reap: true,
            onOutput: (text) => {
              for (const line of text.split('\n').slice(0, -1)) for (const shown of stream.line(line)) say(shown);
            },
          });
          code = result.code ?? 128 + 9;
          if (result.code === 0 && stream.failure()) {
            say(`[${config.adapter}] ${stream.failure()}: the turn counts as failed.`);
            code = 1;
          }
          say(`(exit ${result.code ?? result.signal})`);
        } catch (error) {
          if (error instanceof CommandError && error.code === 'cancelled') throw error;
          const message = error instanceof Error ? error.message : String(error);
          say(`[${config.adapter}] ${message}`);
          code = /Could not start/.test(message) ? NOT_STARTED : TIMED_OUT;
        }
        const usage = stream.usage();
        say(`[${config.adapter}] ${usageLine({ ...usage, model: usage.model ?? config.model ?? null })}`);
        // The verdict is in the agent's own words (a host's messages, decoded), never in Baton's lines about the turn.
        const review = request.step === 'review' ? (reviewIn(stream.said()) ?? { decision: 'accept' as const, note: null }) : null;
        return {
          exitCode: code,
          transcript: lines.join('\n'),
          ms: Date.now() - started,
          review,
          said: stream.said(),
          usage: { ...usage, host: config.adapter, model: usage.model ?? config.model ?? null },
        };
      } finally {
        await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
      }
    },
  };
}

/** One line for the live panel: the model and what the turn used, as far as the host reported it. */
export function usageLine(usage: AgentUsage): string {
  const parts = [
    usage.inputTokens !== null ? `${usage.inputTokens.toLocaleString('en')} tokens in` : null,
    usage.outputTokens !== null ? `${usage.outputTokens.toLocaleString('en')} out` : null,
    usage.costUsd !== null ? `$${usage.costUsd.toFixed(4)}` : null,
  ].filter(Boolean);
  return `usage: ${parts.length ? parts.join(', ') : 'not reported'}${usage.model ? ` (model ${usage.model})` : ''}`;
}

/** Copies the host's login and settings (what exists of `names` under HOME) into the agent's private HOME. */
async function seedHome(from: string, to: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const source = join(from, name);
    if (!(await lstat(source).catch(() => null))) continue;
    await cp(source, join(to, name), { recursive: true, dereference: true, errorOnExist: false }).catch(() => undefined);
  }
}

/** Absolute paths written in an argument (`/opt/agent.mjs`, or inside `sh -c "node /tmp/a.mjs"`). */
export function absolutePathsIn(arg: string): string[] {
  return [...arg.matchAll(/(?:^|[\s'"=:])(\/[^\s'";:]+)/g)].map((m) => m[1]!).filter((p) => isAbsolute(p) && p !== '/');
}

/**
 * Where a program named on PATH lives, for the sandbox to show read-only (it shows nothing of the
 * user's home otherwise): its folder on PATH, and the package or folder its real file sits in
 * (`~/.npm-global/bin/claude` is a link into `lib/node_modules/@anthropic-ai/claude-code`).
 */
export async function programPaths(program: string): Promise<string[]> {
  const found = isAbsolute(program) ? program : await findExecutable(program);
  if (!found) return [];
  const real = await realpath(found).catch(() => found);
  const inModules = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(real)?.[1];
  return [...new Set([dirname(found), inModules ?? dirname(real)])];
}

async function existingPaths(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of paths) if (await lstat(path).catch(() => null)) out.push(path);
  return out;
}

/** Files in the worktree the role may write (for hosts that are told which files to edit). */
async function filesMatching(worktree: string, globs: readonly string[], locked: readonly string[]): Promise<string[]> {
  const tree = await snapshotTree(worktree);
  return [...tree.keys()].filter((path) => matchesAny(path, globs) && !locked.includes(path)).sort();
}

export interface Preflight {
  readonly ok: boolean;
  /** What is wrong and how to fix it, for a person. */
  readonly problem: string | null;
  /** The program that would run, as found. */
  readonly program: string | null;
  readonly loggedIn: boolean | null;
}

/**
 * Before a run starts: is the agent's program there, and (for a preset) is it logged in — an API
 * key it reads from the environment, or its login files under HOME.
 */
export async function preflightAgent(
  role: string,
  setting: AgentSetting,
  options: { readonly from?: NodeJS.ProcessEnv; readonly home?: string } = {},
): Promise<Preflight> {
  const config = agentConfigOf(setting);
  if (config.adapter === 'scripted') return { ok: true, problem: null, program: null, loggedIn: null };
  const preset = presetOf(config);
  const from = options.from ?? process.env;
  let program: string[];
  try {
    program = programOf(config);
  } catch (error) {
    return { ok: false, problem: `The ${role}'s agent: ${(error as Error).message}`, program: null, loggedIn: null };
  }
  const found = await findExecutable(program[0]!, from.PATH ?? '');
  if (!found) {
    const fix =
      preset && !config.command
        ? `To fix: ${preset.install}, or set "command" for the ${role} in .baton/project.json.`
        : `To fix: install it, or correct "command" for the ${role} in .baton/project.json.`;
    return {
      ok: false,
      problem: `The ${role}'s agent (${config.adapter}) cannot start: ${program[0]} is not found${program[0]!.includes('/') ? '' : ' on PATH'}. ${fix}`,
      program: null,
      loggedIn: null,
    };
  }
  if (!preset) return { ok: true, problem: null, program: found, loggedIn: null };
  const home = options.home ?? homedir();
  const loggedIn = preset.keyEnv.some((name) => (from[name] ?? '') !== '') || (await anyExists(preset.credentialFiles.map((f) => join(home, f))));
  if (!loggedIn)
    return {
      ok: false,
      problem: `The ${role}'s agent (${preset.name}) is not logged in: no ${preset.keyEnv.join(' or ')} in the environment and no ${preset.credentialFiles.map((f) => `~/${f}`).join(' or ')}. To fix: ${preset.login}.`,
      program: found,
      loggedIn: false,
    };
  return { ok: true, problem: null, program: found, loggedIn: true };
}

async function anyExists(paths: readonly string[]): Promise<boolean> {
  for (const path of paths) if (await lstat(path).catch(() => null)) return true;
  return false;
}

/**
 * The agent CLIs Baton drives, each as the `command` adapter with its host's arguments and a
 * parser for its machine-readable output: Claude Code (`stream-json`), Codex CLI (`exec --json`),
 * Gemini CLI (`stream-json`) and Aider (plain text, whose cost line is parsed). The parser turns
 * each line into what the live panel shows (tool calls, file edits, messages) and adds up usage.
 */
import type { Preset } from '../../shared/agents';
import type { Role, TurnStep } from './agent-port';
import { aiderStream, claudeStream, codexStream, geminiStream, type HostStream } from './host-streams';

export { plainStream, type HostStream } from './host-streams';

/** What a preset needs to build its command line. */
export interface PresetTurn {
  readonly role: Role;
  readonly step: TurnStep;
  readonly model: string | undefined;
  /** Globs the role may write (empty: a reviewer, who writes nothing). */
  readonly writable: readonly string[];
  /** Existing files in the worktree the role may write, and the locked ones it may only read (Aider names files). */
  readonly editableFiles: readonly string[];
  readonly readOnlyFiles: readonly string[];
  readonly prompt: string;
}

export interface PresetSpec {
  readonly name: Preset;
  /** The program, looked up on PATH. */
  readonly binary: string;
  /** How to install it, for the preflight's message. */
  readonly install: string;
  /** How to log in, for the preflight's message. */
  readonly login: string;
  /** Arguments and what goes on standard input. */
  command(turn: PresetTurn): { readonly args: string[]; readonly stdin: string | undefined };
  stream(): HostStream;
  /** Any of these set (and passed to the agent) counts as logged in. */
  readonly keyEnv: readonly string[];
  /** Any of these present under HOME counts as logged in; with `homeSeed`, copied into the agent's private HOME. */
  readonly credentialFiles: readonly string[];
  /** Files and folders under HOME copied into the agent's private HOME (its login and settings). */
  readonly homeSeed: readonly string[];
}

/** Claude Code's permission rules from the role's write scope: read anything, edit only what it may write. */
export function claudeTools(turn: Pick<PresetTurn, 'writable' | 'readOnlyFiles'>): { allowed: string[]; disallowed: string[] } {
  const read = ['Read', 'Grep', 'Glob', 'LS', 'TodoWrite'];
  if (turn.writable.length === 0) return { allowed: read, disallowed: ['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'Bash'] };
  const edits = turn.writable.flatMap((glob) => [`Edit(${glob})`, `Write(${glob})`, `MultiEdit(${glob})`]);
  const locked = turn.readOnlyFiles.flatMap((file) => [`Edit(${file})`, `Write(${file})`, `MultiEdit(${file})`]);
  return { allowed: [...read, 'Bash', ...edits], disallowed: [...locked, 'Bash(git commit:*)', 'Bash(git push:*)', 'WebSearch'] };
}

export const PRESET_SPECS: Readonly<Record<Preset, PresetSpec>> = {
  claude: {
    name: 'claude',
    binary: 'claude',
    install: 'install Claude Code (npm install -g @anthropic-ai/claude-code)',
    login: 'run `claude` once and log in, or pass ANTHROPIC_API_KEY with "passEnv" in .baton/project.json',
    command(turn) {
      const tools = claudeTools(turn);
      return {
        args: [
          '-p',
          '--output-format',
          'stream-json',
          '--verbose',
          ...(turn.model ? ['--model', turn.model] : []),
          '--allowedTools',
          tools.allowed.join(','),
          '--disallowedTools',
          tools.disallowed.join(','),
        ],
        stdin: turn.prompt,
      };
    },
    stream: claudeStream,
    keyEnv: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN'],
    credentialFiles: ['.claude/.credentials.json', '.claude.json'],
    homeSeed: ['.claude', '.claude.json'],
  },
  codex: {
    name: 'codex',
    binary: 'codex',
    install: 'install Codex CLI (npm install -g @openai/codex)',
    login: 'run `codex login`, or pass OPENAI_API_KEY with "passEnv" in .baton/project.json',
    command(turn) {
      const sandbox = turn.writable.length === 0 ? 'read-only' : 'workspace-write';
      return { args: ['exec', '--json', '--sandbox', sandbox, ...(turn.model ? ['--model', turn.model] : []), '-'], stdin: turn.prompt };
    },
    stream: codexStream,
    keyEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY'],
    credentialFiles: ['.codex/auth.json'],
    homeSeed: ['.codex'],
  },
  gemini: {
    name: 'gemini',
    binary: 'gemini',
    install: 'install Gemini CLI (npm install -g @google/gemini-cli)',
    login: 'run `gemini` once and log in, or pass GEMINI_API_KEY with "passEnv" in .baton/project.json',
    command(turn) {
      // Headless Gemini reads standard input and appends it to -p.
      return {
        args: [
          '-p',
          'Do the task described above.',
          '--output-format',
          'stream-json',
          ...(turn.writable.length === 0 ? [] : ['--yolo']),
          ...(turn.model ? ['--model', turn.model] : []),
        ],
        stdin: turn.prompt,
      };
    },
    stream: geminiStream,
    keyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
    credentialFiles: ['.gemini/oauth_creds.json', '.gemini/google_accounts.json'],
    homeSeed: ['.gemini'],
  },
  aider: {
    name: 'aider',
    binary: 'aider',
    install: 'install Aider (python -m pip install aider-install && aider-install)',
    login:
      'pass your model\'s API key (for example OPENAI_API_KEY or ANTHROPIC_API_KEY) with "passEnv" in .baton/project.json, or write it in ~/.aider.conf.yml',
    command(turn) {
      return {
        args: [
          '--message',
          turn.prompt,
          '--yes-always',
          '--no-auto-commits',
          '--no-dirty-commits',
          '--no-pretty',
          '--no-stream',
          '--no-check-update',
          '--no-show-release-notes',
          '--no-gitignore',
          ...(turn.model ? ['--model', turn.model] : []),
          ...turn.editableFiles.flatMap((f) => ['--file', f]),
          ...turn.readOnlyFiles.flatMap((f) => ['--read', f]),
        ],
        stdin: undefined,
      };
    },
    stream: aiderStream,
    keyEnv: ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'DEEPSEEK_API_KEY', 'OPENROUTER_API_KEY'],
    credentialFiles: ['.aider.conf.yml', '.env'],
    homeSeed: ['.aider.conf.yml', '.aider'],
  },
};

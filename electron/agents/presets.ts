/**
 * The agent CLIs Baton drives, each as the `command` adapter with its host's arguments and a
 * parser for its machine-readable output: Claude Code (`stream-json`), Codex CLI (`exec --json`),
 * Gemini CLI (`stream-json`) and Aider (plain text, whose cost line is parsed). The parser turns
 * each line into what the live panel shows (tool calls, file edits, messages) and adds up usage.
 */
import type { AgentUsage, Preset } from '../../shared/agents';
import type { Role, TurnStep } from './agent-port';

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

export interface HostStream {
  /** The transcript lines for one line of the host's output (none: nothing worth showing). */
  line(text: string): string[];
  /** What the host reported using, so far. */
  usage(): AgentUsage;
  /** The host said the turn failed (an API error, a failed turn event), even if it exits 0. */
  failure(): string | null;
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

const json = (text: string): Record<string, unknown> | null => {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const short = (text: string, max = 300): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};
/** A tool call's argument worth a line: the file it touches, or the command it runs. */
const toolTarget = (input: Record<string, unknown>): string =>
  str(input.file_path) ?? str(input.path) ?? str(input.absolute_path) ?? str(input.command) ?? str(input.pattern) ?? '';

/** Adds up usage as a host reports it; `set` replaces totals a host reports cumulatively. */
class Tally {
  model: string | null = null;
  input: number | null = null;
  output: number | null = null;
  cost: number | null = null;
  failed: string | null = null;
  constructor(readonly host: string) {}
  add(input: number | null, output: number | null, cost: number | null = null): void {
    if (input !== null) this.input = (this.input ?? 0) + input;
    if (output !== null) this.output = (this.output ?? 0) + output;
    if (cost !== null) this.cost = (this.cost ?? 0) + cost;
  }
  usage(): AgentUsage {
    return { host: this.host, model: this.model, inputTokens: this.input, outputTokens: this.output, costUsd: this.cost };
  }
}

/** Lines that are not the host's JSON (a warning, a banner) are shown as they are. */
const plain = (text: string): string[] => (text.trim() ? [text.trimEnd()] : []);

function claudeStream(): HostStream {
  const tally = new Tally('claude');
  return {
    line(text) {
      const event = json(text);
      if (!event) return plain(text);
      const type = str(event.type);
      if (type === 'system' && event.subtype === 'init') {
        tally.model = str(event.model);
        return [`[claude] session started${tally.model ? ` (${tally.model})` : ''}`];
      }
      if (type === 'assistant' || type === 'user') {
        const content = obj(event.message).content;
        const out: string[] = [];
        for (const part of Array.isArray(content) ? content : []) {
          const p = obj(part);
          if (p.type === 'text' && str(p.text)?.trim()) out.push(`[claude] ${short(str(p.text)!)}`);
          if (p.type === 'tool_use') out.push(`[claude] tool ${str(p.name) ?? '?'} ${short(toolTarget(obj(p.input)), 200)}`.trimEnd());
          if (p.type === 'tool_result' && p.is_error === true)
            out.push(`[claude] tool error: ${short(typeof p.content === 'string' ? p.content : JSON.stringify(p.content ?? ''))}`);
        }
        return out;
      }
      if (type === 'result') {
        const usage = obj(event.usage);
        const cached = (num(usage.cache_read_input_tokens) ?? 0) + (num(usage.cache_creation_input_tokens) ?? 0);
        const input = num(usage.input_tokens);
        tally.add(input === null ? null : input + cached, num(usage.output_tokens), num(event.total_cost_usd) ?? num(event.cost_usd));
        if (event.is_error === true || (str(event.subtype) ?? 'success') !== 'success')
          tally.failed = `Claude Code ended the turn with ${str(event.subtype) ?? 'an error'}${str(event.result) ? `: ${short(str(event.result)!)}` : ''}`;
        return [`[claude] done (${str(event.subtype) ?? 'result'}${num(event.num_turns) !== null ? `, ${num(event.num_turns)} turns` : ''})`];
      }
      return [];
    },
    usage: () => tally.usage(),
    failure: () => tally.failed,
  };
}

function codexStream(): HostStream {
  const tally = new Tally('codex');
  return {
    line(text) {
      const event = json(text);
      if (!event) return plain(text);
      const type = str(event.type);
      const item = obj(event.item);
      if (type === 'thread.started') return [`[codex] thread ${str(event.thread_id) ?? ''}`.trimEnd()];
      if (type === 'item.started' && item.type === 'command_execution') return [`[codex] $ ${short(str(item.command) ?? '', 200)}`];
      if (type === 'item.completed') {
        if (item.type === 'agent_message' && str(item.text)?.trim()) return [`[codex] ${short(str(item.text)!)}`];
        if (item.type === 'file_change' && Array.isArray(item.changes))
          return item.changes.map((c) => `[codex] ${str(obj(c).kind) ?? 'change'} ${str(obj(c).path) ?? '?'}`);
        if (item.type === 'command_execution') return [`[codex] (exit ${num(item.exit_code) ?? '?'})`];
        if (item.type === 'error') return [`[codex] error: ${short(str(item.message) ?? '')}`];
        return [];
      }
      if (type === 'turn.completed') {
        const usage = obj(event.usage);
        tally.add(num(usage.input_tokens), num(usage.output_tokens));
        return ['[codex] turn completed'];
      }
      if (type === 'turn.failed' || type === 'error') {
        const message = str(obj(event.error).message) ?? str(event.message) ?? 'unknown error';
        tally.failed = `Codex reported: ${short(message)}`;
        return [`[codex] ${type === 'error' ? 'error' : 'turn failed'}: ${short(message)}`];
      }
      return [];
    },
    usage: () => tally.usage(),
    failure: () => tally.failed,
  };
}

function geminiStream(): HostStream {
  const tally = new Tally('gemini');
  let said = '';
  const flush = (): string[] => {
    const out = said.trim() ? [`[gemini] ${short(said)}`] : [];
    said = '';
    return out;
  };
  return {
    line(text) {
      const event = json(text);
      if (!event) return plain(text);
      const type = str(event.type);
      if (type === 'init') {
        tally.model = str(event.model);
        return [`[gemini] session started${tally.model ? ` (${tally.model})` : ''}`];
      }
      if (type === 'message' && event.role === 'assistant') {
        // Deltas are pieces of one message: shown whole when something else happens.
        said += str(event.content) ?? '';
        return event.delta === true ? [] : flush();
      }
      if (type === 'tool_use') return [...flush(), `[gemini] tool ${str(event.tool_name) ?? '?'} ${short(toolTarget(obj(event.parameters)), 200)}`.trimEnd()];
      if (type === 'tool_result' && event.status !== 'success')
        return [...flush(), `[gemini] tool error: ${short(str(obj(event.error).message) ?? str(event.output) ?? '')}`];
      if (type === 'error') return [...flush(), `[gemini] ${str(event.severity) ?? 'error'}: ${short(str(event.message) ?? '')}`];
      if (type === 'result') {
        const stats = obj(event.stats);
        tally.add(num(stats.input_tokens), num(stats.output_tokens));
        if (event.status !== 'success')
          tally.failed = `Gemini CLI ended the turn with ${str(event.status) ?? 'an error'}: ${short(str(obj(event.error).message) ?? '')}`;
        return [...flush(), `[gemini] done (${str(event.status) ?? 'result'})`];
      }
      return [];
    },
    usage: () => tally.usage(),
    failure: () => tally.failed,
  };
}

/** Aider prints text; its cost line says `Tokens: 2.1k sent, 171 received. Cost: $0.0067 message, $0.0091 session.` */
const AIDER_TOKENS = /^Tokens:\s*([\d.]+)([km]?)\s+sent(?:,\s*[\d.]+[km]?\s+cache \w+)*,\s*([\d.]+)([km]?)\s+received\.(?:\s*Cost:\s*\$([\d.]+)\s+message)?/i;
const scaled = (n: string, unit: string | undefined): number => Math.round(Number(n) * (unit === 'k' ? 1e3 : unit === 'm' ? 1e6 : 1));

function aiderStream(): HostStream {
  const tally = new Tally('aider');
  return {
    line(text) {
      const m = AIDER_TOKENS.exec(text.trim());
      if (m) tally.add(scaled(m[1]!, m[2]?.toLowerCase()), scaled(m[3]!, m[4]?.toLowerCase()), m[5] ? Number(m[5]) : null);
      const model = /^(?:Main model|Model):\s*(\S+)/.exec(text.trim());
      if (model) tally.model = model[1]!;
      return plain(text);
    },
    usage: () => tally.usage(),
    failure: () => tally.failed,
  };
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

/** A `command` agent's stream: its lines as they are, no usage. */
export function plainStream(): HostStream {
  const tally = new Tally('command');
  return { line: plain, usage: () => tally.usage(), failure: () => null };
}

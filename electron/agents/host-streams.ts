/**
 * Each agent host's machine-readable output, a line at a time: what the live panel shows (messages,
 * tool calls with their file or command, errors), what the agent itself said (a reviewer's verdict
 * is there), the usage it reported, and whether it said the turn failed.
 */
import type { AgentUsage } from '../../shared/agents';

export interface HostStream {
  /** The transcript lines for one line of the host's output (none: nothing worth showing). */
  line(text: string): string[];
  /** What the host reported using, so far. */
  usage(): AgentUsage;
  /** The host said the turn failed (an API error, a failed turn event), even if it exits 0. */
  failure(): string | null;
  /** What the agent itself said, verbatim (its messages, decoded from the host's events): where a reviewer's verdict line is. */
  said(): string;
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

const SAID_CHARS = 256 * 1024;

/** Adds up usage as a host reports it; `set` replaces totals a host reports cumulatively. */
class Tally {
  model: string | null = null;
  input: number | null = null;
  output: number | null = null;
  cost: number | null = null;
  failed: string | null = null;
  /** What the agent said, newest last; the oldest is dropped past SAID_CHARS (a verdict comes at the end). */
  readonly words: string[] = [];
  private chars = 0;
  constructor(readonly host: string) {}
  remember(text: string): void {
    this.words.push(text);
    this.chars += text.length;
    while (this.chars > SAID_CHARS && this.words.length > 1) this.chars -= this.words.shift()!.length;
  }
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

export function claudeStream(): HostStream {
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
          if (p.type === 'text' && str(p.text)?.trim()) {
            if (type === 'assistant') tally.remember(str(p.text)!);
            out.push(`[claude] ${short(str(p.text)!)}`);
          }
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
    said: () => tally.words.join('\n'),
  };
}

export function codexStream(): HostStream {
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
        if (item.type === 'agent_message' && str(item.text)?.trim()) {
          tally.remember(str(item.text)!);
          return [`[codex] ${short(str(item.text)!)}`];
        }
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
    said: () => tally.words.join('\n'),
  };
}

export function geminiStream(): HostStream {
  const tally = new Tally('gemini');
  let said = '';
  const flush = (): string[] => {
    const out = said.trim() ? [`[gemini] ${short(said)}`] : [];
    if (said.trim()) tally.remember(said);
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
        if (event.delta === true) {
          said += str(event.content) ?? '';
          return [];
        }
        // A whole message: the pieces before it were one message, this is another.
        const before = flush();
        said = str(event.content) ?? '';
        return [...before, ...flush()];
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
    said: () => [...tally.words, said].join('\n'),
  };
}

/** Aider prints text; its cost line says `Tokens: 2.1k sent, 171 received. Cost: $0.0067 message, $0.0091 session.` */
const AIDER_TOKENS = /^Tokens:\s*([\d.]+)([km]?)\s+sent(?:,\s*[\d.]+[km]?\s+cache \w+)*,\s*([\d.]+)([km]?)\s+received\.(?:\s*Cost:\s*\$([\d.]+)\s+message)?/i;
const scaled = (n: string, unit: string | undefined): number => Math.round(Number(n) * (unit === 'k' ? 1e3 : unit === 'm' ? 1e6 : 1));

export function aiderStream(): HostStream {
  const tally = new Tally('aider');
  return {
    line(text) {
      const m = AIDER_TOKENS.exec(text.trim());
      if (m) tally.add(scaled(m[1]!, m[2]?.toLowerCase()), scaled(m[3]!, m[4]?.toLowerCase()), m[5] ? Number(m[5]) : null);
      const model = /^(?:Main model|Model):\s*(\S+)/.exec(text.trim());
      if (model) tally.model = model[1]!;
      tally.remember(text);
      return plain(text);
    },
    usage: () => tally.usage(),
    failure: () => tally.failed,
    said: () => tally.words.join('\n'),
  };
}

/** A `command` agent's stream: its lines as they are, no usage. */
export function plainStream(): HostStream {
  const tally = new Tally('command');
  return {
    line: (text) => {
      tally.remember(text);
      return plain(text);
    },
    usage: () => tally.usage(),
    failure: () => null,
    said: () => tally.words.join('\n'),
  };
}

/**
 * Runs a project's command (a migration tool, a masking script) as a child process through the
 * shell: in its own process group so a timeout or a cancel kills the whole tree, with no stdin (a
 * prompt gets end-of-file instead of hanging), with captured output capped, and with the password
 * of DATABASE_URL scrubbed from everything it hands back.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { redactUrl } from '../../shared/branches';
import { BACKGROUND_PRIORITY, lowerPriority, NICE_BINARY } from './priority';

/**
 * A command that could not start, ran too long or was cancelled: `failed` or `cancelled`, with words
 * a person can act on. Callers that speak in their own errors (branches) translate it.
 */
export class CommandError extends Error {
  constructor(
    readonly code: 'failed' | 'cancelled',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'CommandError';
  }
}

const throwIfCancelled = (signal: AbortSignal | undefined, what: string): void => {
  if (signal?.aborted) throw new CommandError('cancelled', `${what} was cancelled; nothing was left half-made.`);
};

export interface RunCommandOptions {
  readonly cwd: string;
  /** The child's whole environment; default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Default 10 minutes. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Characters kept of each of stdout and stderr (the end is kept: that is where errors are). Default 256 KiB. */
  readonly maxOutputChars?: number;
  /**
   * Runs the shell inside this launcher (a sandbox such as bubblewrap): `file args… /bin/sh -c
   * command` instead of the shell directly. POSIX only. Absent: the shell runs directly.
   */
  readonly launcher?: { readonly file: string; readonly args: readonly string[] };
  /** Each complete line of output as it comes (scrubbed like the result), for a live view. */
  readonly onOutput?: (text: string) => void;
  /**
   * After the command ends, find and kill every process it started that is still alive — also one
   * that left its process group (setsid, a daemon) — by a marker in their environment (Linux).
   * For commands that run agent-written code.
   */
  readonly reap?: boolean;
  /** Written to the command's standard input, which is then closed (an agent's prompt). Absent: no stdin. */
  readonly input?: string;
  /** Stops the command, like a timeout, when it prints nothing for this long (an agent that hangs). */
  readonly silenceMs?: number;
  /** More values to scrub from its output (API keys handed to an agent), besides DATABASE_URL's password. */
  readonly secrets?: readonly string[];
  /** Background work (mutation testing): the command and everything it starts run at the lowest CPU priority (priority.ts). */
  readonly background?: boolean;
}

export interface CommandResult {
  /** Exit code, or null when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_MAX_OUTPUT = 256 * 1024;
/** Between the polite SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 1500;
/** After the shell exits, how long a background child may keep its output open before it is killed. */
const LINGER_MS = 2000;

export async function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  const marker = options.reap ? `${randomBytes(12).toString('hex')}` : null;
  const env = marker ? { ...(options.env ?? process.env), [REAP_VARIABLE]: marker } : (options.env ?? process.env);
  const scrub = secretScrubber(env, options.secrets);
  const shown = `\`${truncate(scrub(command), 200)}\``;
  throwIfCancelled(options.signal, `Running ${shown}`);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = performance.now();
  const spawnOptions = {
    cwd: options.cwd,
    env,
    // Its own process group (POSIX): process.kill(-pid) then reaches every descendant.
    detached: process.platform !== 'win32',
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] as ['ignore' | 'pipe', 'pipe', 'pipe'],
    windowsHide: true,
  };
  // Under a launcher or `nice`, the shell is named; else Node's own (cmd.exe on Windows).
  const niced = options.background && NICE_BINARY !== null;
  const argv = [
    ...(niced ? [NICE_BINARY!, '-n', String(BACKGROUND_PRIORITY)] : []),
    ...(options.launcher ? [options.launcher.file, ...options.launcher.args] : []),
  ];
  const child = argv.length ? spawn(argv[0]!, [...argv.slice(1), '/bin/sh', '-c', command], spawnOptions) : spawn(command, { ...spawnOptions, shell: true });
  if (options.background && !niced) lowerPriority(child.pid);
  const stdout = new TailText(options.maxOutputChars ?? DEFAULT_MAX_OUTPUT);
  const stderr = new TailText(options.maxOutputChars ?? DEFAULT_MAX_OUTPUT);
  const live = options.onOutput ? lineStream(options.onOutput, scrub) : null;
  let heard = performance.now();
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    heard = performance.now();
    stdout.add(s);
    live?.stdout(s);
  });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    heard = performance.now();
    stderr.add(s);
    live?.stderr(s);
  });
  if (options.input !== undefined && child.stdin) {
    // A command that exits without reading all of it is not an error here.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }

  return new Promise<CommandResult>((resolve, reject) => {
    let stopped: 'timeout' | 'silent' | 'cancelled' | null = null;
    const timers: NodeJS.Timeout[] = [];
    const stop = (why: 'timeout' | 'silent' | 'cancelled'): void => {
      if (stopped) return;
      stopped = why;
      killTree(child.pid, 'SIGTERM');
      timers.push(setTimeout(() => killTree(child.pid, 'SIGKILL'), KILL_GRACE_MS));
    };
    const onAbort = (): void => stop('cancelled');
    timers.push(setTimeout(() => stop('timeout'), timeoutMs));
    const silenceMs = options.silenceMs;
    if (silenceMs !== undefined)
      timers.push(
        setInterval(
          () => {
            if (performance.now() - heard >= silenceMs) stop('silent');
          },
          Math.min(1000, silenceMs),
        ),
      );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (): void => {
      timers.forEach(clearTimeout);
      options.signal?.removeEventListener('abort', onAbort);
    };

    child.on('error', (error) => {
      finish();
      reject(
        new CommandError(
          'failed',
          `Could not start ${shown} in ${options.cwd}: ${scrub(error.message)}. Check that the command exists and the folder is right.`,
        ),
      );
    });
    child.on('exit', () => {
      timers.push(setTimeout(() => killTree(child.pid, 'SIGKILL'), LINGER_MS));
    });
    child.on('close', (code, signal) => {
      finish();
      live?.flush();
      // Whatever the shell left running in its group goes with it, and what escaped the group too.
      killTree(child.pid, 'SIGKILL');
      if (marker) reapMarked(marker);
      const seconds = Math.round(timeoutMs / 100) / 10;
      if (stopped === 'timeout') {
        reject(
          new CommandError(
            'failed',
            `${shown} ran longer than ${seconds} s in ${options.cwd} and was stopped with all its child processes. If it waits for input, make it non-interactive; otherwise raise the timeout.`,
          ),
        );
      } else if (stopped === 'silent') {
        reject(
          new CommandError(
            'failed',
            `${shown} printed nothing for ${Math.round((options.silenceMs ?? 0) / 100) / 10} s in ${options.cwd} and was stopped with all its child processes. If it waits for input, make it non-interactive; otherwise raise the silence limit.`,
          ),
        );
      } else if (stopped === 'cancelled') {
        reject(new CommandError('cancelled', `${shown} was cancelled and stopped with all its child processes.`));
      } else {
        resolve({ code, signal, stdout: scrub(stdout.text()), stderr: scrub(stderr.text()), ms: Math.round(performance.now() - started) });
      }
    });
  });
}

/**
 * Hands output on a line at a time per stream (a secret is never split across two calls, so
 * scrubbing each line is enough); a partial last line goes out on flush.
 */
function lineStream(emit: (text: string) => void, scrub: (text: string) => string) {
  const pending = { stdout: '', stderr: '' };
  const take = (stream: 'stdout' | 'stderr', chunk: string) => {
    const text = pending[stream] + chunk;
    const cut = text.lastIndexOf('\n');
    if (cut < 0) {
      pending[stream] = text;
      return;
    }
    pending[stream] = text.slice(cut + 1);
    emit(scrub(text.slice(0, cut + 1)));
  };
  return {
    stdout: (chunk: string) => take('stdout', chunk),
    stderr: (chunk: string) => take('stderr', chunk),
    flush: () => {
      for (const stream of ['stdout', 'stderr'] as const) if (pending[stream]) emit(scrub(`${pending[stream]}\n`));
      pending.stdout = pending.stderr = '';
    },
  };
}

/** Quotes one argument for the shell runCommand uses (sh on POSIX, cmd.exe on Windows). */
export function quoteArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  if (process.platform === 'win32') return `"${arg.replace(/"/g, '""')}"`;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Replaces DATABASE_URL's password (raw and percent-encoded) and any URL password with `***`. */
export function secretScrubber(env: NodeJS.ProcessEnv, more: readonly string[] = []): (text: string) => string {
  // Values too short to be a secret would scrub ordinary words.
  const secrets = new Set<string>(more.filter((s) => s.length >= 8));
  const url = env.DATABASE_URL;
  if (url) {
    try {
      const password = new URL(url).password;
      if (password) {
        secrets.add(password);
        secrets.add(decodeURIComponent(password));
      }
    } catch {
      // Not a URL: redactUrl below still hides a user:password@ part.
    }
  }
  const ordered = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of ordered) out = out.split(secret).join('***');
    return out.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"]+/gi, (m) => redactUrl(m));
  };
}

/** The environment variable that marks every process a reaped command started. */
export const REAP_VARIABLE = 'BATON_REAP';

/** Kills every process whose environment carries the marker (Linux's /proc; elsewhere the process group is all there is). */
export function reapMarked(marker: string): number {
  if (process.platform !== 'linux') return 0;
  const needle = Buffer.from(`${REAP_VARIABLE}=${marker}\0`);
  let killed = 0;
  for (let round = 0; round < 3; round += 1) {
    let found = 0;
    for (const entry of readdirSafe('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${entry}/environ`);
      } catch {
        continue;
      }
      if (environ.indexOf(needle) < 0) continue;
      try {
        process.kill(Number(entry), 'SIGKILL');
        found += 1;
      } catch {
        // Gone already.
      }
    }
    killed += found;
    // A process may fork while the scan runs: look again until nothing marked is left.
    if (found === 0) break;
  }
  return killed;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    if (process.platform === 'win32') spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
    else process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Keeps the last `max` characters of a stream. */
class TailText {
  private buffer = '';
  private dropped = 0;
  constructor(private readonly max: number) {}
  add(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > this.max * 2) this.trim();
  }
  text(): string {
    this.trim();
    return this.dropped > 0 ? `[… ${this.dropped} characters omitted]\n${this.buffer}` : this.buffer;
  }
  private trim(): void {
    const excess = this.buffer.length - this.max;
    if (excess <= 0) return;
    this.dropped += excess;
    this.buffer = this.buffer.slice(excess);
  }
}

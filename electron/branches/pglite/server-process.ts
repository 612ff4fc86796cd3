/**
 * Starting, finding and stopping the detached pglite-server.ts processes, and running initdb in a
 * child. A data directory may be open in one process only, so every path that copies or replaces
 * a data directory stops its server first, and a server is started only when none is alive.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, statSync, promises as fs } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../../platform/package-root';
import { BranchError } from '../provider';
import { isMissing, pidAlive } from '../../platform/fs-facts';
import { ALREADY_SERVED, CONNECTIONS_FILE, type ServeInfo } from './serve-info';
import { lowerPriority } from '../../process/priority';

export type { ServeInfo };

// `--import tsx` resolves from the working directory: run in Baton's own folder, not the user's.
const PACKAGE_ROOT = packageRoot(import.meta.url);
const ENTRY = join(PACKAGE_ROOT, 'electron', 'branches', 'pglite', 'pglite-server.ts');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export interface ServerOptions {
  readonly maxConnections: number;
  readonly idleSeconds: number;
  /** The process that owns the branch: the server exits as soon as it is gone (an orphan never waits out its idle time). */
  readonly ownerPid?: number;
  /** Background work's server (CreateOptions.background): the lowest CPU priority. */
  readonly background?: boolean;
}

const COMPILED = join(PACKAGE_ROOT, 'dist', 'electron', 'pglite-server.mjs');

const mtimeOf = (file: string): number | null => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * The precompiled server when it is at least as new as its source (saves ~1 s of CPU per start) or
 * when there is no source (a packaged app ships only dist/), else the source through tsx.
 */
export const serverEntry = (compiled: number | null, source: number | null): 'compiled' | 'source' =>
  compiled !== null && (source === null || compiled >= source) ? 'compiled' : 'source';

function entryArgs(): string[] {
  return serverEntry(mtimeOf(COMPILED), mtimeOf(ENTRY)) === 'compiled' ? [COMPILED] : ['--import', 'tsx', ENTRY];
}

/**
 * V8 flags of a server process. PGlite is Postgres compiled to WebAssembly, and every server is a new
 * process that compiles it again: by default V8 compiles it twice (a quick baseline, then optimised
 * code for what runs hot, on background threads), and for a server that lives a test run that second
 * compile is most of its CPU. `--liftoff-only` keeps the baseline: a start, a query and a close cost
 * about 40% less CPU, and 3,000 inserts run faster too (measured on two cores: 1.17 s against 1.94 s
 * of CPU for a start and close, 2.27 s against 3.65 s with the inserts).
 */
export const SERVER_V8_FLAGS: readonly string[] = ['--liftoff-only'];

function nodeArgs(...args: string[]): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  // Inside Electron, execPath is the Electron binary: ELECTRON_RUN_AS_NODE makes it plain Node.
  return { command: process.execPath, args: [...SERVER_V8_FLAGS, ...entryArgs(), ...args], env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } };
}

/** How many connections `home`'s servers have accepted, ever (0 when none has). */
export async function connectionCount(home: string): Promise<number> {
  try {
    return Number(await fs.readFile(join(home, CONNECTIONS_FILE), 'utf8')) || 0;
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
}

export async function readServeInfo(home: string): Promise<ServeInfo | null> {
  try {
    return JSON.parse(await fs.readFile(join(home, 'serve.json'), 'utf8')) as ServeInfo;
  } catch (error) {
    if (isMissing(error) || error instanceof SyntaxError) return null;
    throw error;
  }
}

async function removeServeInfo(home: string, pid: number): Promise<void> {
  const current = await readServeInfo(home);
  if (current?.pid === pid) await fs.rm(join(home, 'serve.json'), { force: true });
}

/** The server serving `home`, if one is alive and its port accepts connections. A serve.json whose process is gone is removed. */
export async function liveServer(home: string): Promise<ServeInfo | null> {
  const info = await readServeInfo(home);
  if (!info) return null;
  if (!pidAlive(info.pid)) {
    await removeServeInfo(home, info.pid);
    return null;
  }
  if (await portAccepts(info.port)) return info;
  // Alive but not answering: most likely shutting down after its idle time. Wait for it.
  if (await waitForExit(info.pid, 5_000)) {
    await removeServeInfo(home, info.pid);
    return null;
  }
  throw new BranchError(
    'busy',
    `Process ${info.pid} is recorded as the server of ${home} but does not answer on port ${info.port}. ` +
      `If it is not a Baton pglite server, remove ${join(home, 'serve.json')} and try again.`,
  );
}

/**
 * A TCP connection opens: a full server accepts and then drops it, which still counts as alive.
 * The probe holds one of the server's client slots for a moment, so it closes politely and waits
 * for the server's side to close, which frees the slot before a caller's client connects.
 */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let connected = false;
    const timer = setTimeout(() => finish(), 2_000);
    function finish() {
      clearTimeout(timer);
      socket.destroy();
      resolve(connected);
    }
    socket.once('connect', () => {
      connected = true;
      socket.end();
    });
    socket.once('close', finish);
    socket.once('error', finish);
  });
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
  return true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function logTail(home: string): Promise<string> {
  const text = await fs.readFile(join(home, 'serve.log'), 'utf8').catch(() => '');
  return text.trim().split('\n').slice(-6).join('\n');
}

/** The live process holding `home`'s data directory open (serve.lock), if any. */
export async function lockHolder(home: string): Promise<number | null> {
  const pid = Number(await fs.readFile(join(home, 'serve.lock'), 'utf8').catch(() => '0'));
  return pid > 0 && pidAlive(pid) ? pid : null;
}

/**
 * Start a detached server for `home` and wait until it listens. If another process won the race
 * to serve it (its server holds serve.lock), wait for that server instead.
 */
export async function startServer(home: string, options: ServerOptions, signal?: AbortSignal): Promise<ServeInfo> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let child = spawnServer(home, options);
  for (;;) {
    const info = await readServeInfo(home);
    if (info && info.pid === child.process.pid) return info;
    if (child.exited === ALREADY_SERVED) {
      if (info && pidAlive(info.pid) && (await portAccepts(info.port))) return info;
      if ((await lockHolder(home)) === null) child = spawnServer(home, options); // it stopped meanwhile
    } else if (child.exited !== null) {
      throw new BranchError(
        'failed',
        `The PGlite server for ${home} exited (${child.exited}) before listening:\n${await logTail(home)}\nSee ${join(home, 'serve.log')}.`,
      );
    }
    if (signal?.aborted || Date.now() > deadline) {
      if (child.process.pid) await stopPid(home, child.process.pid);
      if (signal?.aborted) throw new BranchError('cancelled', `Starting the PGlite server for ${home} was cancelled; the server was stopped.`);
      throw new BranchError(
        'failed',
        `The PGlite server for ${home} did not listen within ${START_TIMEOUT_MS / 1000} s; it was stopped. See ${join(home, 'serve.log')}.`,
      );
    }
    await sleep(25);
  }
}

function spawnServer(home: string, options: ServerOptions): { process: ChildProcess; exited: number | string | null } {
  const log = openSync(join(home, 'serve.log'), 'a');
  const { command, args, env } = nodeArgs(
    'serve',
    home,
    String(options.maxConnections),
    String(options.idleSeconds),
    ...(options.ownerPid ? [String(options.ownerPid)] : []),
  );
  try {
    const child = {
      process: spawn(command, args, { cwd: PACKAGE_ROOT, env, detached: true, stdio: ['ignore', log, log] }),
      exited: null as number | string | null,
    };
    child.process.unref();
    if (options.background) lowerPriority(child.process.pid);
    child.process.once('exit', (code, sig) => (child.exited = code ?? sig ?? 'unknown'));
    return child;
  } finally {
    closeSync(log);
  }
}

/**
 * Stop whatever process has `home`'s data directory open (a server, or one still starting) and
 * wait until it is gone. True if one was running. Stale serve.json and serve.lock are removed.
 */
export async function stopServer(home: string): Promise<boolean> {
  const info = await readServeInfo(home);
  const pids = new Set([await lockHolder(home), info && pidAlive(info.pid) ? info.pid : null]);
  pids.delete(null);
  for (const pid of pids) await stopPid(home, pid!);
  if (info) await removeServeInfo(home, info.pid);
  if ((await lockHolder(home)) === null) await fs.rm(join(home, 'serve.lock'), { force: true });
  return pids.size > 0;
}

async function stopPid(home: string, pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  if (await waitForExit(pid, STOP_TIMEOUT_MS)) return;
  // Unclean, but PGlite recovers from its WAL on the next open, like Postgres after a crash.
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  if (!(await waitForExit(pid, 5_000))) {
    throw new BranchError('busy', `The PGlite server (pid ${pid}) for ${home} did not stop; stop it by hand and try again.`);
  }
}

/** initdb into `dataDir` (which must not exist) in a child process; takes several seconds. */
export function initDataDir(dataDir: string, signal?: AbortSignal): Promise<void> {
  const { command, args, env } = nodeArgs('init', dataDir);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: PACKAGE_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', reject);
    child.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) reject(new BranchError('cancelled', 'Initialising the PGlite database was cancelled.'));
      else if (code === 0) resolve();
      else reject(new BranchError('failed', `Initialising a PGlite database in ${dataDir} failed (exit ${code}): ${stderr.trim().slice(-500)}`));
    });
  });
}

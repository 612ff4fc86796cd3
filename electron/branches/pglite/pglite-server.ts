/**
 * The process that owns one PGlite data directory. Started detached by server-process.ts, so a
 * branch served for a short-lived CLI stays reachable after the CLI exits.
 *
 *   pglite-server.ts init  <dataDir>                                  initdb, close, exit
 *   pglite-server.ts serve <home> <maxConnections> <idleSeconds> [<ownerPid>]   serve <home>/data
 *
 * Serving takes <home>/serve.lock (so two processes can never open one data directory, even when
 * two Baton processes start a server at the same moment; exit code 3 means another holds it),
 * writes <home>/serve.json {pid, port, password, startedAt} (mode 0600) once listening on 127.0.0.1
 * (port chosen by the OS; every client must log in with the password, password-gate.ts), exits by itself after <idleSeconds> with no client connected (and, given <ownerPid>, within a second of that process being gone: a throwaway's server never outlives the run that owns it), and on SIGTERM/SIGINT stops
 * listening, closes PGlite cleanly (so the directory can be copied) and removes both files.
 * Both modes keep the WASM work out of the caller's event loop.
 */
import { promises as fs, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Socket } from 'node:net';
import { gateConnection, newServerPassword } from './password-gate';
import { writeFileAtomic } from '../../platform/atomic-write';
import { ALREADY_SERVED, CONNECTIONS_FILE, type ServeInfo } from './serve-info';

const FIRST_CLIENT_GRACE_MS = 10_000;
const LOGINS_IN_FLIGHT = 16;
const log = (message: string) => console.error(`[pglite-server ${process.pid}] ${message}`);

/**
 * Postgres zeroes its shared buffers when it starts: at the default 128 MB that is about 450 ms of
 * CPU in WebAssembly for every server (every test run's throwaway starts one). 16 MB is Postgres's
 * own floor for a small machine and plenty for a development database; a start costs about 570 ms
 * of CPU instead of 1,000 (measured on two cores). Nothing is stored differently: it is a start-up
 * setting, not part of the data directory.
 */
const SERVER_START_PARAMS: readonly string[] = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
const open = (dataDir: string) => PGlite.create(dataDir, { startParams: [...SERVER_START_PARAMS] });

async function init(dataDir: string): Promise<void> {
  const db = await open(dataDir);
  await db.close();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function takeLock(lockPath: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(lockPath, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(await fs.readFile(lockPath, 'utf8').catch(() => '0'));
      if (holder && alive(holder)) {
        log(`${lockPath} is held by live process ${holder}; not serving`);
        return false;
      }
      await fs.rm(lockPath, { force: true }); // left by a killed server
    }
  }
  return false;
}

/** Remove `path` only if it still names this process (a successor may have written its own). */
async function removeIfMine(path: string, read: (text: string) => number): Promise<void> {
  const owner = await fs.readFile(path, 'utf8').then(read, () => 0);
  if (owner === process.pid) await fs.rm(path, { force: true });
}

async function serve(home: string, maxConnections: number, idleSeconds: number, ownerPid: number | null): Promise<void> {
  const servePath = join(home, 'serve.json');
  const lockPath = join(home, 'serve.lock');
  // A stop request while still opening is honoured once open, so PGlite always closes cleanly.
  let stopRequested: string | null = null;
  let shutdown = async (why: string) => void (stopRequested = why);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (!(await takeLock(lockPath))) process.exit(ALREADY_SERVED);
  let lastBusy = Date.now();
  const opening = performance.now();
  const db = await open(join(home, 'data'));
  const openMs = Math.round(performance.now() - opening);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
  // Every connection logs in first. The library hands each accepted socket to its handleConnection
  // method (looked up on the instance), so the gate goes in front of it there.
  const password = newServerPassword();
  const gated = server as unknown as { handleConnection(socket: Socket): Promise<void> };
  const admit = gated.handleConnection.bind(server);
  gated.handleConnection = async (socket) => {
    lastBusy = Date.now(); // a probe before a client's login keeps the server up for it
    gateConnection(socket, password, (admitted) => void admit(admitted));
  };
  await server.start();
  // The library caps the listening socket at maxConnections too, which would let a client that has
  // not logged in (a probe, a refused guess) take the one slot a real client needs. The library's
  // own limit, on logged-in clients, still holds; this leaves room for logins in progress.
  const listening = (server as unknown as { server: { maxConnections: number } | null }).server;
  if (listening) listening.maxConnections = maxConnections + LOGINS_IN_FLIGHT;
  const port = Number(server.getServerConn().split(':').pop());

  let stopping = false;
  // Set once the idle check starts, below; a stop arriving before that (while the connection count
  // is read) must still close PGlite cleanly, not die on a timer that does not exist yet.
  let idleTimer: NodeJS.Timeout | undefined = undefined;
  shutdown = async (why: string) => {
    if (stopping) return;
    stopping = true;
    if (idleTimer) clearInterval(idleTimer);
    log(`stopping: ${why}`);
    try {
      await server.stop();
      await db.close();
    } finally {
      await removeIfMine(servePath, (text) => (JSON.parse(text) as ServeInfo).pid);
      await removeIfMine(lockPath, Number);
      process.exit(0);
    }
  };

  // The first client gets at least FIRST_CLIENT_GRACE_MS: whoever started us may be slow to read
  // serve.json and connect, and a server that exits before its first client is useless.
  lastBusy = Date.now() + Math.max(0, FIRST_CLIENT_GRACE_MS - idleSeconds * 1000);
  // Every connection any server of this home ever admitted (logged in), counted before the connection's first
  // message is read (the event fires as it is attached; its data is handled on a later turn): a
  // ready throwaway someone else connected to is never handed out (ready-pool.ts).
  const connectionsPath = join(home, CONNECTIONS_FILE);
  let connections = Number(await fs.readFile(connectionsPath, 'utf8').catch(() => '0')) || 0;
  server.addEventListener('connection', () => {
    lastBusy = Date.now();
    connections += 1;
    writeFileSync(connectionsPath, String(connections));
  });
  const idleMs = idleSeconds * 1000;
  idleTimer = setInterval(
    () => {
      // An owned throwaway's owner is gone (killed, crashed): nobody will use it again, whoever is still connected.
      if (ownerPid !== null && !alive(ownerPid)) void shutdown(`its owner, process ${ownerPid}, is gone`);
      else if (server.getStats().activeConnections > 0) lastBusy = Date.now();
      else if (Date.now() - lastBusy >= idleMs) void shutdown(`no client for ${idleSeconds} s`);
    },
    Math.max(100, Math.min(1000, idleMs / 4)),
  );
  if (stopRequested) return shutdown(stopRequested);
  if (stopping) return;

  const info: ServeInfo = { pid: process.pid, port, password, startedAt: new Date().toISOString() };
  await writeFileAtomic(servePath, JSON.stringify(info), { mode: 0o600 });
  log(`serving ${home} on 127.0.0.1:${port} (PGlite opened in ${openMs} ms, ${Math.round(performance.now())} ms after process start)`);
}

const [mode, target, ...rest] = process.argv.slice(2);
if (mode === 'init' && target) {
  await init(target);
} else if (mode === 'serve' && target) {
  await serve(target, Number(rest[0] ?? 1), Number(rest[1] ?? 300), rest[2] ? Number(rest[2]) : null);
} else {
  console.error('usage: pglite-server.ts init <dataDir> | serve <home> <maxConnections> <idleSeconds> [<ownerPid>]');
  process.exitCode = 2;
}

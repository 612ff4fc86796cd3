/**
 * The files a pglite server process keeps in a branch's folder, shared by the server process
 * (pglite-server.ts) and the code that starts and stops it (server-process.ts).
 */

/** `<home>/serve.json`, written once the server listens. */
export interface ServeInfo {
  readonly pid: number;
  readonly port: number;
  /** What every client logs in with (password-gate.ts); absent in a server started by a Baton before it asked for one. */
  readonly password?: string;
  readonly startedAt: string;
}

/**
 * `<home>/serve.lock` holds the pid of the one process that has the data directory open, from
 * before it opens PGlite until after it closes it. The server exits with ALREADY_SERVED when a
 * live process holds it.
 */
export const ALREADY_SERVED = 3;

/** In a branch's home: how many connections its servers have accepted, ever (a decimal number). */
export const CONNECTIONS_FILE = 'connections';

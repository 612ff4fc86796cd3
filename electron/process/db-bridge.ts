/**
 * The test database for a run that has no network: a Unix socket in a short private folder,
 * each connection on it piped to the database's TCP address outside the sandbox. The run's
 * DATABASE_URL names the folder as its host (`?host=/folder`, libpq's and node-postgres' way to
 * say "the socket `.s.PGSQL.<port>` in this folder"); everything else in the URL stays as it was.
 * Only a database on this machine is bridged: a remote one needs TLS and the network.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface DatabaseBridge {
  /** DATABASE_URL for inside the sandbox. */
  readonly url: string;
  /** The folder holding the socket (the sandbox binds it). */
  readonly dir: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A bridge for `url`, or null when the database is not on this machine (or the URL is not a postgres URL). */
export async function bridgeDatabase(url: string): Promise<DatabaseBridge | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!/^postgres(ql)?:$/.test(parsed.protocol) || !LOOPBACK.has(parsed.hostname) || parsed.searchParams.has('host')) return null;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(parsed.port || 5432);
  // Short: a socket's path must fit in 108 bytes.
  const dir = await mkdtemp(join(tmpdir(), 'baton-db-'));
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(join(dir, `.s.PGSQL.${port}`), resolve);
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  parsed.searchParams.set('host', dir);
  return {
    url: parsed.toString(),
    dir,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Test support: a loopback TCP proxy in front of a real Postgres server that rewrites the
 * `database` of each connection's StartupMessage. It lets two fake Lakebase computes (two
 * hosts, one database name — as every Lakebase branch has) reach two different databases on the
 * one local server. Everything after the startup message, authentication included, passes
 * through untouched. Not used by production code.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

const SSL_REQUEST = 80877103;

export interface StartupProxy {
  /** `127.0.0.1:<port>`, usable as an endpoint host. */
  readonly address: string;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export async function startDatabaseProxy(target: { host: string; port: number }, database: string): Promise<StartupProxy> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((client) => {
    connections++;
    sockets.add(client);
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 8 && buffered.length >= buffered.readInt32BE(0)) {
        const length = buffered.readInt32BE(0);
        if (buffered.readInt32BE(4) === SSL_REQUEST) {
          client.write('N'); // No TLS here: the client then sends its startup message in the clear.
          buffered = buffered.subarray(length);
          continue;
        }
        const startup = withDatabase(buffered.subarray(0, length), database);
        const rest = buffered.subarray(length);
        client.off('data', onData);
        client.pause();
        const upstream = connect(target.port, target.host, () => {
          upstream.write(startup);
          if (rest.length) upstream.write(rest);
          client.pipe(upstream);
          upstream.pipe(client);
          client.resume();
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        upstream.on('close', () => client.destroy());
        client.on('close', () => upstream.destroy());
        return;
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The StartupMessage (Int32 length, Int32 protocol, then `key\0value\0` pairs and a final `\0`) with `database` replaced. */
function withDatabase(message: Buffer, database: string): Buffer {
  const protocol = message.readInt32BE(4);
  const fields = message
    .subarray(8, message.length - 1)
    .toString('utf8')
    .split('\0');
  const pairs = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]) pairs.set(fields[i]!, fields[i + 1]!);
  pairs.set('database', database);
  const body = Buffer.from(`${[...pairs].map(([k, v]) => `${k}\0${v}\0`).join('')}\0`, 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(protocol, 4);
  body.copy(out, 8);
  return out;
}

/**
 * The login a pglite branch server asks for (password-gate.ts), with a real client (node-postgres)
 * and raw bytes: the right password is admitted with its startup message intact, a wrong or missing
 * one is refused with Postgres' own error, an SSL request is declined before the login, and a
 * client that speaks no Postgres is dropped.
 */
import { once } from 'node:events';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateConnection, newServerPassword, startupParameters } from './password-gate';

const PASSWORD = newServerPassword();
let server: Server;
let port: number;
/** The startup parameters each admitted connection began with, as the next handler read them. */
const admitted: Array<Record<string, string> | null> = [];

/** Stands in for PGlite behind the gate: reads the startup message, answers AuthenticationOk and ReadyForQuery. */
function fakeDatabase(socket: Socket): void {
  socket.once('data', (chunk: Buffer) => {
    admitted.push(startupParameters(chunk));
    socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 0, 0x5a, 0, 0, 0, 5, 0x49])); // R 0, Z 'I'
  });
  socket.on('error', () => undefined);
}

beforeAll(async () => {
  server = createServer((socket) => gateConnection(socket, PASSWORD, fakeDatabase));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function login(password: string | undefined): Promise<string> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'shop', ...(password === undefined ? {} : { password }) });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return 'logged in';
  } catch (error) {
    return (error as { code?: string }).code ?? (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Sends `bytes` on a new connection; resolves with what came back once `want` bytes did, the server closed it, or 2 s passed. */
async function exchange(want: number, ...bytes: Buffer[]): Promise<{ received: Buffer; closed: boolean }> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = Buffer.alloc(0);
  const closed = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 2_000);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= want) resolve(false);
    });
    socket.once('close', () => resolve(true));
    socket.once('close', () => clearTimeout(timer));
    for (const b of bytes) socket.write(b);
  });
  socket.destroy();
  return { received, closed };
}

function startup(user: string): Buffer {
  const body = Buffer.from(`user\0${user}\0database\0shop\0\0`);
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + body.length, 0);
  head.writeInt32BE(196_608, 4);
  return Buffer.concat([head, body]);
}

describe('the pglite server login', () => {
  it('admits the right password, handing on the startup message as the client sent it', async () => {
    expect(await login(PASSWORD)).toBe('logged in');
    expect(admitted.at(-1)).toMatchObject({ user: 'postgres', database: 'shop' });
  });

  it('refuses a wrong password and a missing one, and the database behind sees neither', async () => {
    const before = admitted.length;
    expect(await login('guessed')).toBe('28P01');
    expect(await login('')).not.toBe('logged in');
    expect(await login(undefined)).not.toBe('logged in');
    expect(admitted.length).toBe(before);
  });

  it('declines an SSL request with N, then challenges the startup message with MD5 and a fresh salt', async () => {
    const ssl = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
    const first = await exchange(14, ssl, startup('postgres'));
    expect(first.received.subarray(0, 1).toString()).toBe('N');
    const challenge = first.received.subarray(1);
    expect([...challenge.subarray(0, 9)]).toEqual([0x52, 0, 0, 0, 12, 0, 0, 0, 5]);
    const second = await exchange(13, startup('postgres'));
    expect(second.received.subarray(9, 13).equals(challenge.subarray(9, 13))).toBe(false);
  });

  it('drops a client that speaks no Postgres, and a cancel request, without a word to the database', async () => {
    const before = admitted.length;
    const garbage = await exchange(Infinity, Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(garbage.closed).toBe(true);
    const cancel = Buffer.alloc(16);
    cancel.writeInt32BE(16, 0);
    cancel.writeInt32BE(80_877_102, 4);
    const cancelled = await exchange(Infinity, cancel);
    expect(cancelled).toMatchObject({ closed: true, received: Buffer.alloc(0) });
    expect(admitted.length).toBe(before);
  });
});

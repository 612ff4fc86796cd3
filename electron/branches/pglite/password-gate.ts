/**
 * The password a pglite branch server asks of every client before PGlite sees a byte (issue 31):
 * PGlite itself accepts anyone, and an agent turn keeps the network to reach its model, so without
 * this any process on the machine could open every project's databases on 127.0.0.1. The server
 * draws a random password when it starts and keeps it in the branch's serve.json (inside Baton's
 * data folder, which no sandbox shows); the branch's URL carries it.
 *
 * The exchange is Postgres' own MD5 challenge (every client speaks it; the password never crosses
 * the socket): SSL and GSS encryption requests are declined ('N'), a cancel request is dropped, the
 * startup message is answered with AuthenticationMD5Password, and only a right answer hands the
 * connection, startup message first, to PGlite, whose AuthenticationOk then completes the login.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';

const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSS_REQUEST = 80_877_104;
const CANCEL_REQUEST = 80_877_102;
/** A client that has not logged in by then is dropped (a port scan holds nothing open). */
const LOGIN_TIMEOUT_MS = 10_000;
/** Longer than any real startup or password message. */
const MAX_MESSAGE = 16_384;

/** A fresh server password: URL-safe, so it sits in a connection URL unescaped. */
export const newServerPassword = (): string => randomBytes(24).toString('base64url');

const md5hex = (data: Buffer | string): string => createHash('md5').update(data).digest('hex');

/** What a client answers to the MD5 challenge: `md5` + md5(md5(password + user) + salt), as libpq computes it. */
export function md5Answer(user: string, password: string, salt: Buffer): string {
  return `md5${md5hex(Buffer.concat([Buffer.from(md5hex(password + user)), salt]))}`;
}

/** The startup message's parameters (user, database, ...), or null when it is not one. */
export function startupParameters(message: Buffer): Record<string, string> | null {
  if (message.length < 8 || message.readInt32BE(4) !== PROTOCOL_3) return null;
  const parts = message.subarray(8).toString('utf8').split('\0');
  const params: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) params[parts[i]!] = parts[i + 1]!;
  return params;
}

/** An ErrorResponse, as Postgres sends it, with SQLSTATE `code`. */
export function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

function md5Challenge(salt: Buffer): Buffer {
  const out = Buffer.alloc(13);
  out.write('R', 0);
  out.writeInt32BE(12, 1);
  out.writeInt32BE(5, 5);
  salt.copy(out, 9);
  return out;
}

/**
 * Asks `socket`'s client for `password`; on the right answer calls `admit(socket)` with the
 * startup message put back at the head of the socket's data, so whatever handles it next sees the
 * connection as it began. A wrong answer, a malformed message or silence closes the socket.
 */
export function gateConnection(socket: Socket, password: string, admit: (socket: Socket) => void): void {
  let buffered = Buffer.alloc(0);
  let startup: Buffer | null = null;
  let user = '';
  const salt = randomBytes(4);
  const timer = setTimeout(() => refuse(null), LOGIN_TIMEOUT_MS);

  function refuse(reply: Buffer | null): void {
    clearTimeout(timer);
    socket.removeListener('data', onData);
    socket.removeListener('error', onError);
    if (reply && socket.writable) socket.end(reply, () => socket.destroy());
    else socket.destroy();
  }

  function onData(chunk: Buffer): void {
    buffered = Buffer.concat([buffered, chunk]);
    if (buffered.length > MAX_MESSAGE) return refuse(null);
    for (;;) {
      if (!startup) {
        if (buffered.length < 8) return;
        const length = buffered.readInt32BE(0);
        if (length < 8 || length > MAX_MESSAGE) return refuse(null);
        if (buffered.length < length) return;
        const message = buffered.subarray(0, length);
        buffered = buffered.subarray(length);
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSS_REQUEST) {
          socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) return refuse(null);
        const params = startupParameters(message);
        if (!params) return refuse(errorResponse('08P01', 'unsupported frontend protocol: this server speaks protocol 3.0'));
        startup = Buffer.from(message);
        user = params.user ?? '';
        socket.write(md5Challenge(salt));
        continue;
      }
      if (buffered.length < 5) return;
      const length = buffered.readInt32BE(1);
      if (buffered[0] !== 0x70 /* 'p' */ || length < 5 || length > MAX_MESSAGE) return refuse(errorResponse('08P01', 'expected a password message'));
      if (buffered.length < 1 + length) return;
      const answer = buffered
        .subarray(5, 1 + length)
        .toString('utf8')
        .replace(/\0$/, '');
      const rest = buffered.subarray(1 + length);
      const expected = Buffer.from(md5Answer(user, password, salt));
      const given = Buffer.from(answer);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return refuse(errorResponse('28P01', `password authentication failed for user "${user}"`));
      }
      clearTimeout(timer);
      socket.pause();
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.unshift(Buffer.concat([startup, rest]));
      admit(socket);
      socket.resume();
      return;
    }
  }

  const onError = (): void => refuse(null);
  socket.on('data', onData);
  socket.on('error', onError);
}

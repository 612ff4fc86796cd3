/**
 * `baton serve`: the same core as the desktop app, over HTTP + WebSocket on 127.0.0.1 only.
 * Every HTTP request needs a per-run token (query or cookie): the owner's, or a person's own
 * (`--person`); the WebSocket also checks Origin. A client holding a token is still not trusted
 * with the process: messages, connections (per token too, connections.ts) and requests in flight
 * are bounded, and a malformed frame or URL closes or refuses that client only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { err, type Result } from '../../shared/result';
import { clientFrameSchema, TOKEN_PARAM, WS_PATH, type ServerFrame } from '../../shared/wire';
import { dispatch } from '../core/dispatch';
import type { Handlers } from '../core/handlers';
import type { Workbench } from '../core/workbench';
import { ConnectionBook } from './connections';
import { MAX_PER_CLIENT, OWNER } from './limits';
import { COOKIE_NAME, hostAllowed, newToken, originAllowed, requestTarget, sameToken, tokenFromCookie } from './auth';
import { send, serveStatic } from './static-files';

export interface HostOptions {
  readonly workbench: Workbench;
  readonly handlers: Handlers;
  /** The built renderer (dist/renderer). */
  readonly staticDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token?: string;
  /** Where refusals of hostile clients are reported, one line each; default console.warn. Never given a payload or the token. */
  readonly warn?: (line: string) => void;
  /** A connection that sends nothing for this long is closed (4000); the page reconnects when used. Default IDLE_TIMEOUT_MS. */
  readonly idleTimeoutMs?: number;
  /** At the connection limit, how long a connection must have been idle to be closed for a new one. Default EVICT_IDLE_MS. */
  readonly evictIdleMs?: number;
  /** People who get a URL (a token) of their own besides the owner's: each token is one client for the connection limits (connections.ts). */
  readonly people?: readonly string[];
}

/** Default idle timeout of a WebSocket connection: 15 minutes without a request. */
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
/** At the connection limit, the longest-idle connection is closed (4001) for a new one, once it has been idle this long. */
export const EVICT_IDLE_MS = 30 * 1000;
/** Close codes the page reads as "reconnect when used", not as a lost host (renderer/client/ws-client.ts). */
export const IDLE_CLOSE = 4000;
export const EVICTED_CLOSE = 4001;

export interface RunningHost {
  /** The owner's URL. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Each person's own URL (HostOptions.people), in the order given. */
  readonly people: readonly { readonly name: string; readonly url: string }[];
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Largest WebSocket message, in bytes, after its fragments are joined. The contract's largest request
 * is features:new (shared/contract.ts): ten attachments the renderer caps at 1,000,000 UTF-8 bytes each
 * (renderer/src/intake/read-attachments.ts), an 8000-character request and a title: about 10 MB of text.
 * JSON doubles each newline, tab, quote and backslash, so 16 MiB still holds that request when two thirds
 * of its bytes need such an escape; the 1 MiB the issue suggested would refuse a single full attachment.
 * With MAX_CONNECTIONS it bounds what clients can make the host buffer at 512 MiB.
 */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** Concurrent WebSocket connections (a browser tab holds one); the next upgrade is refused with 503. */
export const MAX_CONNECTIONS = 32;
/** Requests one socket may have in dispatch at once; the next is answered `busy` straight away. */
export const MAX_IN_FLIGHT = 64;
/**
 * Replies waiting to be sent to one client, in bytes: a client that asks and never reads would
 * otherwise grow the host's memory without end. Past this it is closed (1008, "not reading").
 */
export const MAX_UNSENT_BYTES = 64 * 1024 * 1024;

/** The close code ws sends with each receiver error (ws/lib/receiver.js); the rest are protocol errors. */
const CLOSE_CODES: Readonly<Record<string, number>> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007,
  WS_ERR_TOO_MANY_BUFFERED_PARTS: 1008,
};

const REFUSED = 'Refused: this request has no valid Baton token. Open the exact URL that `baton serve` printed (it ends in ?token=...).';
const BAD_TARGET = 'Bad request: the request target is not a path.';
const FULL = `Refused: Baton already serves ${MAX_CONNECTIONS} WebSocket connections, its limit. Close a Baton tab, then reload this one.`;

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newToken();
  /** Every token the host answers, with its client's name. */
  const clients = new Map<string, string>([[token, OWNER], ...(options.people ?? []).map((name) => [newToken(), name] as [string, string])]);
  const clientOf = (given: string | null | undefined): string | null => {
    for (const [known, name] of clients) if (sameToken(known, given)) return name;
    return null;
  };
  const warn = options.warn ?? ((line: string) => console.warn(line));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  /** Who holds each connection and when it last sent a frame (or opened): idle ones are closed, and who makes room when full. */
  const book = new ConnectionBook<WebSocket>({
    total: MAX_CONNECTIONS,
    perClient: MAX_PER_CLIENT,
    evictIdleMs: Math.min(options.evictIdleMs ?? EVICT_IDLE_MS, idleMs),
  });
  const sweep = setInterval(
    () => {
      for (const ws of book.takeIdle(idleMs)) {
        warn(`baton serve: closed an idle WebSocket client with ${IDLE_CLOSE} (no request for ${Math.round(idleMs / 1000)} s)`);
        ws.close(IDLE_CLOSE, 'idle: the page reconnects when used');
        setTimeout(() => ws.terminate(), 1000).unref();
      }
    },
    Math.max(50, Math.min(idleMs / 2, 30_000)),
  );
  sweep.unref();
  /** Makes room for `client`'s new connection as connections.ts says; false when it must be refused. */
  const makeRoom = (client: string): boolean => {
    const { evict, because, refused } = book.admit(client);
    if (refused) {
      warn(`baton serve: refused a WebSocket connection with 503: ${refused}`);
      return false;
    }
    for (const ws of evict) {
      warn(
        because === 'own'
          ? `baton serve: a client reached its ${MAX_PER_CLIENT} connections; closed its own longest-idle one with ${EVICTED_CLOSE} for its new one`
          : because === 'fair'
            ? `baton serve: at ${MAX_CONNECTIONS} connections, closed the longest-idle one of the client holding the most with ${EVICTED_CLOSE} to let another client in`
            : `baton serve: at ${MAX_CONNECTIONS} connections, closed the longest-idle one with ${EVICTED_CLOSE} to let a new one in`,
      );
      book.remove(ws);
      ws.close(EVICTED_CLOSE, 'evicted: room for a new connection was made; the page reconnects when used');
      ws.terminate();
    }
    return true;
  };
  // Only reached in noServer mode if ws itself fails; never let it become an uncaught 'error'.
  sockets.on('error', (cause) => warn(`baton serve: WebSocket server error: ${cause.message}`));
  let port = 0;

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    handleHttp(request, response).catch((cause: Error) => send(response, 500, `Internal error: ${cause.message}`));
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostAllowed(request, port)) return send(response, 403, 'Refused: unexpected Host header.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Method not allowed.');
    const target = requestTarget(request);
    if (!target) return send(response, 400, BAD_TARGET);
    const fromQuery = target.searchParams.get(TOKEN_PARAM);
    const known = [fromQuery, tokenFromCookie(request)].find((given) => clientOf(given) !== null);
    if (!known) return send(response, 401, REFUSED);
    if (known === fromQuery) {
      // The page's own asset requests carry no query string; the cookie lets them through.
      response.setHeader('Set-Cookie', `${COOKIE_NAME}=${known}; HttpOnly; SameSite=Strict; Path=/`);
    }
    await serveStatic(options.staticDir, target.pathname, response);
  }

  /** Why an upgrade is refused (status line and body), or the client it is accepted for. */
  function upgradeRefusal(request: IncomingMessage): [string, string] | string {
    const target = requestTarget(request);
    if (!target) return ['400 Bad Request', BAD_TARGET];
    if (target.pathname !== WS_PATH) return ['404 Not Found', ''];
    if (!hostAllowed(request, port) || !originAllowed(request, port)) return ['403 Forbidden', ''];
    const client = clientOf(target.searchParams.get(TOKEN_PARAM));
    if (client === null) return ['401 Unauthorized', ''];
    // One token holder's tabs cannot lock the others out (connections.ts).
    if (!makeRoom(client)) return ['503 Service Unavailable', FULL];
    return client;
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node hands the raw socket over without an 'error' listener: a reset during the handshake must not throw.
    socket.on('error', () => socket.destroy());
    const refusal = upgradeRefusal(request);
    if (typeof refusal !== 'string') {
      const [status, body] = refusal;
      const type = body ? 'Content-Type: text/plain; charset=utf-8\r\n' : '';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      // A client that never closes its end does not keep the socket.
      setTimeout(() => socket.destroy(), 2000).unref();
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      book.add(ws, refusal);
      ws.on('message', () => book.touch(ws));
      ws.on('close', () => book.remove(ws));
      serveSocket(ws, options.workbench, options.handlers, warn);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/?${TOKEN_PARAM}=${token}`,
    port,
    token,
    people: [...clients].filter(([, name]) => name !== OWNER).map(([known, name]) => ({ name, url: `http://127.0.0.1:${port}/?${TOKEN_PARAM}=${known}` })),
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One connection: requests in, results and pushed events out; a client that breaks the protocol is closed, never the host. */
export function serveSocket(ws: WebSocket, workbench: Workbench, handlers: Handlers, warn: (line: string) => void): void {
  let inFlight = 0;
  const post = (frame: ServerFrame): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_UNSENT_BYTES) {
      warn(`baton serve: closed a WebSocket client with 1008 (not reading: over ${MAX_UNSENT_BYTES / (1024 * 1024)} MiB of replies unsent)`);
      ws.close(1008, 'not reading its replies');
      // close() waits for the unsent data to drain; a client that does not read would hold it forever.
      setTimeout(() => ws.terminate(), 1000).unref();
      return;
    }
    const text = encode(frame);
    if (text !== null) ws.send(text);
    else if (frame.kind === 'result') ws.send(JSON.stringify(resultFrame(frame.id, err('internal', 'The result could not be encoded as JSON.'))));
  };
  const unsubscribe = workbench.onEvent((event, payload) => post({ kind: 'event', event, payload }));
  // A socket that errors also closes; unsubscribing on both is harmless and leaves nothing behind either way.
  ws.on('close', unsubscribe);
  ws.on('error', (cause: Error & { code?: string }) => {
    unsubscribe();
    // ws has already answered with the close code; this names it. The message never holds the payload.
    const code = cause.code ?? 'error';
    warn(`baton serve: closed a WebSocket client with ${CLOSE_CODES[code] ?? 1002} (${code}: ${cause.message})`);
  });
  ws.on('message', (data) => {
    const frame = parseFrame(String(data));
    if (!frame) {
      // Not a frame of ours: a misbehaving client gets disconnected with the policy-violation code.
      warn('baton serve: closed a WebSocket client with 1008 (malformed frame: not a JSON {id, channel, request} object)');
      ws.close(1008, 'malformed frame');
      return;
    }
    if (inFlight >= MAX_IN_FLIGHT) {
      const message = `${MAX_IN_FLIGHT} requests from this connection are still running: wait for their results, then send ${frame.channel} again.`;
      post(resultFrame(frame.id, err('busy', message)));
      return;
    }
    inFlight += 1;
    void dispatch(handlers, frame.channel, frame.request)
      // dispatch turns a handler's throw into a Result; this only guards the socket against a rejection it missed.
      .catch((cause: unknown) => err('internal', `${frame.channel} failed unexpectedly: ${cause instanceof Error ? cause.message : 'no reason given'}`))
      .then((result) => {
        inFlight -= 1;
        post(resultFrame(frame.id, result));
      });
  });
}

type ClientFrame = ReturnType<typeof clientFrameSchema.parse>;

function parseFrame(text: string): ClientFrame | null {
  try {
    return clientFrameSchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}

const resultFrame = (id: number, result: Result<unknown>): ServerFrame => ({ kind: 'result', id, result });

/** JSON.stringify that answers null instead of throwing (a BigInt or a cycle in a result or an event). */
function encode(frame: ServerFrame): string | null {
  try {
    return JSON.stringify(frame);
  } catch {
    return null;
  }
}

/**
 * `baton serve`: the same core as the desktop app, over HTTP + WebSocket on 127.0.0.1 only.
 * Every HTTP request needs the per-run token (query or cookie); the WebSocket also checks Origin.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { clientFrameSchema, TOKEN_PARAM, WS_PATH, type ServerFrame } from '../../shared/wire';
import { dispatch } from '../core/dispatch';
import type { Handlers } from '../core/handlers';
import type { Workbench } from '../core/workbench';
import { COOKIE_NAME, hostAllowed, newToken, originAllowed, sameToken, tokenFromCookie, tokenFromQuery } from './auth';
import { send, serveStatic } from './static-files';

export interface HostOptions {
  readonly workbench: Workbench;
  readonly handlers: Handlers;
  /** The built renderer (dist/renderer). */
  readonly staticDir: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token?: string;
}

export interface RunningHost {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const REFUSED = 'Refused: this request has no valid Baton token. Open the exact URL that `baton serve` printed (it ends in ?token=...).';

export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newToken();
  // The largest request the contract allows (features:new: ten 1 MB attachments and a request) with JSON's overhead.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  let port = 0;

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    handleHttp(request, response).catch((cause: Error) => send(response, 500, `Internal error: ${cause.message}`));
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hostAllowed(request, port)) return send(response, 403, 'Refused: unexpected Host header.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'Method not allowed.');
    const fromQuery = tokenFromQuery(request);
    if (!sameToken(token, fromQuery) && !sameToken(token, tokenFromCookie(request))) {
      return send(response, 401, REFUSED);
    }
    if (fromQuery) {
      // The page's own asset requests carry no query string; the cookie lets them through.
      response.setHeader('Set-Cookie', `${COOKIE_NAME}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    await serveStatic(options.staticDir, new URL(request.url ?? '/', 'http://127.0.0.1').pathname, response);
  }

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const refusal =
      path !== WS_PATH
        ? '404 Not Found'
        : !hostAllowed(request, port) || !originAllowed(request, port)
          ? '403 Forbidden'
          : !sameToken(token, tokenFromQuery(request))
            ? '401 Unauthorized'
            : null;
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveSocket(ws, options));
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serveSocket(ws: WebSocket, options: HostOptions): void {
  const post = (frame: ServerFrame) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(frame));
  const unsubscribe = options.workbench.onEvent((event, payload) => post({ kind: 'event', event, payload }));
  ws.on('close', unsubscribe);
  ws.on('message', (data) => {
    let frame;
    try {
      frame = clientFrameSchema.parse(JSON.parse(String(data)));
    } catch {
      // Not a frame of ours: a misbehaving client gets disconnected with the policy-violation code.
      ws.close(1008, 'malformed frame');
      return;
    }
    void dispatch(options.handlers, frame.channel, frame.request).then((result) => post({ kind: 'result', id: frame.id, result }));
  });
}

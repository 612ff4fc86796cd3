/**
 * Test support: a loopback HTTP server on port 0 that records every request and routes it to
 * handlers, for the fakes of services Baton cannot reach from CI (fake-neon-server.ts,
 * ../lakebase/fake-lakebase-server.ts). Not used by production code.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string, percent-decoded. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  readonly body: unknown;
}

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
}

export type Route = (request: RecordedRequest, match: RegExpExecArray) => Reply | Promise<Reply>;

export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: { method: string; pattern: RegExp; handle: Route }[] = [];
  /** Runs before routing; a reply short-circuits (auth checks, injected failures). */
  before: ((request: RecordedRequest) => Reply | undefined) | undefined;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeHttpServer> {
    const server = createServer();
    const fake = new FakeHttpServer(server);
    server.on('request', (req, res) => void fake.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  route(method: string, pattern: RegExp, handle: Route): void {
    this.routes.push({ method, pattern, handle });
  }

  /** Requests other than the ones a test does not care about (e.g. polls). */
  requestsTo(method: string, pattern: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    const request: RecordedRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: raw ? safeJson(raw) : undefined,
    };
    this.requests.push(request);
    let reply = this.before?.(request);
    if (!reply) {
      const route = this.routes.map((r) => ({ r, match: r.method === request.method ? r.pattern.exec(request.path) : null })).find((x) => x.match);
      reply = route ? await route.r.handle(request, route.match!) : { status: 404, body: { message: `no route for ${request.method} ${request.path}` } };
    }
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp';
import { createHandlers } from '../core/handlers';
import { Workbench } from '../core/workbench';
import { startHost, type RunningHost } from './server';

const INDEX = '<!doctype html><title>Baton test page</title>';
const APP_JS = 'console.log("baton test asset");';
const SECRET = 'top secret outside the static folder';

let base: string;
let staticDir: string;
let project: string;
let host: RunningHost;
let extraHost: RunningHost | undefined;
/** What the host reported about refused clients (instead of console.warn). */
const warnings: string[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-'));
  staticDir = join(base, 'static');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), INDEX);
  await writeFile(join(staticDir, 'assets', 'app.js'), APP_JS);
  // A file beside the static folder that traversal attempts aim at.
  await writeFile(join(base, 'secret.txt'), SECRET);
  project = join(base, 'shop');
  await mkdir(join(project, '.consort', 'features', 'F1'), { recursive: true });
  await writeFile(join(project, '.consort', 'features', 'F1', 'test-list.json'), JSON.stringify([{ id: 'T1', status: 'red' }]));
  const workbench = new Workbench({ host: 'browser', version: '7.7.7', configDir: join(base, 'config') });
  host = await startHost({ workbench, handlers: createHandlers(workbench), staticDir, port: 0, warn: (line) => warnings.push(line) });
});

afterAll(async () => {
  await host?.close();
  await extraHost?.close();
  await rm(base, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request, so the path and Host header go out exactly as written (fetch would normalise them). */
function get(path: string, options: { headers?: Record<string, string>; method?: string; port?: number } = {}): Promise<Reply> {
  const port = options.port ?? host.port;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const cookie = () => ({ cookie: `baton_token=${host.token}` });

describe('browser host: HTTP', () => {
  it('prints a loopback URL carrying the token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses a request without a token, with the security headers', async () => {
    const reply = await get('/');
    expect(reply.status).toBe(401);
    expect(reply.body).toContain('?token=');
    expect(reply.body).not.toContain(INDEX);
    expect(reply.headers['content-security-policy']).toBe(`${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`);
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong token, in the query or in the cookie', async () => {
    expect((await get('/?token=wrong')).status).toBe(401);
    expect((await get(`/?token=${host.token}x`)).status).toBe(401);
    expect((await get('/assets/app.js', { headers: { cookie: 'baton_token=wrong' } })).status).toBe(401);
  });

  it('serves index.html for the token and sets an HttpOnly, SameSite=Strict cookie', async () => {
    const reply = await get(`/?token=${host.token}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(INDEX);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    const [setCookie] = reply.headers['set-cookie'] ?? [];
    expect(setCookie).toContain(`baton_token=${host.token}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
  });

  it('serves an asset to the cookie alone, with a JavaScript type', async () => {
    const reply = await get('/assets/app.js', { headers: cookie() });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(APP_JS);
    expect(reply.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await get('/assets/missing.js', { headers: cookie() })).status).toBe(404);
  });

  it.each([
    '/../secret.txt',
    '/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/../package.json',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/%2Fetc%2Fpasswd',
    '/..%5c..%5csecret.txt',
    '/assets%00/app.js',
  ])('never serves a file outside the static folder for %s', async (path) => {
    const reply = await get(path, { headers: cookie() });
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain(SECRET);
    expect(reply.body).not.toContain('root:');
  });

  it('answers a malformed escape as a client error, not a server error', async () => {
    const reply = await get('/%E0%A4%A', { headers: cookie() });
    expect([400, 404]).toContain(reply.status);
  });

  it('refuses a foreign Host header even with the token (DNS rebinding)', async () => {
    const reply = await get(`/?token=${host.token}`, { headers: { host: `evil.example:${host.port}` } });
    expect(reply.status).toBe(403);
    expect(reply.body).not.toContain(INDEX);
    expect((await get(`/?token=${host.token}`, { headers: { host: `localhost:${host.port}` } })).status).toBe(200);
  });

  it('allows only GET and HEAD', async () => {
    expect((await get(`/?token=${host.token}`, { method: 'POST' })).status).toBe(405);
    expect((await get(`/?token=${host.token}`, { method: 'DELETE' })).status).toBe(405);
    const head = await get(`/?token=${host.token}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves from a static folder given with a trailing slash', async () => {
    const workbench = new Workbench({ host: 'browser', version: '1', configDir: join(base, 'config2') });
    extraHost = await startHost({ workbench, handlers: createHandlers(workbench), staticDir: `${staticDir}/`, port: 0 });
    const reply = await get(`/?token=${extraHost.token}`, { port: extraHost.port });
    expect(reply.status).toBe(200);
    expect(reply.body).toBe(INDEX);
  });
});

type Opened = { ws: WebSocket } | { status: number };

function connect(options: { token?: string | null; origin?: string; path?: string; headers?: Record<string, string> } = {}): Promise<Opened> {
  const token = options.token === undefined ? host.token : options.token;
  const query = token === null ? '' : `?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}${options.path ?? '/ws'}${query}`, {
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', reject);
  });
}

async function open(): Promise<WebSocket> {
  const opened = await connect({ origin: `http://127.0.0.1:${host.port}` });
  if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
  return opened.ws;
}

/** Resolves with the first frame the predicate accepts. */
function frame(ws: WebSocket, accept: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const parsed = JSON.parse(String(data)) as Record<string, unknown>;
      if (!accept(parsed)) return;
      ws.off('message', onMessage);
      resolve(parsed);
    };
    ws.on('message', onMessage);
  });
}

const result = (id: number) => (f: Record<string, unknown>) => f.kind === 'result' && f.id === id;

describe('browser host: WebSocket', () => {
  it.each([
    ['no token', { token: null, origin: 'own' }, 401],
    ['a wrong token', { token: 'wrong', origin: 'own' }, 401],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['a foreign Origin on our port', { origin: 'http://evil.example:PORT' }, 403],
    ['an https Origin', { origin: 'https://127.0.0.1:PORT' }, 403],
    ['no Origin', {}, 403],
    ['a foreign Host', { origin: 'own', headers: { host: 'evil.example:PORT' } }, 403],
    ['another path', { origin: 'own', path: '/socket' }, 404],
  ] as const)('refuses %s', async (_label, spec, status) => {
    const fill = (text: string) => (text === 'own' ? `http://127.0.0.1:${host.port}` : text.replace('PORT', String(host.port)));
    const opened = await connect({
      ...('token' in spec ? { token: spec.token } : {}),
      ...('origin' in spec ? { origin: fill(spec.origin) } : {}),
      ...('path' in spec ? { path: spec.path } : {}),
      ...('headers' in spec ? { headers: { host: fill(spec.headers.host) } } : {}),
    });
    expect(opened).toEqual({ status });
  });

  it('answers app:info with a result frame carrying the same id', async () => {
    const ws = await open();
    const reply = frame(ws, result(1));
    ws.send(JSON.stringify({ id: 1, channel: 'app:info', request: {} }));
    expect(await reply).toEqual({ kind: 'result', id: 1, result: { ok: true, value: { version: '7.7.7', host: 'browser' } } });
    ws.close();
  });

  it('opens a project and pushes project:changed to every connected socket', async () => {
    const [ws, watcher] = [await open(), await open()];
    const event = frame(ws, (f) => f.kind === 'event');
    const watched = frame(watcher, (f) => f.kind === 'event');
    const reply = frame(ws, result(2));
    ws.send(JSON.stringify({ id: 2, channel: 'project:open', request: { path: project } }));
    expect(await reply).toMatchObject({ kind: 'result', id: 2, result: { ok: true, value: { root: project, layout: 'consort' } } });
    expect(await event).toMatchObject({ kind: 'event', event: 'project:changed', payload: { root: project } });
    expect(await watched).toMatchObject({ event: 'project:changed', payload: { features: [{ id: 'F1' }] } });
    ws.close();
    watcher.close();
  });

  it('answers a channel outside the contract with forbidden-channel', async () => {
    const ws = await open();
    const reply = frame(ws, result(3));
    ws.send(JSON.stringify({ id: 3, channel: 'fs:read', request: { path: '/etc/passwd' } }));
    expect(await reply).toMatchObject({ result: { ok: false, error: { code: 'forbidden-channel' } } });
    ws.close();
  });

  it('answers an invalid payload with invalid-request and keeps the socket open', async () => {
    const ws = await open();
    const bad = frame(ws, result(4));
    ws.send(JSON.stringify({ id: 4, channel: 'project:open', request: { path: 42 } }));
    expect(await bad).toMatchObject({ result: { ok: false, error: { code: 'invalid-request' } } });
    const good = frame(ws, result(5));
    ws.send(JSON.stringify({ id: 5, channel: 'project:current', request: {} }));
    expect(await good).toMatchObject({ result: { ok: true } });
    ws.close();
  });

  it('answers a request as large as the contract allows (a new feature with two 700 KB attachments) instead of dropping the socket', async () => {
    const ws = await open();
    const reply = frame(ws, result(6));
    const big = 'x'.repeat(700 * 1024);
    const request = {
      title: 'Big',
      request: 'A paragraph.',
      approver: 'Ada <ada@example.com>',
      attachments: [
        { name: 'a.md', text: big },
        { name: 'b.md', text: big },
      ],
    };
    ws.send(JSON.stringify({ id: 6, channel: 'features:new', request }));
    // The project under test may refuse it (no project open, read-only…): what matters is that it answers.
    expect(await reply).toMatchObject({ kind: 'result', id: 6 });
    ws.close();
  });

  it.each([
    ['text that is not JSON', 'hello'],
    ['a frame without an id', JSON.stringify({ channel: 'app:info', request: {} })],
    ['a negative id', JSON.stringify({ id: -1, channel: 'app:info', request: {} })],
    ['an extra key', JSON.stringify({ id: 1, channel: 'app:info', request: {}, admin: true })],
  ])('closes the socket with 1008 on %s', async (_label, text) => {
    const ws = await open();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    warnings.length = 0;
    ws.send(text);
    expect(await closed).toBe(1008);
    // One line naming the code; never the payload or the token.
    expect(warnings).toEqual([expect.stringContaining('closed a WebSocket client with 1008 (malformed frame')]);
    expect(warnings[0]).not.toContain(text);
    expect(warnings[0]).not.toContain(host.token);
  });
});

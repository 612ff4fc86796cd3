/**
 * The browser host against clients that hold the token but break the rules: raw WebSocket frames
 * over a real socket, too many connections, too many requests, malformed URLs and odd files. After
 * each, the process is still up and a well-behaved client still gets its answer.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createHandlers, type Handlers } from '../core/handlers';
import { Workbench } from '../core/workbench';
import { ok } from '../../shared/result';
import { MAX_PER_CLIENT } from './limits';
import { EVICTED_CLOSE, IDLE_CLOSE, MAX_CONNECTIONS, MAX_IN_FLIGHT, MAX_MESSAGE_BYTES, MAX_UNSENT_BYTES, startHost, type RunningHost } from './server';

const INDEX = '<!doctype html><title>hostile</title>';
const SECRET = 'secret beside the static folder';

let base: string;
let staticDir: string;
let host: RunningHost;
let warnings: string[] = [];
/** Live event subscriptions of each host's workbench: every connection must give its own back. */
const subscriptionsOf = new Map<RunningHost, Set<object>>();
/** Resolves the held app:info requests of the in-flight test. */
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();
const others: RunningHost[] = [];

function countingWorkbench(configDir: string, subscriptions: Set<object>): Workbench {
  const workbench = new Workbench({ host: 'browser', version: '9.9.9', configDir });
  const subscribe = workbench.onEvent.bind(workbench);
  workbench.onEvent = (listener) => {
    const token = {};
    subscriptions.add(token);
    const off = subscribe(listener);
    return () => {
      subscriptions.delete(token);
      return off();
    };
  };
  return workbench;
}

async function newHost(
  name: string,
  handlers?: (workbench: Workbench) => Handlers,
  limits: { idleTimeoutMs?: number; evictIdleMs?: number; people?: string[] } = {},
): Promise<RunningHost> {
  const subscriptions = new Set<object>();
  const workbench = countingWorkbench(join(base, name), subscriptions);
  const started = await startHost({
    workbench,
    handlers: handlers ? handlers(workbench) : createHandlers(workbench),
    staticDir,
    port: 0,
    warn: (line) => warnings.push(line),
    ...limits,
  });
  others.push(started);
  subscriptionsOf.set(started, subscriptions);
  return started;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-hostile-'));
  staticDir = join(base, 'static');
  await mkdir(join(staticDir, 'assets'), { recursive: true });
  await writeFile(join(staticDir, 'index.html'), INDEX);
  await writeFile(join(base, 'secret.txt'), SECRET);
  await symlink(join(base, 'secret.txt'), join(staticDir, 'leak.txt'));
  await symlink(base, join(staticDir, 'outside'));
  await symlink(join(staticDir, 'index.html'), join(staticDir, 'alias.html'));
  execFileSync('mkfifo', [join(staticDir, 'pipe.js')]);
  // app:info waits on `held` so the in-flight test can keep requests running.
  host = await newHost('config', (workbench) => {
    const handlers = createHandlers(workbench);
    const info: Handlers['app:info'] = async (request) => {
      await held;
      return handlers['app:info'](request);
    };
    return { ...handlers, 'app:info': info };
  });
});

afterAll(async () => {
  release();
  for (const started of others) await started.close();
  await rm(base, { recursive: true, force: true });
});

afterEach(() => {
  warnings = [];
});

// ---- a well-behaved client (the ws library) ----

type Opened = { ws: WebSocket } | { status: number; body: string };

/** As many people as the host has connections, one tab each. */
const PEOPLE = Array.from({ length: MAX_CONNECTIONS }, (_, i) => `person ${i + 1}`);
const tokenOf = (url: string): string => new URL(url).searchParams.get('token')!;

function connect(target: RunningHost = host, token = target.token): Promise<Opened> {
  const ws = new WebSocket(`ws://127.0.0.1:${target.port}/ws?token=${token}`, { origin: `http://127.0.0.1:${target.port}` });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', reject);
  });
}

async function open(target: RunningHost = host, token = target.token): Promise<WebSocket> {
  const opened = await connect(target, token);
  if (!('ws' in opened)) throw new Error(`refused with ${opened.status}`);
  return opened.ws;
}

function replies(ws: WebSocket, count: number): Promise<Record<string, unknown>[]> {
  const got: Record<string, unknown>[] = [];
  return new Promise((resolve) => {
    ws.on('message', (data: Buffer) => {
      const parsed = JSON.parse(String(data)) as Record<string, unknown>;
      if (parsed.kind === 'result') got.push(parsed);
      if (got.length === count) resolve(got);
    });
  });
}

const closed = (ws: WebSocket) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve())));

/** A new client's app:info round trip: the host is up and serving. */
async function stillServes(target: RunningHost = host): Promise<void> {
  const ws = await open(target);
  const reply = replies(ws, 1);
  ws.send(JSON.stringify({ id: 7, channel: 'app:info', request: {} }));
  expect(await reply).toEqual([{ kind: 'result', id: 7, result: { ok: true, value: { version: '9.9.9', host: 'browser' } } }]);
  ws.close();
  await closed(ws);
}

// ---- a raw client: the upgrade by hand, then frames byte by byte ----

interface Raw {
  readonly socket: Socket;
  /** The code of the server's close frame, or 1006 if the connection ended without one. */
  readonly closeCode: Promise<number>;
}

function rawUpgrade(path = `/ws?token=${host.token}`, port = host.port): Promise<{ socket: Socket; head: string; rest: Buffer }> {
  const socket = netConnect(port, '127.0.0.1');
  socket.on('error', () => undefined); // writes after the server closed: EPIPE / ECONNRESET
  socket.write(
    [
      `GET ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Origin: http://127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      resolve({ socket, head: String(buffered.subarray(0, end)), rest: buffered.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed during the handshake: ${String(buffered)}`)));
  });
}

async function raw(target: RunningHost = host): Promise<Raw> {
  const { socket, head, rest } = await rawUpgrade(`/ws?token=${target.token}`, target.port);
  expect(head).toMatch(/^HTTP\/1\.1 101 /);
  let buffered = rest;
  const closeCode = new Promise<number>((resolve) => {
    const scan = () => {
      // Server frames are unmasked; only the close frame (opcode 8) matters here.
      while (buffered.length >= 2) {
        const short = buffered[1]! & 0x7f;
        const [offset, length] = short === 126 ? [4, buffered.readUInt16BE(2)] : short === 127 ? [10, Number(buffered.readBigUInt64BE(2))] : [2, short];
        if (buffered.length < offset + length) return;
        if ((buffered[0]! & 0x0f) === 0x8) {
          resolve(length >= 2 ? buffered.readUInt16BE(offset) : 1005);
          socket.destroy();
        }
        buffered = buffered.subarray(offset + length);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      scan();
    });
    socket.once('close', () => resolve(1006));
    scan();
  });
  return { socket, closeCode };
}

/** One client frame. `length` declares a payload length other than the real one. */
function wsFrame(opcode: number, payload: Buffer, options: { fin?: boolean; mask?: boolean; length?: number } = {}): Buffer {
  const { fin = true, mask = true, length = payload.length } = options;
  const header = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  header[0] = (fin ? 0x80 : 0) | opcode;
  if (length < 126) header[1] = length;
  else if (length < 65536) [header[1], header[2], header[3]] = [126, length >> 8, length & 0xff];
  else {
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(length), 2);
  }
  header[1]! |= mask ? 0x80 : 0;
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  return Buffer.concat([header, key, Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!))]);
}

const text = (value: string) => wsFrame(0x1, Buffer.from(value));

// ---- the tests ----

describe('hostile frames: the client is closed with the protocol code, the host keeps serving', () => {
  it.each([
    ['an unmasked client frame', () => [wsFrame(0x1, Buffer.from('{"id":1}'), { mask: false })], 1002, 'WS_ERR_EXPECTED_MASK'],
    ['a reserved opcode (0x3)', () => [wsFrame(0x3, Buffer.from('x'))], 1002, 'WS_ERR_INVALID_OPCODE'],
    ['a text frame with invalid UTF-8', () => [wsFrame(0x1, Buffer.from([0x7b, 0xc3, 0x28, 0xff, 0x7d]))], 1007, 'WS_ERR_INVALID_UTF8'],
    [
      'a frame that declares a length over the limit',
      () => [wsFrame(0x1, Buffer.alloc(0), { length: MAX_MESSAGE_BYTES + 1 })],
      1009,
      'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    ],
    ['garbage that is not JSON', () => [text('\u0001not json at all')], 1008, 'malformed frame'],
    ['JSON that is not a frame', () => [text(JSON.stringify({ id: 'one', channel: 'app:info', request: {}, admin: true }))], 1008, 'malformed frame'],
  ] as const)('%s', async (_label, frames, code, reason) => {
    const client = await raw();
    for (const frame of frames()) client.socket.write(frame);
    expect(await client.closeCode).toBe(code);
    expect(warnings).toEqual([expect.stringContaining(`with ${code} (${reason}`)]);
    expect(warnings.join('\n')).not.toContain(host.token);
    await stillServes();
  });

  it('a fragmented message whose fragments add up to more than the limit', async () => {
    const client = await raw();
    const fragment = Buffer.alloc(1024 * 1024, 0x61);
    const fragments = Math.floor(MAX_MESSAGE_BYTES / fragment.length) + 1;
    for (let i = 0; i < fragments; i++) {
      client.socket.write(wsFrame(i === 0 ? 0x1 : 0x0, fragment, { fin: false }));
    }
    expect(await client.closeCode).toBe(1009);
    expect(warnings).toEqual([expect.stringContaining('with 1009 (WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')]);
    await stillServes();
  });

  it("still answers the contract's largest request: ten 1 MB attachments, a third of them newlines", async () => {
    const ws = await open();
    const reply = replies(ws, 1);
    const attachment = 'ab\n'.repeat(333_333);
    const attachments = Array.from({ length: 10 }, (_, i) => ({ name: `a${i}.md`, text: attachment }));
    const message = JSON.stringify({ id: 1, channel: 'features:new', request: { title: 'Big', request: 'One paragraph.', approver: 'Ada', attachments } });
    expect(Buffer.byteLength(message)).toBeGreaterThan(13_000_000);
    ws.send(message);
    // No project is open, so the core refuses it: what matters is a result, not a 1009.
    expect(await reply).toMatchObject([{ kind: 'result', id: 1, result: { ok: false, error: { code: 'no-project' } } }]);
    ws.close();
  });
});

describe('limits on connections and requests', () => {
  it(`answers requests beyond ${MAX_IN_FLIGHT} in flight on one socket with busy, then accepts again`, async () => {
    held = new Promise((resolve) => (release = resolve));
    try {
      const ws = await open();
      const extra = 6;
      const all = replies(ws, MAX_IN_FLIGHT + extra);
      for (let id = 0; id < MAX_IN_FLIGHT + extra; id++) ws.send(JSON.stringify({ id, channel: 'app:info', request: {} }));
      // The busy answers come at once, while the first MAX_IN_FLIGHT are still held.
      const busy = await new Promise<Record<string, unknown>[]>((resolve) => {
        const seen: Record<string, unknown>[] = [];
        ws.on('message', (data: Buffer) => {
          seen.push(JSON.parse(String(data)) as Record<string, unknown>);
          if (seen.length === extra) resolve(seen);
        });
      });
      expect(busy.map((f) => f.id)).toEqual(Array.from({ length: extra }, (_, i) => MAX_IN_FLIGHT + i));
      for (const f of busy) expect(f).toMatchObject({ kind: 'result', result: { ok: false, error: { code: 'busy' } } });
      release();
      const results = await all;
      const answered = results.filter((f) => (f.result as { ok: boolean }).ok).map((f) => f.id);
      expect(answered.sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: MAX_IN_FLIGHT }, (_, i) => i));
      const again = replies(ws, 1);
      ws.send(JSON.stringify({ id: 500, channel: 'app:info', request: {} }));
      expect(await again).toMatchObject([{ id: 500, result: { ok: true } }]);
      ws.close();
    } finally {
      // Held requests must not outlive a failure here: the other tests use app:info too.
      release();
    }
  });

  it(`refuses connection ${MAX_CONNECTIONS + 1} with 503 and a body when ${MAX_CONNECTIONS} people each hold one, and accepts one again once some close`, async () => {
    const capped = await newHost('capped', undefined, { people: PEOPLE });
    const clients = await Promise.all(capped.people.map((person) => open(capped, tokenOf(person.url))));
    const refused = await connect(capped);
    expect(refused).toEqual({ status: 503, body: expect.stringContaining(`${MAX_CONNECTIONS} WebSocket connections`) });
    expect(warnings).toContainEqual(expect.stringContaining('503'));
    for (const ws of clients.splice(0, 2)) {
      ws.close();
      await closed(ws);
    }
    let opened = await connect(capped);
    for (let attempt = 0; attempt < 200 && !('ws' in opened); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      opened = await connect(capped);
    }
    expect(opened).toHaveProperty('ws');
    if ('ws' in opened) opened.ws.close();
    await stillServes(capped);
    for (const ws of clients) ws.terminate();
  });

  it('closes a connection that sends nothing for the idle timeout (4000), and keeps one that does', async () => {
    const idle = await newHost('idle', undefined, { idleTimeoutMs: 400 });
    const quiet = await open(idle);
    const busy = await open(idle);
    const code = new Promise<number>((resolve) => quiet.once('close', (c: number) => resolve(c)));
    const ticking = setInterval(() => busy.send(JSON.stringify({ id: 1, channel: 'app:info', request: {} })), 100);
    try {
      expect(await code).toBe(IDLE_CLOSE);
      expect(warnings).toContainEqual(expect.stringContaining(`closed an idle WebSocket client with ${IDLE_CLOSE}`));
      expect(busy.readyState).toBe(WebSocket.OPEN);
    } finally {
      clearInterval(ticking);
      busy.terminate();
    }
  });

  it(`at ${MAX_CONNECTIONS} connections, lets a new one in by closing the longest-idle (4001): idle tabs cannot lock the others out`, async () => {
    const full = await newHost('full', undefined, { evictIdleMs: 200, people: PEOPLE });
    const clients = await Promise.all(full.people.map((person) => open(full, tokenOf(person.url))));
    const [oldest] = clients;
    const evicted = new Promise<number>((resolve) => oldest!.once('close', (c: number) => resolve(c)));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Every other one is active; the first one stays idle.
    await Promise.all(clients.slice(1).map((ws) => (ws.send(JSON.stringify({ id: 2, channel: 'app:info', request: {} })), replies(ws, 1))));
    const newcomer = await connect(full);
    expect(newcomer).toHaveProperty('ws');
    expect(await evicted).toBe(EVICTED_CLOSE);
    expect(warnings).toContainEqual(expect.stringContaining(`closed the longest-idle one with ${EVICTED_CLOSE}`));
    if ('ws' in newcomer) newcomer.ws.terminate();
    for (const ws of clients) ws.terminate();
  });

  it(`one token holds at most ${MAX_PER_CLIENT} connections: its next closes its own longest-idle one, never another person's`, async () => {
    const shared = await newHost('per-client', undefined, { people: ['Ada'] });
    // A person's own URL opens the workbench like the owner's.
    expect(shared.people.map((p) => p.name)).toEqual(['Ada']);
    const page = await fetch(shared.people[0]!.url);
    expect([page.status, page.headers.get('set-cookie')]).toEqual([200, expect.stringContaining(tokenOf(shared.people[0]!.url))]);
    const ada = await open(shared, tokenOf(shared.people[0]!.url));
    const mine = [];
    for (let i = 0; i < MAX_PER_CLIENT; i++) mine.push(await open(shared));
    const [first] = mine;
    const evicted = new Promise<number>((resolve) => first!.once('close', (c: number) => resolve(c)));
    // Every later one is used after the first: the first is the owner's longest idle.
    await Promise.all(mine.slice(1).map((ws) => (ws.send(JSON.stringify({ id: 3, channel: 'app:info', request: {} })), replies(ws, 1))));
    const ninth = await open(shared);
    expect(await evicted).toBe(EVICTED_CLOSE);
    expect(warnings).toContainEqual(expect.stringContaining(`reached its ${MAX_PER_CLIENT} connections; closed its own longest-idle one`));
    expect(ada.readyState).toBe(WebSocket.OPEN);
    expect(ninth.readyState).toBe(WebSocket.OPEN);
    for (const ws of [ada, ninth, ...mine]) ws.terminate();
  });

  it('when full, a person holding fewer connections takes one from the biggest holder, however recently used: one token cannot lock another out', async () => {
    const fair = await newHost('fair', undefined, { people: ['Ada', 'Bo', 'Cy', 'Di', 'Ed'] });
    const [ada, bo, cy, di, ed] = fair.people.map((person) => tokenOf(person.url));
    const held = new Map<string, WebSocket[]>();
    // Ada, Bo, Cy and Di fill the host with their tabs, all in use.
    for (const token of [ada!, bo!, cy!, di!]) held.set(token, await Promise.all(Array.from({ length: MAX_PER_CLIENT }, () => open(fair, token))));
    const all = [...held.values()].flat();
    await Promise.all(all.map((ws) => (ws.send(JSON.stringify({ id: 4, channel: 'app:info', request: {} })), replies(ws, 1))));
    const codes: number[] = [];
    for (const ws of all) ws.once('close', (c: number) => codes.push(c));
    const edsTab = await connect(fair, ed);
    expect(edsTab).toHaveProperty('ws');
    expect(warnings).toContainEqual(expect.stringContaining('closed the longest-idle one of the client holding the most'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(codes).toEqual([EVICTED_CLOSE]);
    if ('ws' in edsTab) edsTab.ws.terminate();
    for (const ws of all) ws.terminate();
  });

  it('leaves no subscription and no MaxListenersExceeded warning after 50 connect/disconnect cycles, hostile ones included', async () => {
    const cycled = await newHost('cycled', undefined, { people: ['Ada', 'Bo', 'Cy'] });
    const processWarnings: Error[] = [];
    const onWarning = (warning: Error) => processWarnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (let cycle = 0; cycle < 50; cycle++) {
        if (cycle % 5 === 4) {
          // Every fifth client breaks the protocol: its subscription goes on error as well.
          const client = await raw(cycled);
          client.socket.write(wsFrame(0x3, Buffer.from('x')));
          expect(await client.closeCode).toBe(1002);
        } else if (cycle % 2 === 0) await stillServes(cycled);
        else (await open(cycled)).terminate();
      }
      // Twenty at once, too (five per token: one token holds at most MAX_PER_CLIENT).
      const tokens = [cycled.token, ...cycled.people.map((p) => tokenOf(p.url))];
      const together = await Promise.all(Array.from({ length: 20 }, (_, i) => open(cycled, tokens[i % tokens.length])));
      const subscriptions = subscriptionsOf.get(cycled)!;
      expect(subscriptions.size).toBeGreaterThanOrEqual(20);
      for (const ws of together) ws.close();
      await Promise.all(together.map(closed));
      for (let attempt = 0; attempt < 200 && subscriptions.size > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(subscriptions.size).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(processWarnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a client that asks and never reads', () => {
  it(`is closed once over ${MAX_UNSENT_BYTES / (1024 * 1024)} MiB of its replies wait unsent, and the host keeps serving`, async () => {
    // Each app:info reply carries 4 MiB, so a few dozen unread replies pass the limit.
    const padding = 'x'.repeat(4 * 1024 * 1024);
    const greedy = await newHost('greedy', (workbench) => {
      const handlers = createHandlers(workbench);
      const info = (async () => ok({ padding })) as unknown as Handlers['app:info'];
      return { ...handlers, 'app:info': info };
    });
    const client = await raw(greedy);
    client.socket.pause(); // reads nothing from here on
    for (let id = 0; id < 40; id++) client.socket.write(text(JSON.stringify({ id, channel: 'app:info', request: {} })));
    const subscriptions = subscriptionsOf.get(greedy)!;
    for (let attempt = 0; attempt < 400 && !warnings.some((w) => w.includes('not reading')); attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(warnings).toContainEqual(expect.stringMatching(/^baton serve: closed a WebSocket client with 1008 \(not reading: over 64 MiB of replies unsent\)$/));
    // Terminated a second later even though it never reads the close frame: nothing of it stays subscribed.
    for (let attempt = 0; attempt < 200 && subscriptions.size > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(subscriptions.size).toBe(0);
    client.socket.destroy();
    const next = await open(greedy);
    const answer = replies(next, 1);
    next.send(JSON.stringify({ id: 1, channel: 'app:info', request: {} }));
    expect(await answer).toMatchObject([{ id: 1, result: { ok: true, value: { padding } } }]);
    next.close();
  });
});

describe('hostile HTTP', () => {
  /** A raw request, so the target goes out exactly as written. */
  function rawHttp(target: string, headers: string[] = []): Promise<{ status: number; body: string }> {
    const socket = netConnect(host.port, '127.0.0.1');
    socket.write(
      [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${host.port}`, `Cookie: baton_token=${host.token}`, 'Connection: close', ...headers, '', ''].join('\r\n'),
    );
    return new Promise((resolve, reject) => {
      let reply = '';
      socket.on('data', (chunk: Buffer) => (reply += String(chunk)));
      socket.on('error', reject);
      socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1] ?? 0), body: reply.split('\r\n\r\n')[1] ?? '' }));
    });
  }

  it.each(['/%E0%A4%A', 'http://[/', 'http://127.0.0.1:99999/', '*'])('answers %s with 400', async (target) => {
    const reply = await rawHttp(target);
    expect(reply.status).toBe(400);
    expect(reply.body).toContain('Bad request');
    await stillServes();
  });

  // `new URL('//', base)` throws (an empty host) and `//evil.example/x` names a host: all are read as paths, and no file has them.
  it.each(['//', '///', '//[::1/', '//evil.example/index.html'])('reads %s as a path (404), never a crash or a host', async (target) => {
    expect((await rawHttp(target)).status).toBe(404);
    await stillServes();
  });

  it.each([
    [`http://[/ws?token=TOKEN`, 400],
    ['//?token=TOKEN', 404],
    ['//evil.example/ws?token=TOKEN', 404],
  ])('answers a WebSocket upgrade to %s with %i, and keeps running', async (target, status) => {
    const { socket, head } = await rawUpgrade(target.replace('TOKEN', host.token));
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    socket.destroy();
    await stillServes();
  });

  it.each([
    ['a symlink to a file outside the static folder', '/leak.txt'],
    ['a path through a symlink to a folder outside', '/outside/secret.txt'],
    ['a FIFO (never opened: opening one waits for a writer)', '/pipe.js'],
    ['a directory', '/assets'],
  ])('refuses %s with 404', async (_label, path) => {
    const reply = await rawHttp(path);
    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain(SECRET);
  });

  it('serves a symlink that stays inside the static folder', async () => {
    expect(await rawHttp('/alias.html')).toEqual({ status: 200, body: INDEX });
  });
});

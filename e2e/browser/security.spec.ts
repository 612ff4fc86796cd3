/**
 * The browser host's guards: no token, no page; and the WebSocket refuses a missing or wrong
 * token and a foreign Origin. Each refusal has a control that succeeds, so a host that refused
 * everything would fail here too.
 */
import WebSocket from 'ws';
import { expect, fixtureFolder, serving } from './support/served';

const test = serving(fixtureFolder());

type Outcome = { kind: 'open'; socket: WebSocket } | { kind: 'refused'; status: number | null };

/** Opens a socket and reports whether the upgrade succeeded or the HTTP status it was refused with. */
function connect(url: string, origin?: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, origin ? { origin } : {});
    socket.once('open', () => resolve({ kind: 'open', socket }));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ kind: 'refused', status: response.statusCode ?? null });
      socket.terminate();
    });
    socket.once('error', () => resolve({ kind: 'refused', status: null }));
  });
}

function invoke(socket: WebSocket, channel: string): Promise<{ ok: boolean }> {
  return new Promise((resolve) => {
    socket.once('message', (data) => resolve((JSON.parse(String(data)) as { result: { ok: boolean } }).result));
    socket.send(JSON.stringify({ id: 1, channel, request: {} }));
  });
}

test('HTTP without the token is refused with 401', async ({ served }) => {
  const { origin, url } = served;
  const refused = await fetch(`${origin}/`);
  expect(refused.status).toBe(401);
  const wrong = await fetch(`${origin}/?token=not-the-token`);
  expect(wrong.status).toBe(401);
  const allowed = await fetch(url);
  expect(allowed.status).toBe(200);
});

test('the WebSocket refuses a missing or wrong token and a foreign Origin', async ({ served }) => {
  const { origin, port, token } = served;
  const wsBase = `ws://127.0.0.1:${port}/ws`;

  const noToken = await connect(wsBase, origin);
  expect(noToken).toEqual({ kind: 'refused', status: 401 });

  const wrongToken = await connect(`${wsBase}?token=not-the-token`, origin);
  expect(wrongToken).toEqual({ kind: 'refused', status: 401 });

  const foreign = await connect(`${wsBase}?token=${token}`, 'http://evil.example');
  expect(foreign.kind).toBe('refused');
  expect(foreign.kind === 'refused' && foreign.status).toBe(403);

  const noOrigin = await connect(`${wsBase}?token=${token}`);
  expect(noOrigin.kind).toBe('refused');

  // Control: the right token from the host's own origin gets through and is answered.
  const good = await connect(`${wsBase}?token=${token}`, origin);
  expect(good.kind).toBe('open');
  if (good.kind === 'open') {
    expect(await invoke(good.socket, 'app:info')).toMatchObject({ ok: true });
    good.socket.close();
  }
});

test('a page opened without the token is refused', async ({ page, served }) => {
  const response = await page.goto(`${served.origin}/`);
  expect(response?.status()).toBe(401);
  await expect(page.getByTestId('column-pending')).toHaveCount(0);
});

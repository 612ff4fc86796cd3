/**
 * The shell's guards against fakes shaped like Electron's WebContents, Session and IPC event: each fake
 * records the handlers a guard installs, and the test calls them with hostile input.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  FORBIDDEN_SENDER_MESSAGE,
  MAX_EXTERNAL_URL_LENGTH,
  NAVIGATION_EVENTS,
  guardContents,
  guardSession,
  guardedIpcHandler,
  isTrustedSender,
  rendererUrlCheck,
  safeExternalUrl,
  type GuardedContents,
  type GuardedSession,
  type NavigationEvent,
  type SenderEvent,
} from './guards';

const RENDERER = 'file:///opt/Baton/resources/app.asar/dist/renderer/index.html';
const isTrustedUrl = rendererUrlCheck(RENDERER);
const GOOD = 'https://github.com/baton-dev/baton/issues?q=is%3Aopen#top';

const HOSTILE_EXTERNAL = {
  javascript: 'javascript:alert(1)',
  file: 'file:///etc/passwd',
  http: 'http://x',
  credentials: 'https://user:pw@x',
  'user only': 'https://user@example.com/',
  'password only': 'https://:pw@example.com/',
  'too long': `https://example.com/${'a'.repeat(5000 - 20)}`,
  data: 'data:text/html,<script>alert(1)</script>',
  'custom scheme': 'baton://open?path=/etc',
  'ms-settings': 'ms-settings:privacy',
  smb: 'smb://evil.example/share',
  'protocol-relative': '//example.com/',
  'scheme only': 'https://',
  'leading space': ' https://example.com/',
  newline: 'https://exa\nmple.com/',
  'NUL byte': 'https://example.com/\u0000',
  empty: '',
};

class FakeContents implements GuardedContents {
  windowOpen: ((details: { readonly url: string }) => { action: 'deny' }) | null = null;
  readonly listeners = new Map<string, Array<(event: NavigationEvent) => void>>();

  setWindowOpenHandler(handler: (details: { readonly url: string }) => { action: 'deny' }): void {
    this.windowOpen = handler;
  }

  on(event: string, listener: (event: NavigationEvent) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  /** Emits `name` as Electron would; true when some listener called preventDefault. */
  emit(name: string, url = ''): boolean {
    const preventDefault = vi.fn();
    for (const listener of this.listeners.get(name) ?? []) listener({ url, preventDefault });
    return preventDefault.mock.calls.length > 0;
  }
}

function guarded(openExternal: (url: string) => unknown = vi.fn(async () => undefined)) {
  const contents = new FakeContents();
  guardContents(contents, { isTrustedUrl, openExternal });
  return contents;
}

describe('safeExternalUrl', () => {
  it('passes a plain https URL through, canonicalised', () => {
    expect(safeExternalUrl(GOOD)).toBe(GOOD);
    expect(safeExternalUrl('HTTPS://Example.COM')).toBe('https://example.com/');
  });

  it.each(Object.entries(HOSTILE_EXTERNAL))('refuses %s', (_name, url) => {
    expect(safeExternalUrl(url)).toBeNull();
  });

  it('refuses non-strings', () => {
    for (const value of [undefined, null, 42, { href: GOOD }, new URL(GOOD)]) expect(safeExternalUrl(value)).toBeNull();
  });

  it('allows exactly the maximum length, refuses one more, also after percent-encoding', () => {
    const base = 'https://example.com/';
    expect(safeExternalUrl(base + 'a'.repeat(MAX_EXTERNAL_URL_LENGTH - base.length))).not.toBeNull();
    expect(safeExternalUrl(base + 'a'.repeat(MAX_EXTERNAL_URL_LENGTH - base.length + 1))).toBeNull();
    // 1,020 characters as written, 6,020 once each é becomes %C3%A9.
    expect(safeExternalUrl(base + 'é'.repeat(1000))).toBeNull();
    // 3,021 characters as written, 21 once the ./ segments are dropped: refused as written.
    expect(safeExternalUrl(`${base}${'./'.repeat(1500)}a`)).toBeNull();
  });
});

describe('the window-open guard', () => {
  it('denies every window and opens only the good https URL in the browser', () => {
    const openExternal = vi.fn(async () => undefined);
    const contents = guarded(openExternal);
    for (const url of Object.values(HOSTILE_EXTERNAL)) expect(contents.windowOpen?.({ url })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();

    expect(contents.windowOpen?.({ url: GOOD })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
    expect(openExternal).toHaveBeenCalledWith(GOOD);
  });

  it('still denies when the browser cannot be opened (rejects or throws)', async () => {
    const rejecting = guarded(vi.fn(async () => Promise.reject(new Error('no browser'))));
    expect(rejecting.windowOpen?.({ url: GOOD })).toEqual({ action: 'deny' });
    const throwing = guarded(
      vi.fn(() => {
        throw new Error('no browser');
      }),
    );
    expect(throwing.windowOpen?.({ url: GOOD })).toEqual({ action: 'deny' });
    await new Promise((resolve) => setTimeout(resolve, 0)); // an unhandled rejection would fail the run
  });
});

describe('the navigation guards', () => {
  it('listens to will-navigate, will-redirect and will-frame-navigate', () => {
    const contents = guarded();
    expect(NAVIGATION_EVENTS).toEqual(['will-navigate', 'will-redirect', 'will-frame-navigate']);
    for (const name of NAVIGATION_EVENTS) expect(contents.listeners.get(name)).toHaveLength(1);
  });

  const refused = [
    ...Object.values(HOSTILE_EXTERNAL),
    GOOD,
    `${RENDERER}?x`,
    `${RENDERER}?`,
    'file:///opt/Baton/resources/app.asar/dist/renderer/other.html',
    'file:///etc/passwd',
    'about:blank',
  ];
  it.each(NAVIGATION_EVENTS)('%s: prevents every URL but the renderer page', (name) => {
    const contents = guarded();
    for (const url of refused) expect(contents.emit(name, url), url).toBe(true);
    expect(contents.emit(name, RENDERER)).toBe(false);
    expect(contents.emit(name, `${RENDERER}#/board`)).toBe(false);
  });

  it('prevents every webview from attaching', () => {
    expect(guarded().emit('will-attach-webview')).toBe(true);
  });
});

describe('guardSession', () => {
  function guardedSession() {
    const handlers: Partial<Record<keyof GuardedSession, (...args: never[]) => unknown>> = {};
    const session: GuardedSession = {
      setPermissionRequestHandler: (handler) => void (handlers.setPermissionRequestHandler = handler),
      setPermissionCheckHandler: (handler) => void (handlers.setPermissionCheckHandler = handler),
      setDevicePermissionHandler: (handler) => void (handlers.setDevicePermissionHandler = handler),
      setDisplayMediaRequestHandler: (handler) => void (handlers.setDisplayMediaRequestHandler = handler),
    };
    guardSession(session, isTrustedUrl);
    return handlers as Record<keyof GuardedSession, (...args: unknown[]) => unknown>;
  }
  const PERMISSIONS = ['media', 'geolocation', 'openExternal', 'display-capture', 'clipboard-read', 'fileSystem', 'hid', 'unknown'];
  const PAGE = { requestingUrl: `${RENDERER}#/inbox`, isMainFrame: true };

  it('answers every permission request with false, but notifications for the renderer page itself', () => {
    const { setPermissionRequestHandler: request } = guardedSession();
    const answer = (permission: string, details: object): unknown => {
      const callback = vi.fn();
      request({}, permission, callback, details);
      expect(callback).toHaveBeenCalledOnce();
      return callback.mock.calls[0]![0];
    };
    for (const permission of PERMISSIONS) expect(answer(permission, PAGE), permission).toBe(false);
    expect(answer('notifications', PAGE)).toBe(true);
    // Not from a subframe, another page, another scheme, or an asker that says nothing.
    expect(answer('notifications', { ...PAGE, isMainFrame: false })).toBe(false);
    expect(answer('notifications', { ...PAGE, requestingUrl: 'https://example.com/' })).toBe(false);
    expect(answer('notifications', { ...PAGE, requestingUrl: 'file:///etc/passwd' })).toBe(false);
    expect(answer('notifications', {})).toBe(false);
  });

  it('answers every permission check with false, but notifications for the renderer page, and every device check with false', () => {
    const { setPermissionCheckHandler: check, setDevicePermissionHandler: device } = guardedSession();
    for (const permission of PERMISSIONS) expect(check({}, permission, 'file://', PAGE)).toBe(false);
    expect(check({}, 'notifications', 'file://', PAGE)).toBe(true);
    expect(check({}, 'notifications', 'file://', { ...PAGE, isMainFrame: false })).toBe(false);
    expect(check(null, 'notifications', 'https://x', { requestingUrl: 'https://x/', isMainFrame: true })).toBe(false);
    expect(check(null, 'media', 'https://x', {})).toBe(false);
    for (const deviceType of ['hid', 'serial', 'usb']) expect(device({ deviceType, origin: 'file://', device: {} })).toBe(false);
  });

  it('refuses every screen capture (null: no streams)', () => {
    const { setDisplayMediaRequestHandler: display } = guardedSession();
    const callback = vi.fn();
    display({ frame: null, securityOrigin: 'file://', videoRequested: true, audioRequested: true, userGesture: true }, callback);
    expect(callback).toHaveBeenCalledExactlyOnceWith(null);
  });
});

describe('rendererUrlCheck', () => {
  it('accepts the page itself and its #/routes, and the same file spelled with other escapes', () => {
    expect(isTrustedUrl(RENDERER)).toBe(true);
    expect(isTrustedUrl(`${RENDERER}#/diff/F-1/spec`)).toBe(true);
    expect(isTrustedUrl('file:///opt/Baton/resources/app.asar/dist/renderer/../renderer/index.html')).toBe(true);
    const tilde = rendererUrlCheck('file:///home/o%7Ebrien/%5Bapps%5D/dist/renderer/index.html');
    expect(tilde('file:///home/o~brien/[apps]/dist/renderer/index.html#/board')).toBe(true);
  });

  it('refuses queries, other files, other schemes, encoded separators and non-strings', () => {
    for (const url of [
      `${RENDERER}?x`,
      `${RENDERER}?x#/board`,
      `${RENDERER}?`,
      'file:///opt/Baton/resources/app.asar/dist/renderer/index.htm',
      'file:///opt/Baton/resources/app.asar/dist/renderer%2Findex.html',
      'file:///opt/Baton/resources/app.asar/dist/renderer/index.html%00',
      'file://evil-host/opt/Baton/resources/app.asar/dist/renderer/index.html',
      'https://opt/Baton/resources/app.asar/dist/renderer/index.html',
      'file:///opt/Baton/resources/app.asar/dist/renderer/%E0%A4%A.html',
      'not a url',
    ]) {
      expect(isTrustedUrl(url), url).toBe(false);
    }
    expect(isTrustedUrl(undefined)).toBe(false);
    expect(isTrustedUrl(null)).toBe(false);
  });

  it('will not be built from anything but a plain file URL', () => {
    expect(() => rendererUrlCheck('https://example.com/index.html')).toThrow(/plain file/);
    expect(() => rendererUrlCheck(`${RENDERER}?x`)).toThrow(/plain file/);
    expect(() => rendererUrlCheck(`${RENDERER}#/board`)).toThrow(/plain file/);
  });
});

describe('the IPC sender check', () => {
  const frame = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } });
  const throwing = (): SenderEvent => ({
    get senderFrame(): never {
      throw new Error('Render frame was disposed before WebFrameMain could be accessed');
    },
  });

  it('allows the trusted main frame, with or without a route', () => {
    expect(isTrustedSender(frame(RENDERER), isTrustedUrl)).toBe(true);
    expect(isTrustedSender(frame(`${RENDERER}#/board`), isTrustedUrl)).toBe(true);
  });

  it('refuses a subframe, a missing frame, another file, a query variant and a disposed frame', () => {
    expect(isTrustedSender(frame(RENDERER, { url: RENDERER }), isTrustedUrl)).toBe(false);
    expect(isTrustedSender({ senderFrame: null }, isTrustedUrl)).toBe(false);
    expect(isTrustedSender({ senderFrame: undefined }, isTrustedUrl)).toBe(false);
    expect(isTrustedSender(frame('file:///tmp/evil/index.html'), isTrustedUrl)).toBe(false);
    expect(isTrustedSender(frame(`${RENDERER}?x`), isTrustedUrl)).toBe(false);
    expect(isTrustedSender(frame('https://example.com/'), isTrustedUrl)).toBe(false);
    expect(isTrustedSender(throwing(), isTrustedUrl)).toBe(false);
  });

  it('guardedIpcHandler dispatches trusted requests and answers the rest with forbidden-sender, unrun', async () => {
    const handle = vi.fn(async (payload: unknown) => ({ ok: true as const, value: payload }));
    const guardedHandle = guardedIpcHandler(isTrustedUrl, handle);
    await expect(guardedHandle(frame(RENDERER), { n: 1 })).resolves.toEqual({ ok: true, value: { n: 1 } });
    expect(handle).toHaveBeenCalledExactlyOnceWith({ n: 1 });

    handle.mockClear();
    for (const event of [frame(RENDERER, {}), { senderFrame: null }, frame(`${RENDERER}?x`), frame('file:///tmp/index.html'), throwing()]) {
      await expect(guardedHandle(event, { n: 2 })).resolves.toEqual({ ok: false, error: { code: 'forbidden-sender', message: FORBIDDEN_SENDER_MESSAGE } });
    }
    expect(handle).not.toHaveBeenCalled();
  });
});

describe('the shell wires the guards (main.ts and ipc.ts need the Electron binary, so their source is checked)', () => {
  const source = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

  it('main.ts guards every web contents and the default session, and ipc.ts guards every channel', () => {
    expect(source('./main.ts')).toMatch(/app\.on\('web-contents-created', \(_event, contents\) => guardContents\(contents, \{ isTrustedUrl,/);
    expect(source('./main.ts')).toContain('guardSession(session.defaultSession, isTrustedUrl)');
    expect(source('./main.ts')).not.toMatch(/setWindowOpenHandler|setPermission|contents\.on\(/);
    expect(source('./ipc.ts')).toMatch(/guardedIpcHandler\(isTrustedUrl,/);
  });
});

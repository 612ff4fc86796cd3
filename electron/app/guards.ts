/**
 * The Electron shell's guards, as pure functions and installers over the few members of Electron's
 * WebContents, Session and IPC event they touch. main.ts and ipc.ts hand them the real objects; the
 * tests (guards.test.ts) hand them fakes, so every guard is exercised without an Electron binary.
 * Kept free of `electron` imports: importing 'electron' outside Electron throws.
 *
 * What they hold: nothing but the renderer's own page is ever shown or allowed to call the contract;
 * no window, webview, navigation, redirect or permission is granted; the only way out is a plain
 * https link, opened in the person's browser.
 */
import { err, type Result } from '../../shared/result';

/** Longest URL handed to the system browser; longer ones are refused, not truncated. */
export const MAX_EXTERNAL_URL_LENGTH = 2048;

/** Whitespace and control characters, which `new URL` would silently strip or trim. */
// eslint-disable-next-line no-control-regex
const STRIPPED_BY_URL_PARSER = /[\u0000-\u0020\u007f-\u009f]/;

/**
 * The canonical form of `url` when it may be opened in the person's browser, else null: an absolute
 * `https:` URL that parses, with a host, no credentials (`user:pass@`), no whitespace or control
 * characters, and at most MAX_EXTERNAL_URL_LENGTH characters (before and after canonicalising).
 * http, file, javascript, data and every custom scheme are refused.
 */
export function safeExternalUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > MAX_EXTERNAL_URL_LENGTH || STRIPPED_BY_URL_PARSER.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.hostname === '' || parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href.length > MAX_EXTERNAL_URL_LENGTH ? null : parsed.href;
}

/**
 * The file a file:// URL names, as `host|decoded path`, or null when it is not a plain file URL: a
 * query (even an empty `?`), an encoded separator or NUL (`%2F`, `%5C`, `%00`), or bad escapes.
 * Decoded, because Node (pathToFileURL) and Chromium escape different characters (`~`, `[`, …) in
 * the same path; two URLs that decode to the same path name the same file.
 */
function fileIdentity(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const beforeHash = parsed.href.split('#', 1)[0] ?? '';
  if (parsed.protocol !== 'file:' || beforeHash.includes('?') || /%(2f|5c|00)/i.test(parsed.pathname)) return null;
  try {
    return `${parsed.host}|${decodeURIComponent(parsed.pathname)}`;
  } catch {
    return null;
  }
}

/**
 * The predicate "is this the renderer's own page": a file URL naming the same file as `rendererUrl`,
 * with or without a fragment (the renderer routes on `#/…`). A query string is refused: Baton never
 * loads its page with one, so a `?` variant was loaded by something else. Other files, other schemes
 * and unparsable URLs are refused.
 */
export function rendererUrlCheck(rendererUrl: string): (url: unknown) => boolean {
  const trusted = fileIdentity(rendererUrl);
  if (trusted === null || rendererUrl.includes('#')) throw new Error(`The renderer's URL must be a plain file:// URL, not ${rendererUrl}.`);
  return (url) => typeof url === 'string' && fileIdentity(url) === trusted;
}

/** An Electron event that can be cancelled. */
export interface PreventableEvent {
  preventDefault(): void;
}
/** will-navigate, will-redirect and will-frame-navigate: Electron's Event<…EventParams> carries the URL. */
export interface NavigationEvent extends PreventableEvent {
  readonly url: string;
}
export type NavigationEventName = 'will-navigate' | 'will-redirect' | 'will-frame-navigate';
/** Every navigation event guarded, each for any URL but the renderer's own page. */
export const NAVIGATION_EVENTS: readonly NavigationEventName[] = ['will-navigate', 'will-redirect', 'will-frame-navigate'];

/** The members of Electron's WebContents the guards use. */
export interface GuardedContents {
  setWindowOpenHandler(handler: (details: { readonly url: string }) => { action: 'deny' }): void;
  on(event: NavigationEventName, listener: (event: NavigationEvent) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
}

export interface ContentsGuardOptions {
  /** The renderer's own page (rendererUrlCheck). */
  readonly isTrustedUrl: (url: unknown) => boolean;
  /** Electron's shell.openExternal: only ever called with safeExternalUrl's result. */
  readonly openExternal: (url: string) => Promise<unknown> | unknown;
}

/** The window-open decision: a safe https link goes to the person's browser; nothing opens inside Baton. */
export function windowOpenDecision(url: unknown, openExternal: ContentsGuardOptions['openExternal']): { action: 'deny' } {
  const external = safeExternalUrl(url);
  if (external !== null) {
    // No default browser, or the OS refused: nothing opens, and there is nothing more to do in Baton.
    try {
      void Promise.resolve(openExternal(external)).catch(() => undefined);
    } catch {
      // As above, thrown rather than rejected.
    }
  }
  return { action: 'deny' };
}

/** Installs every per-contents guard: new windows, navigations (main frame, redirects, subframes), webviews. */
export function guardContents(contents: GuardedContents, options: ContentsGuardOptions): void {
  contents.setWindowOpenHandler(({ url }) => windowOpenDecision(url, options.openExternal));
  for (const name of NAVIGATION_EVENTS) {
    contents.on(name, (event) => {
      if (!options.isTrustedUrl(event.url)) event.preventDefault();
    });
  }
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** What Electron tells a permission handler about who asks (PermissionRequest, PermissionCheckHandlerHandlerDetails). */
export interface PermissionAsker {
  readonly requestingUrl?: string;
  readonly isMainFrame?: boolean;
}

/** The members of Electron's Session the guards use. */
export interface GuardedSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: PermissionAsker) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string, requestingOrigin: string, details: PermissionAsker) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  /**
   * Electron's typings give the callback `Streams` only; its implementation (DisplayMediaDeviceChosen)
   * answers `null` with a capture failure, which is the refusal. `never` lets both be true here.
   */
  setDisplayMediaRequestHandler(handler: (request: unknown, callback: (streams: never) => void) => void): void;
}

/**
 * The one permission Baton's own page may have: desktop notifications when Baton needs you (issue 35),
 * which the person turns on in the Inbox. Only the renderer's page in its top-level frame gets it.
 */
const GRANTED = new Set(['notifications']);

/** Denies every permission request and check but notifications for the renderer's own page, every device, and every screen capture. */
export function guardSession(session: GuardedSession, isTrustedUrl: (url: unknown) => boolean): void {
  const allowed = (permission: string, asker: PermissionAsker | undefined): boolean =>
    GRANTED.has(permission) && asker?.isMainFrame === true && isTrustedUrl(asker.requestingUrl);
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowed(permission, details)));
  session.setPermissionCheckHandler((_contents, permission, _origin, details) => allowed(permission, details));
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null as never));
}

/** The part of Electron's WebFrameMain the sender check reads. */
export interface SenderFrame {
  readonly url: string;
  readonly parent: unknown;
}
/** The part of Electron's IpcMainInvokeEvent the sender check reads. */
export interface SenderEvent {
  readonly senderFrame: SenderFrame | null | undefined;
}

/**
 * True only for a request from a live top-level frame (no parent) showing the renderer's own page.
 * A missing frame (navigated away or destroyed), a subframe, any other URL, or a frame that throws
 * when read (disposed) is refused.
 */
export function isTrustedSender(event: SenderEvent, isTrustedUrl: (url: unknown) => boolean): boolean {
  try {
    const frame = event.senderFrame;
    return frame !== null && frame !== undefined && frame.parent === null && isTrustedUrl(frame.url);
  } catch {
    return false;
  }
}

export const FORBIDDEN_SENDER_MESSAGE = 'Refused: this request did not come from the Baton window.';

/** Wraps one IPC handler: untrusted senders get a forbidden-sender Result and the handler never runs. */
export function guardedIpcHandler<T>(
  isTrustedUrl: (url: unknown) => boolean,
  handle: (payload: unknown) => Promise<Result<T>>,
): (event: SenderEvent, payload: unknown) => Promise<Result<T>> {
  return async (event, payload) => (isTrustedSender(event, isTrustedUrl) ? handle(payload) : err('forbidden-sender', FORBIDDEN_SENDER_MESSAGE));
}

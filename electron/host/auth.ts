/**
 * The browser host's guards: a per-run token (URL query on first load, then an HttpOnly cookie),
 * a Host header check against DNS rebinding, and an Origin check on the WebSocket upgrade.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { TOKEN_PARAM } from '../../shared/wire';

export const COOKIE_NAME = 'baton_token';

export const newToken = (): string => randomBytes(24).toString('base64url');

export function sameToken(expected: string, given: string | null | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The request's path and query, or null when the target is not a path (`//`, `http://[`, `*`):
 * the caller answers 400. Read as origin-form, so `//evil.example/ws` is a path, never a host.
 */
export function requestTarget(request: IncomingMessage): URL | null {
  const target = request.url ?? '';
  if (!target.startsWith('/')) return null;
  try {
    return new URL(`http://127.0.0.1${target}`);
  } catch {
    return null;
  }
}

export function tokenFromQuery(request: IncomingMessage): string | null {
  return requestTarget(request)?.searchParams.get(TOKEN_PARAM) ?? null;
}

export function tokenFromCookie(request: IncomingMessage): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE_NAME) return rest.join('=');
  }
  return null;
}

/** The only origins (and Host headers) the host answers: its own loopback address and port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function hostAllowed(request: IncomingMessage, port: number): boolean {
  return allowedHosts(port).includes(request.headers.host ?? '');
}

export function originAllowed(request: IncomingMessage, port: number): boolean {
  return allowedHosts(port).some((host) => request.headers.origin === `http://${host}`);
}

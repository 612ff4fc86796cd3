/**
 * Turning someone else's error (a `prepare` callback, a driver) into text a person may read:
 * connection URLs redacted and every known secret (API key, role password, credential token)
 * replaced, so no password reaches an error message, a log or the ledger.
 */
import { redactUrl } from '../../../shared/branches';

/** The password in a connection URL, or null. */
export function passwordOf(url: string): string | null {
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : null;
  } catch {
    return null;
  }
}

export function scrubSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let safe = text.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, (url) => redactUrl(url));
  for (const secret of secrets) {
    if (!secret) continue;
    safe = safe.split(secret).join('***');
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) safe = safe.split(encoded).join('***');
  }
  return safe;
}

export function safeMessage(error: unknown, secrets: readonly (string | null | undefined)[]): string {
  const text = error instanceof Error ? error.message : String(error);
  return scrubSecrets(text, secrets).replace(/\.\s*$/, '');
}

/** The error itself when nothing secret is in its message or stack, so it can travel as a `cause`. */
export function safeCause(error: unknown, secrets: readonly (string | null | undefined)[]): unknown {
  if (!(error instanceof Error)) return undefined;
  const text = `${error.message}\n${error.stack ?? ''}`;
  return scrubSecrets(text, secrets) === text ? error : undefined;
}

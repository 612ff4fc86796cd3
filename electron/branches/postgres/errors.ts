/**
 * Turns `pg` and server errors into BranchErrors a person can act on. The admin URL's password
 * never appears: messages name the redacted URL, and any server text is scrubbed before use.
 */
import { redactUrl } from '../../../shared/branches';
import { BranchError } from '../provider';

/** SQLSTATEs and socket codes the provider reacts to. */
export const PG = {
  objectInUse: '55006',
  duplicateDatabase: '42P04',
  undefinedDatabase: '3D000',
  queryCanceled: '57014',
  invalidPassword: '28P01',
  invalidAuthorization: '28000',
  insufficientPrivilege: '42501',
  duplicateObject: '42710',
  dependentObjects: '2BP01',
  undefinedObject: '42704',
  /** Also "tuple concurrently updated": two sessions changing one catalog row (a database's privileges) at once. */
  internalError: 'XX000',
} as const;

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);

export const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : undefined;

/** The admin URL as people may see it, and the secret to scrub from anything a server says. */
export interface Redaction {
  readonly url: string;
  readonly secret: string | null;
}

export function redactionFor(adminUrl: string): Redaction {
  let secret: string | null = null;
  try {
    const parsed = new URL(adminUrl);
    secret = parsed.password ? decodeURIComponent(parsed.password) : parsed.searchParams.get('password');
  } catch {
    secret = null;
  }
  return { url: redactUrl(adminUrl), secret: secret || null };
}

/** Server or driver text with the password (plain or URL-encoded) and any URL credentials removed. */
export function scrub(text: string, redaction: Redaction): string {
  let out = redactUrl(text);
  const { secret } = redaction;
  if (secret) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `what` says what Baton was doing, e.g. `creating branch "feat-x" from "main"`. */
export function translateError(error: unknown, what: string, redaction: Redaction): BranchError {
  if (error instanceof BranchError) return error;
  const code = codeOf(error);
  const said = scrub(messageOf(error), redaction);
  const cause = said === messageOf(error) ? { cause: error } : undefined;
  const where = redaction.url;
  // pg's own words when the server wants a password and the URL has none.
  if (code === PG.invalidPassword || code === PG.invalidAuthorization || /client password must be a string|SASL/i.test(said)) {
    return new BranchError(
      'auth',
      `Postgres at ${where} refused the login while ${what} (${said}). Check the user name and password in --url (or the admin URL's environment variable).`,
      cause,
    );
  }
  if (code === PG.insufficientPrivilege) {
    return new BranchError(
      'auth',
      `The user in ${where} lacks a privilege while ${what} (${said}). Baton needs a superuser, or a role with CREATEDB and CREATEROLE (it makes the branch databases and a login role for each): run ALTER ROLE … CREATEDB CREATEROLE, or use another user in --url.`,
      cause,
    );
  }
  if ((code && UNREACHABLE_CODES.has(code)) || /timeout expired|Connection terminated|connect ECONN/i.test(said)) {
    return new BranchError(
      'unreachable',
      `Cannot reach the Postgres server at ${where} while ${what} (${said}). Start the server (for example \`pg_ctlcluster 15 main start\`) or check the host and port in --url.`,
      cause,
    );
  }
  if (code === PG.queryCanceled) return new BranchError('cancelled', `${capitalize(what)} was cancelled; nothing was left half-made.`, cause);
  return new BranchError('failed', `${capitalize(what)} failed on ${where}: ${said}`, cause);
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A session on a database, as the busy message describes it (never a query text or credential). */
export interface SessionInfo {
  readonly application: string;
  readonly client: string;
  readonly user: string;
  readonly state: string;
  /** pg_stat_activity.backend_type: `client backend`, `autovacuum worker`, … */
  readonly kind: string;
}

export function describeSessions(sessions: readonly SessionInfo[]): string {
  const shown = sessions.slice(0, 5).map((s) => `${s.application || 'unnamed client'} as ${s.user || '?'} from ${s.client}${s.state ? `, ${s.state}` : ''}`);
  const more = sessions.length > shown.length ? `; and ${sessions.length - shown.length} more` : '';
  return shown.join('; ') + more;
}

export function busyError(parent: string, branch: string, sessions: readonly SessionInfo[], attempts: number, waitedMs: number, where: string): BranchError {
  const count = sessions.length;
  const who =
    count > 0
      ? `${count} other session${count === 1 ? ' is' : 's are'} connected to it (${describeSessions(sessions)})`
      : 'other sessions kept connecting to it';
  return new BranchError(
    'busy',
    `Cannot fork "${branch}": database "${parent}" on ${where} has to be snapshotted first, and ${who}. ` +
      `Postgres copies a database only while nobody else is connected; Baton retried ${attempts} times over ${(waitedMs / 1000).toFixed(1)} s. ` +
      `Close those sessions (stop the app, test run or SQL console using "${parent}"), then try again; later branches of "${parent}" reuse the snapshot until its data changes.`,
  );
}

/**
 * JSON over HTTPS for the cloud branch providers (Neon here, Databricks Lakebase in ../lakebase):
 * bearer auth, HTTP failures turned into `BranchError`s a person can act on, backoff while the
 * service says another operation holds the project, and an abortable sleep for polling.
 * (It lives in neon/ because Neon came first; lakebase/ imports it.)
 *
 * The token goes only into the Authorization header. Every message that leaves this file is
 * scrubbed of it anyway, in case a server or an injected fetch echoes it back.
 */
import { BranchError, type BranchErrorCode } from '../provider';

export type Fetch = typeof fetch;

/** The parts of an error body both services use: Neon `{code, message}`, Databricks `{error_code, message}`. */
export interface ErrorBody {
  readonly code: string | null;
  readonly message: string | null;
}

export interface Classified {
  readonly code: BranchErrorCode;
  /** Worth retrying with backoff (an operation in progress, a rate limit, a gateway hiccup). */
  readonly retry: boolean;
}

export interface RestClientOptions {
  /** e.g. `https://console.neon.tech/api/v2`; request paths are appended. */
  readonly baseUrl: string;
  readonly token: string;
  /** Who answers: `Neon`, `Databricks`. */
  readonly service: string;
  /** What the token is called in messages: `API key`, `token`. */
  readonly credentialName: string;
  /** What to do when the token is rejected, e.g. "set NEON_API_KEY or …". */
  readonly authHint: string;
  /** What to check when the service answers 404, e.g. "check neon.projectId in .baton/project.json". */
  readonly notFoundHint: string;
  readonly fetch?: Fetch;
  /** First backoff delay; it doubles each attempt. Default 500 ms. */
  readonly retryDelayMs?: number;
  /** Attempts before giving up on a retryable answer. Default 5. */
  readonly maxAttempts?: number;
  /** Per-request time limit. Default 30 s. */
  readonly timeoutMs?: number;
  /** Maps a failed status to a BranchError code; return undefined for the default mapping. */
  readonly classify?: (status: number, body: ErrorBody) => Classified | undefined;
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'DELETE' | 'PATCH';
  readonly query?: Readonly<Record<string, string | undefined>>;
  readonly body?: unknown;
  readonly signal?: AbortSignal;
  /** What the call is doing, for messages: "creating branch feat-x". */
  readonly what: string;
  readonly onRetry?: (attempt: number, reason: string) => void;
}

/** The default meaning of a failed status for both services. */
export function defaultClassify(status: number): Classified {
  if (status === 401 || status === 403) return { code: 'auth', retry: false };
  if (status === 404) return { code: 'not-found', retry: false };
  if (status === 409 || status === 423) return { code: 'busy', retry: status === 423 };
  if (status === 429) return { code: 'busy', retry: true };
  if (status === 502 || status === 503 || status === 504) return { code: 'unreachable', retry: true };
  if (status >= 400 && status < 500) return { code: 'invalid', retry: false };
  return { code: 'failed', retry: false };
}

export class RestClient {
  private readonly fetch: Fetch;
  private readonly origin: string;

  constructor(private readonly options: RestClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.origin = safeOrigin(options.baseUrl);
  }

  /** Replaces the token wherever it appears; use on any text that may reach a person. */
  scrub(text: string): string {
    return this.options.token ? text.split(this.options.token).join('***') : text;
  }

  async request<T>(path: string, request: RequestOptions): Promise<T> {
    const maxAttempts = this.options.maxAttempts ?? 5;
    const baseDelay = this.options.retryDelayMs ?? 500;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.once<T>(path, request);
      if (outcome.ok) return outcome.value;
      if (!outcome.retry || attempt >= maxAttempts) throw outcome.error;
      request.onRetry?.(attempt, outcome.reason);
      await sleep(baseDelay * 2 ** (attempt - 1), request.signal, request.what);
    }
  }

  private async once<T>(
    path: string,
    request: RequestOptions,
  ): Promise<{ ok: true; value: T } | { ok: false; retry: boolean; reason: string; error: BranchError }> {
    const { service } = this.options;
    if (request.signal?.aborted) throw cancelled(request.what);
    const timeoutMs = this.options.timeoutMs ?? 30_000;
    const signals = [AbortSignal.timeout(timeoutMs), ...(request.signal ? [request.signal] : [])];
    let response: Response;
    try {
      response = await this.fetch(this.url(path, request.query), {
        method: request.method ?? 'GET',
        headers: {
          authorization: `Bearer ${this.options.token}`,
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (request.signal?.aborted) throw cancelled(request.what);
      const why = describeNetworkError(error, timeoutMs);
      const message = this.scrub(
        `Could not reach ${service} at ${this.origin} while ${request.what}: ${why}. Check your network connection and the API address, then try again.`,
      );
      return { ok: false, retry: true, reason: this.scrub(why), error: new BranchError('unreachable', message, { cause: error }) };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      // The body is read under the same signal: an abort here is a cancellation too.
      if (request.signal?.aborted) throw cancelled(request.what);
      const why = describeNetworkError(error, timeoutMs);
      return {
        ok: false,
        retry: true,
        reason: this.scrub(why),
        error: new BranchError('unreachable', this.scrub(`${service} stopped answering while ${request.what}: ${why}. Try again.`)),
      };
    }
    if (response.ok) return { ok: true, value: (text ? JSON.parse(text) : {}) as T };
    const body = parseErrorBody(text);
    const classified = this.options.classify?.(response.status, body) ?? defaultClassify(response.status);
    const detail = body.message ? `: ${truncate(body.message)}` : '';
    const status = `HTTP ${response.status}${body.code ? ` ${body.code}` : ''}`;
    const message = this.scrub(this.explain(classified.code, request.what, status, detail));
    return { ok: false, retry: classified.retry, reason: this.scrub(`${status}${detail}`), error: new BranchError(classified.code, message) };
  }

  private explain(code: BranchErrorCode, what: string, status: string, detail: string): string {
    const { service } = this.options;
    switch (code) {
      case 'auth':
        return `${service} rejected the ${this.options.credentialName} while ${what} (${status}${detail}): ${this.options.authHint}.`;
      case 'not-found':
        return `${service} found nothing while ${what} (${status}${detail}): ${this.options.notFoundHint}.`;
      case 'busy':
        return `${service} is busy with another operation while ${what} (${status}${detail}): wait for it to finish and try again.`;
      case 'exists':
        return `${service} already has it while ${what} (${status}${detail}): pick another name or delete the existing one.`;
      case 'unreachable':
        return `${service} is unavailable while ${what} (${status}${detail}): try again in a minute.`;
      case 'invalid':
        return `${service} refused the request while ${what} (${status}${detail}): check the settings in .baton/project.json.`;
      default:
        return `${service} failed while ${what} (${status}${detail}): try again; if it persists, check ${service}'s status page.`;
    }
  }

  private url(path: string, query: RequestOptions['query']): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) url.searchParams.set(key, value);
    return url.toString();
  }
}

/** Waits `ms`, or throws `cancelled` as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled(what));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function cancelled(what: string): BranchError {
  return new BranchError('cancelled', `${capitalize(what)} was cancelled.`);
}

export function isCancelled(error: unknown): boolean {
  return error instanceof BranchError && error.code === 'cancelled';
}

function parseErrorBody(text: string): ErrorBody {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const code = json.code ?? json.error_code;
    return {
      code: typeof code === 'string' && code ? code : null,
      message: typeof json.message === 'string' && json.message ? json.message : null,
    };
  } catch {
    return { code: null, message: text.trim() ? text.trim() : null };
  }
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
}

function safeOrigin(baseUrl: string): string {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return baseUrl;
  }
}

function truncate(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

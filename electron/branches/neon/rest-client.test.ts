import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BranchError } from '../provider';
import { FakeHttpServer } from './fake-http-server';
import { RestClient, type RestClientOptions } from './rest-client';

const TOKEN = 'napi_rest_client_secret_42';

let server: FakeHttpServer;

beforeEach(async () => {
  server = await FakeHttpServer.start();
});

afterEach(async () => {
  await server.close();
});

function client(extra: Partial<RestClientOptions> = {}): RestClient {
  return new RestClient({
    baseUrl: `${server.origin}/api/v2/`,
    token: TOKEN,
    service: 'Neon',
    credentialName: 'API key',
    authHint: 'set NEON_API_KEY',
    notFoundHint: 'check the project id',
    retryDelayMs: 1,
    ...extra,
  });
}

async function failure(promise: Promise<unknown>): Promise<BranchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BranchError);
  return error as BranchError;
}

describe('RestClient', () => {
  it('sends the bearer token, JSON body and query, and parses the JSON answer', async () => {
    server.route('POST', /^\/api\/v2\/things$/, (r) => ({ status: 201, body: { echo: r.body, query: r.query } }));
    const answer = await client().request<{ echo: unknown; query: unknown }>('/things', {
      method: 'POST',
      what: 'making a thing',
      body: { a: 1 },
      query: { x: 'y', skip: undefined },
    });
    expect(answer).toEqual({ echo: { a: 1 }, query: { x: 'y' } });
    expect(server.requests[0]).toMatchObject({ authorization: `Bearer ${TOKEN}`, contentType: 'application/json' });
  });

  it('scrubs the token from anything a server echoes back', async () => {
    server.route('GET', /./, (r) => ({ status: 500, body: { code: 'INTERNAL', message: `bad header ${r.authorization}` } }));
    const error = await failure(client().request('/x', { what: 'reading x' }));
    expect(error.code).toBe('failed');
    expect(error.message).toBe("Neon failed while reading x (HTTP 500 INTERNAL: bad header Bearer ***): try again; if it persists, check Neon's status page.");
  });

  it('retries 429 and 503 with backoff, reporting each retry', async () => {
    let calls = 0;
    server.route('GET', /./, () => (++calls < 3 ? { status: calls === 1 ? 429 : 503, body: { message: 'slow down' } } : { status: 200, body: { ok: true } }));
    const retries: string[] = [];
    expect(await client().request('/x', { what: 'reading x', onRetry: (attempt, reason) => void retries.push(`${attempt} ${reason}`) })).toEqual({ ok: true });
    expect(retries).toEqual(['1 HTTP 429: slow down', '2 HTTP 503: slow down']);
  });

  it('gives up on a server that does not answer in time', async () => {
    server.route('GET', /./, () => new Promise(() => undefined));
    const error = await failure(client({ timeoutMs: 50, maxAttempts: 2 }).request('/x', { what: 'reading x' }));
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(
      'Could not reach Neon at ' +
        server.origin +
        ' while reading x: no answer within 50 ms. Check your network connection and the API address, then try again.',
    );
  });

  it('stops a request in flight when the caller cancels', async () => {
    server.route('GET', /./, () => new Promise(() => undefined));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await failure(client().request('/x', { what: 'reading x', signal: controller.signal }));
    expect(error.code).toBe('cancelled');
    expect(error.message).toBe('Reading x was cancelled.');
  });

  it('maps 400, 403 and 404 without retrying', async () => {
    const statuses = [400, 403, 404];
    server.route('GET', /^\/api\/v2\/(\d+)$/, (_r, m) => ({ status: Number(m[1]), body: { message: 'nope' } }));
    const codes = [];
    for (const status of statuses) codes.push((await failure(client().request(`/${status}`, { what: 'asking' }))).code);
    expect(codes).toEqual(['invalid', 'auth', 'not-found']);
    expect(server.requests).toHaveLength(3);
  });
});

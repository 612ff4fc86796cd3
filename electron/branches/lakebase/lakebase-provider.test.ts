import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { BranchError } from '../provider';
import { compareSchemas } from '../schema/index';
import { FakeLakebaseServer } from './fake-lakebase-server';
import { LakebaseProvider, type LakebaseProviderOptions } from './lakebase-provider';
import { startDatabaseProxy, type StartupProxy } from './pg-startup-proxy';

const TOKEN = 'dapi0123456789abcdef0123456789abcdef';
const PROJECT = 'shop-app';
const base = `/api/2.0/postgres/projects/${PROJECT}`;

let fake: FakeLakebaseServer;
let events: BranchProgress[];

beforeEach(async () => {
  fake = await FakeLakebaseServer.start({ token: TOKEN, project: PROJECT });
  events = [];
});

afterEach(async () => {
  await fake.close();
});

function provider(extra: Partial<LakebaseProviderOptions> = {}): LakebaseProvider {
  return new LakebaseProvider({ host: fake.host, token: TOKEN, project: PROJECT, pollIntervalMs: 2, retryDelayMs: 2, ...extra });
}

const onProgress = (event: BranchProgress): void => {
  events.push(event);
};

async function failure(promise: Promise<unknown>): Promise<BranchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BranchError);
  return error as BranchError;
}

describe('LakebaseProvider', () => {
  it('is experimental and maps Baton’s root onto the project’s default branch', async () => {
    const lakebase = provider();
    expect(lakebase.experimental).toBe(true);
    expect(await lakebase.ensureRoot('main')).toEqual({ name: 'main', parent: null, createdAt: expect.any(String), sizeBytes: 31_457_280, depth: 0 });
    expect(await lakebase.ensureRoot('production')).toMatchObject({ depth: 0 });
    await expect(lakebase.ensureRoot('crm', { mustExist: true })).rejects.toMatchObject({
      code: 'not-found',
      message: expect.stringContaining('has no branch named crm'),
    });
    expect(fake.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('creates a branch as a long-running operation and polls it until done', async () => {
    const lakebase = provider();
    await lakebase.ensureRoot('main');
    const created = await lakebase.create('feat-login', 'main', { onProgress });
    expect(created).toEqual({ name: 'feat-login', parent: 'main', createdAt: expect.any(String), sizeBytes: 31_457_280, depth: 1 });

    const [post] = fake.requestsTo('POST', new RegExp(`^${base}/branches$`));
    expect(post!.query).toEqual({ branch_id: 'feat-login' });
    expect(post!.body).toEqual({ spec: { source_branch: `projects/${PROJECT}/branches/production`, no_expiry: true } });
    expect(post!.contentType).toBe('application/json');
    const polls = fake.requestsTo('GET', /\/operations\//);
    expect(polls.length).toBe(fake.pollsUntilDone);
    expect(polls[0]!.path).toMatch(new RegExp(`^${base}/branches/feat-login/operations/`));
    expect(events.some((e) => e.kind === 'branch.step' && e.step === 'waiting for Lakebase to finish creating branch feat-login')).toBe(true);
    expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'create', name: 'feat-login' });
  });

  it('refuses names Lakebase cannot take, existing names and missing parents', async () => {
    fake.addBranch('feat-dup', 'production');
    expect((await failure(provider().create('9-lives', 'production'))).code).toBe('invalid');
    expect((await failure(provider().create('feat-dup', 'production'))).code).toBe('exists');
    expect((await failure(provider().create('feat-new', 'ghost'))).code).toBe('not-found');
    expect(fake.requestsTo('POST', /\/branches$/)).toHaveLength(0);
  });

  it('reports a failed create operation and leaves nothing behind', async () => {
    fake.failNextCreate = { error_code: 'RESOURCE_EXHAUSTED', message: 'Branch limit reached for this project.' };
    const error = await failure(provider().create('feat-full', 'production'));
    expect(error.code).toBe('failed');
    expect(error.message).toBe(
      'Lakebase failed creating branch feat-full (RESOURCE_EXHAUSTED): Branch limit reached for this project; nothing was left behind.',
    );
    expect(fake.branches.has('feat-full')).toBe(false);
  });

  it('runs prepare with the compute host, the user’s role and a fresh credential, and deletes the branch if it fails', async () => {
    const urls: string[] = [];
    await provider().create('feat-ok', 'production', { prepare: async (url) => void urls.push(url) });
    const url = new URL(urls[0]!);
    expect(url.hostname).toBe('ep-feat-ok.database.us-east-1.cloud.databricks.com');
    expect(decodeURIComponent(url.username)).toBe('dev@example.com');
    expect(decodeURIComponent(url.password)).toBe(fake.credentials[0]!.token);
    expect(url.pathname).toBe('/databricks_postgres');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(fake.requestsTo('POST', /\/credentials$/)[0]!.body).toEqual({ endpoint: `projects/${PROJECT}/branches/feat-ok/endpoints/primary` });

    const error = await failure(
      provider().create('feat-bad', 'production', {
        prepare: async (u) => {
          throw new Error(`migration 002 failed on ${u}`);
        },
      }),
    );
    expect(error.code).toBe('failed');
    expect(error.message).toMatch(/^Preparing Lakebase branch feat-bad failed: migration 002 failed on postgresql:\/\/dev%40example\.com:\*\*\*@ep-feat-bad\./);
    expect(error.message).toMatch(/the half-made branch was deleted\.$/);
    expect(error.message).not.toContain(fake.credentials[1]!.token);
    expect(fake.branches.has('feat-bad')).toBe(false);
  });

  it('lists sizes (int64 as strings), parents and depths', async () => {
    fake.addBranch('feature', 'production', { size: '2048', createTime: '2025-03-01T08:00:00Z' });
    fake.addBranch('experiment', 'feature');
    const lakebase = provider();
    await lakebase.ensureRoot('main');
    expect(await lakebase.list()).toEqual([
      { name: 'main', parent: null, createdAt: expect.any(String), sizeBytes: 31_457_280, depth: 0 },
      { name: 'feature', parent: 'main', createdAt: '2025-03-01T08:00:00Z', sizeBytes: 2048, depth: 1 },
      { name: 'experiment', parent: 'feature', createdAt: expect.any(String), sizeBytes: null, depth: 2 },
    ]);
  });

  it('deletes a leaf, polling the operation, and refuses parents, defaults and protected branches', async () => {
    fake.addBranch('feature', 'production');
    fake.addBranch('experiment', 'feature');
    fake.addBranch('locked', 'production', { isProtected: true });
    const lakebase = provider();
    expect((await failure(lakebase.delete('feature'))).code).toBe('has-children');
    expect((await failure(lakebase.delete('production'))).code).toBe('protected');
    expect((await failure(lakebase.delete('locked'))).message).toContain('protected in Lakebase');
    expect(fake.requestsTo('DELETE', /./)).toHaveLength(0);

    await lakebase.delete('experiment', { onProgress });
    expect(fake.requestsTo('DELETE', /./).map((r) => r.path)).toEqual([`${base}/branches/experiment`]);
    expect(fake.branches.has('experiment')).toBe(false);
    expect(fake.requestsTo('GET', /\/operations\//).length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'delete' });
  });

  it('resets by deleting and forking again from the parent under the same id', async () => {
    fake.addBranch('feature', 'production');
    const before = fake.branches.get('feature')!.uid;
    const prepared: string[] = [];
    const reset = await provider().reset('feature', { onProgress, prepare: async (url) => void prepared.push(url) });
    expect(reset).toMatchObject({ name: 'feature', parent: 'production', depth: 1 });
    expect(fake.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE ${base}/branches/feature`,
      `POST ${base}/branches`,
      'POST /api/2.0/postgres/credentials',
    ]);
    expect(fake.branches.get('feature')!.uid).not.toBe(before);
    expect(prepared).toHaveLength(1);
    expect((await failure(provider().reset('production'))).code).toBe('invalid');
  });

  it('retries a 409 ABORTED conflict and gives up as busy', async () => {
    fake.conflictNext(1);
    await provider().create('feat-retry', 'production', { onProgress });
    expect(fake.requestsTo('POST', /\/branches$/)).toHaveLength(2);
    expect(events.find((e) => e.kind === 'branch.retry')).toMatchObject({ attempt: 1, reason: expect.stringContaining('HTTP 409 ABORTED') });
    fake.conflictNext(100);
    expect((await failure(provider().create('feat-retry-2', 'production'))).code).toBe('busy');
  });

  it('turns a rejected token into an auth error that says what to do', async () => {
    const error = await failure(new LakebaseProvider({ host: fake.host, token: 'dapi-wrong', project: PROJECT }).list());
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(
      /^Databricks rejected the token while listing branches \(HTTP 401 UNAUTHENTICATED: Invalid access token\.\): set DATABRICKS_TOKEN /,
    );
    expect(error.message).not.toContain('dapi-wrong');
    expect((await failure(new LakebaseProvider({ host: fake.host, token: TOKEN, project: 'other' }).list())).code).toBe('not-found');
  });

  it('cancels while polling, deletes the half-made branch and leaves nothing behind', async () => {
    fake.holdOperations = true;
    const controller = new AbortController();
    const watchingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/operations/') && !controller.signal.aborted) {
        controller.abort();
        fake.holdOperations = false;
      }
      return response;
    };
    const error = await failure(provider({ fetch: watchingFetch }).create('feat-cancel', 'production', { signal: controller.signal, onProgress }));
    expect(error.code).toBe('cancelled');
    expect(error.message).toBe('Creating Lakebase branch feat-cancel was cancelled; the half-made branch was deleted.');
    expect(fake.branches.has('feat-cancel')).toBe(false);
    expect(fake.requestsTo('DELETE', /\/branches\/feat-cancel$/)).toHaveLength(1);
  });

  it('never puts the token or a credential in errors, progress events or logs', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    const texts: string[] = [];
    try {
      const lakebase = provider();
      fake.conflictNext(1);
      await lakebase.create('feat-s', 'production', { onProgress, prepare: async () => undefined });
      await lakebase.connectionUrl('feat-s');
      for (const attempt of [
        () =>
          lakebase.create('feat-t', 'production', { onProgress, prepare: async (url) => Promise.reject(new Error(`auth failed for ${url} with ${TOKEN}`)) }),
        () => new LakebaseProvider({ host: fake.host, token: `${TOKEN}x`, project: PROJECT }).list(),
        () => lakebase.delete('ghost'),
      ]) {
        const error = await failure(attempt());
        texts.push(error.message, String(error.stack), String((error.cause as Error | undefined)?.message));
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const everything = [...texts, ...logged, ...events.map((e) => JSON.stringify(e))].join('\n');
    expect(fake.credentials.length).toBeGreaterThanOrEqual(3);
    expect(everything).not.toContain(TOKEN);
    for (const { token } of fake.credentials) expect(everything).not.toContain(token);
  });
});

const PG_URL = await reachablePg();

describe.skipIf(!PG_URL)('LakebaseProvider.schemaDiff', () => {
  it('connects to both branches’ computes with the generated credential and compares their catalogs', async () => {
    // Two fake computes: loopback proxies that send one database name to two real databases.
    const admin = new URL(PG_URL!);
    const prefix = `baton_lb_${randomBytes(4).toString('hex')}`;
    const databases = { parent: `${prefix}_parent`, branch: `${prefix}_branch` };
    const proxies: StartupProxy[] = [];
    await withClient(PG_URL!, async (c) => {
      for (const db of Object.values(databases)) await c.query(`CREATE DATABASE ${db} TEMPLATE template0`);
    });
    try {
      const schema = 'CREATE TABLE customers (id integer PRIMARY KEY, email text NOT NULL);';
      await withClient(dbUrl(PG_URL!, databases.parent), (c) => c.query(schema));
      await withClient(dbUrl(PG_URL!, databases.branch), (c) => c.query(`${schema} CREATE TABLE orders (id integer PRIMARY KEY);`));
      const target = { host: admin.hostname, port: Number(admin.port || 5432) };
      proxies.push(await startDatabaseProxy(target, databases.parent), await startDatabaseProxy(target, databases.branch));
      fake.addBranch('feature', 'production');
      fake.endpointHost = (id) => (id === 'feature' ? proxies[1]! : proxies[0]!).address;
      // The server checks the password: only the generated credential, used as password, gets in.
      fake.userName = decodeURIComponent(admin.username);
      fake.issueToken = () => decodeURIComponent(admin.password);

      const diff = await provider({ sslMode: 'disable' }).schemaDiff('feature', 'production', { onProgress });

      expect(proxies.map((p) => p.connections)).toEqual([1, 1]);
      expect(fake.credentials.map((c) => c.endpoint)).toEqual([
        `projects/${PROJECT}/branches/feature/endpoints/primary`,
        `projects/${PROJECT}/branches/production/endpoints/primary`,
      ]);
      expect(fake.requestsTo('GET', /\/scim\/v2\/Me$/)).toHaveLength(1);
      // The branch's side has the extra table: the two connections were not swapped.
      expect(diff.changes.map((c) => `${c.kind} ${c.table}`)).toEqual(['table-added public.orders']);
      const expected = await withClient(dbUrl(PG_URL!, databases.branch), (b) =>
        withClient(dbUrl(PG_URL!, databases.parent), (p) => compareSchemas(b, p, { branch: 'feature', parent: 'production' })),
      );
      expect(diff).toEqual(expected);
      expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'diff' });
    } finally {
      await Promise.all(proxies.map((p) => p.close()));
      await withClient(PG_URL!, async (c) => {
        for (const db of Object.values(databases)) await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
      });
    }
  });
});

/** BATON_TEST_PG_URL if it answers; otherwise null, with the reason printed (the suite then skips). */
async function reachablePg(): Promise<string | null> {
  const url = process.env.BATON_TEST_PG_URL;
  if (!url) {
    console.warn('lakebase-provider.test.ts: schemaDiff skipped: BATON_TEST_PG_URL is not set (e.g. postgresql://postgres:baton-ci@127.0.0.1:5432/postgres).');
    return null;
  }
  try {
    await withClient(url, (c) => c.query('select 1'));
    return url;
  } catch (error) {
    console.warn(`lakebase-provider.test.ts: schemaDiff skipped: the server in BATON_TEST_PG_URL is unreachable (${(error as Error).message}).`);
    return null;
  }
}

function dbUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

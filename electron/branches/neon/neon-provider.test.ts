import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { BranchError } from '../provider';
import { FAKE_ROLE_PASSWORD, FakeNeonServer } from './fake-neon-server';
import { NeonProvider, type NeonProviderOptions } from './neon-provider';

const API_KEY = 'napi_secret_0123456789abcdefghij';
const PROJECT = 'aged-wildflower-123456';
const MAIN_ID = 'br-main-a1b2c3d4';

let fake: FakeNeonServer;
let events: BranchProgress[];

beforeEach(async () => {
  fake = await FakeNeonServer.start({ apiKey: API_KEY, projectId: PROJECT });
  events = [];
});

afterEach(async () => {
  await fake.close();
});

function provider(extra: Partial<NeonProviderOptions> = {}): NeonProvider {
  return new NeonProvider({ apiKey: API_KEY, projectId: PROJECT, apiUrl: fake.apiUrl, pollIntervalMs: 2, retryDelayMs: 2, ...extra });
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

const projectPath = `/api/v2/projects/${PROJECT}`;

describe('NeonProvider', () => {
  it('is experimental and finds the root by name, or maps Baton’s name onto the default branch', async () => {
    const neon = provider();
    expect(neon.experimental).toBe(true);
    expect(await neon.ensureRoot('main')).toEqual({ name: 'main', parent: null, createdAt: expect.any(String), sizeBytes: 30_785_536, depth: 0 });

    const other = await FakeNeonServer.start({ apiKey: API_KEY, projectId: PROJECT, defaultBranchName: 'production' });
    try {
      const aliased = new NeonProvider({ apiKey: API_KEY, projectId: PROJECT, apiUrl: other.apiUrl, pollIntervalMs: 2 });
      // A root someone named (branches.root, baton branch adopt) must exist: no stand-in for it.
      await expect(aliased.ensureRoot('main', { mustExist: true })).rejects.toMatchObject({
        code: 'not-found',
        message: expect.stringContaining('has no branch named main'),
      });
      expect((await aliased.ensureRoot('production', { mustExist: true })).name).toBe('production');
      expect((await aliased.ensureRoot('main')).name).toBe('main');
      expect((await aliased.list()).map((b) => b.name)).toEqual(['main']);
      const child = await aliased.create('feat-a', 'main');
      expect(child.parent).toBe('main');
      expect(other.requestsTo('POST', /\/branches$/)[0]!.body).toMatchObject({ branch: { parent_id: MAIN_ID } });
    } finally {
      await other.close();
    }
    expect(fake.requests.every((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it('creates a branch with a read-write endpoint and waits for its operations', async () => {
    const created = await provider().create('feat-login', 'main', { onProgress });
    expect(created).toEqual({ name: 'feat-login', parent: 'main', createdAt: expect.any(String), sizeBytes: 30_785_536, depth: 1 });

    const [post] = fake.requestsTo('POST', new RegExp(`^${projectPath}/branches$`));
    expect(post!.body).toEqual({ branch: { name: 'feat-login', parent_id: MAIN_ID }, endpoints: [{ type: 'read_write' }] });
    expect(post!.contentType).toBe('application/json');
    expect(post!.authorization).toBe(`Bearer ${API_KEY}`);
    // Two operations (create_timeline, start_compute), each polled until `finished`.
    const polls = fake.requestsTo('GET', /\/operations\//);
    expect(new Set(polls.map((r) => r.path)).size).toBe(2);
    expect(polls.length).toBeGreaterThanOrEqual(4);
    expect([...fake.operations.values()].every((o) => o.op.status === 'finished')).toBe(true);
    expect(fake.byName('feat-login')?.parent_id).toBe(MAIN_ID);
    expect(events.some((e) => e.kind === 'branch.step' && e.step.startsWith('waiting for Neon: create_timeline'))).toBe(true);
    expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'create', name: 'feat-login' });
  });

  it('runs prepare on the new branch with its real connection URL', async () => {
    const urls: string[] = [];
    await provider({ database: 'app', role: 'app_owner' }).create('feat-x', 'main', { prepare: async (url) => void urls.push(url) });
    expect(urls).toHaveLength(1);
    expect(new URL(urls[0]!).password).toBe(FAKE_ROLE_PASSWORD);
    expect(new URL(urls[0]!).pathname).toBe('/app');
    const [uriRequest] = fake.requestsTo('GET', /\/connection_uri$/);
    expect(uriRequest!.query).toEqual({ branch_id: fake.byName('feat-x')!.id, database_name: 'app', role_name: 'app_owner' });
  });

  it('deletes the new branch when prepare fails, without leaking the password', async () => {
    const error = await failure(
      provider().create('feat-bad', 'main', {
        prepare: async (url) => {
          throw new Error(`masking failed on ${url} (password ${FAKE_ROLE_PASSWORD})`);
        },
      }),
    );
    expect(error.code).toBe('failed');
    expect(error.message).toMatch(/^Preparing Neon branch feat-bad failed: masking failed on postgresql:\/\/neondb_owner:\*\*\*@/);
    expect(error.message).toMatch(/the half-made branch was deleted\.$/);
    expect(error.message).not.toContain(FAKE_ROLE_PASSWORD);
    expect(fake.byName('feat-bad')).toBeUndefined();
    expect(fake.requestsTo('DELETE', /\/branches\/br-featbad-/)).toHaveLength(1);
  });

  it('refuses an existing name and a missing parent before calling create', async () => {
    fake.addBranch({ name: 'feat-dup', parent_id: MAIN_ID });
    expect((await failure(provider().create('feat-dup', 'main'))).code).toBe('exists');
    const missing = await failure(provider().create('feat-y', 'nope'));
    expect(missing.code).toBe('not-found');
    expect(missing.message).toContain('no branch named nope');
    expect(fake.requestsTo('POST', /\/branches$/)).toHaveLength(0);
  });

  it('lists parents by name, creation times, sizes and depths across pages', async () => {
    const a = fake.addBranch({ name: 'feature', parent_id: MAIN_ID, logical_size: 1024, created_at: '2025-02-01T10:00:00Z' });
    fake.addBranch({ name: 'experiment', parent_id: a.id, created_at: '2025-02-02T10:00:00Z' });
    fake.pageSize = 1;
    const list = await provider().list();
    expect(list).toEqual([
      { name: 'main', parent: null, createdAt: expect.any(String), sizeBytes: 30_785_536, depth: 0 },
      { name: 'feature', parent: 'main', createdAt: '2025-02-01T10:00:00Z', sizeBytes: 1024, depth: 1 },
      { name: 'experiment', parent: 'feature', createdAt: '2025-02-02T10:00:00Z', sizeBytes: null, depth: 2 },
    ]);
    expect(fake.requestsTo('GET', /\/branches$/).map((r) => r.query.cursor)).toEqual([undefined, '1', '2']);
  });

  it('deletes a leaf and refuses a branch with children or the default branch', async () => {
    const parent = fake.addBranch({ name: 'feature', parent_id: MAIN_ID });
    const leaf = fake.addBranch({ name: 'experiment', parent_id: parent.id });
    const neon = provider();
    const blocked = await failure(neon.delete('feature'));
    expect(blocked.code).toBe('has-children');
    expect(blocked.message).toContain('experiment');
    expect((await failure(neon.delete('main'))).code).toBe('protected');
    expect((await failure(neon.delete('ghost'))).code).toBe('not-found');
    expect(fake.requestsTo('DELETE', /./)).toHaveLength(0);

    await neon.delete('experiment', { onProgress });
    expect(fake.requestsTo('DELETE', /./).map((r) => r.path)).toEqual([`${projectPath}/branches/${leaf.id}`]);
    expect(fake.branches.has(leaf.id)).toBe(false);
    expect(fake.requestsTo('GET', /\/operations\//).length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'delete' });
  });

  it('resets a branch from its parent and prepares it again', async () => {
    const feature = fake.addBranch({ name: 'feature', parent_id: MAIN_ID });
    const prepared: string[] = [];
    const reset = await provider().reset('feature', { onProgress, prepare: async (url) => void prepared.push(url) });
    expect(reset).toMatchObject({ name: 'feature', parent: 'main', depth: 1 });
    const [restore] = fake.requestsTo('POST', /\/restore$/);
    expect(restore!.path).toBe(`${projectPath}/branches/${feature.id}/restore`);
    expect(restore!.body).toEqual({ source_branch_id: MAIN_ID });
    expect(fake.branches.get(feature.id)?.last_reset_at).toBeTruthy();
    expect(prepared).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ kind: 'branch.done', op: 'reset' });
  });

  it('refuses to reset a root or a branch with children', async () => {
    const feature = fake.addBranch({ name: 'feature', parent_id: MAIN_ID });
    fake.addBranch({ name: 'experiment', parent_id: feature.id });
    expect((await failure(provider().reset('main'))).code).toBe('invalid');
    expect((await failure(provider().reset('feature'))).code).toBe('has-children');
    expect(fake.requestsTo('POST', /\/restore$/)).toHaveLength(0);
  });

  it('gets the connection URL from the connection_uri endpoint', async () => {
    const feature = fake.addBranch({ name: 'feature', parent_id: MAIN_ID });
    const url = await provider().connectionUrl('feature');
    expect(url).toBe(
      `postgresql://neondb_owner:${FAKE_ROLE_PASSWORD}@ep-${feature.id.slice(3)}.us-east-2.aws.neon.tech/neondb?sslmode=require&channel_binding=require`,
    );
    expect(fake.requestsTo('GET', /\/connection_uri$/)[0]!.query).toEqual({ branch_id: feature.id, database_name: 'neondb', role_name: 'neondb_owner' });
  });

  it('diffs schemas with compare_schema, keeping Neon’s text and parsing what it can', async () => {
    const feature = fake.addBranch({ name: 'feature', parent_id: MAIN_ID });
    const text = '--- a/neondb\n+++ b/neondb\n@@ -1,1 +1,4 @@\n+CREATE TABLE public.orders (\n+    id integer NOT NULL\n+);\n';
    fake.schemaDiffs.set(feature.id, text);
    const diff = await provider().schemaDiff('feature', 'main');
    expect(diff).toEqual({
      branch: 'feature',
      parent: 'main',
      text,
      changes: [{ kind: 'table-added', table: 'public.orders', before: null, after: 'CREATE TABLE public.orders (\n  id integer NOT NULL\n)' }],
    });
    expect(fake.requestsTo('GET', /\/compare_schema$/)[0]!.query).toEqual({ base_branch_id: MAIN_ID, db_name: 'neondb' });

    fake.schemaDiffs.set(feature.id, '');
    expect(await provider().schemaDiff('feature', 'main')).toEqual({ branch: 'feature', parent: 'main', text: '', changes: [] });
  });

  it('retries while Neon answers 423 Locked, then gives up as busy', async () => {
    fake.lockNext(2);
    await provider().create('feat-locked', 'main', { onProgress });
    expect(fake.requestsTo('POST', /\/branches$/)).toHaveLength(3);
    expect(events.filter((e) => e.kind === 'branch.retry').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);

    fake.lockNext(100);
    const busy = await failure(provider().create('feat-locked-2', 'main'));
    expect(busy.code).toBe('busy');
    expect(busy.message).toContain('HTTP 423');
    expect(fake.requestsTo('POST', /\/branches$/)).toHaveLength(3 + 5);
  });

  it('reports a failed operation as a retry while Neon retries it', async () => {
    fake.failOperationsOnce = true;
    await provider().create('feat-flaky', 'main', { onProgress });
    const retry = events.find((e) => e.kind === 'branch.retry');
    expect(retry).toMatchObject({ kind: 'branch.retry', op: 'create', name: 'feat-flaky' });
    expect((retry as { reason: string }).reason).toMatch(/create_timeline operation failed; Neon retries it/);
    expect(fake.byName('feat-flaky')).toBeDefined();
  });

  it('turns a rejected API key into an auth error that says what to do', async () => {
    const error = await failure(new NeonProvider({ apiKey: 'napi_wrong_key_999', projectId: PROJECT, apiUrl: fake.apiUrl }).list());
    expect(error.code).toBe('auth');
    expect(error.message).toMatch(/^Neon rejected the API key while listing branches \(HTTP 401: authorization failed\): set NEON_API_KEY /);
    if (process.platform === 'linux') expect(error.message).toContain('store it with `secret-tool store --label=baton service baton account neon`');
    expect(error.message).not.toContain('napi_wrong_key_999');
  });

  it('turns an unknown project into not-found and a closed port into unreachable', async () => {
    const lost = await failure(new NeonProvider({ apiKey: API_KEY, projectId: 'no-such-project', apiUrl: fake.apiUrl }).list());
    expect(lost.code).toBe('not-found');
    expect(lost.message).toContain('neon.projectId');
    const closed = await FakeNeonServer.start({ apiKey: API_KEY, projectId: PROJECT });
    const url = closed.apiUrl;
    await closed.close();
    const down = await failure(new NeonProvider({ apiKey: API_KEY, projectId: PROJECT, apiUrl: url, retryDelayMs: 1 }).list());
    expect(down.code).toBe('unreachable');
    expect(down.message).toMatch(/^Could not reach Neon at http:\/\/127\.0\.0\.1:\d+ while listing branches: .*ECONNREFUSED/);
  });

  it('cancels while polling, deletes the half-made branch and leaves nothing behind', async () => {
    fake.holdOperations = true;
    const controller = new AbortController();
    // Abort as soon as Neon has answered the first poll, then let the operations finish.
    const watchingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes('/operations/') && !controller.signal.aborted) {
        controller.abort();
        fake.holdOperations = false;
      }
      return response;
    };
    const error = await failure(provider({ fetch: watchingFetch }).create('feat-cancel', 'main', { signal: controller.signal, onProgress }));
    expect(error.message).toBe('Creating Neon branch feat-cancel was cancelled; the half-made branch was deleted.');
    expect(fake.byName('feat-cancel')).toBeUndefined();
    expect(fake.requestsTo('DELETE', /\/branches\//)).toHaveLength(1);
    expect(events.some((e) => e.kind === 'branch.done')).toBe(false);
  });

  it('never puts the API key or a password in errors, progress events or logs', async () => {
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
    );
    const texts: string[] = [];
    try {
      const neon = provider();
      fake.lockNext(1);
      await neon.create('feat-s', 'main', { onProgress, prepare: async () => undefined });
      await neon.reset('feat-s', { onProgress });
      fake.lockNext(100);
      for (const attempt of [
        () => neon.delete('feat-s', { onProgress }),
        () => neon.create('feat-t', 'nope'),
        () => new NeonProvider({ apiKey: `${API_KEY}x`, projectId: PROJECT, apiUrl: fake.apiUrl }).list(),
      ]) {
        const error = await failure(attempt());
        texts.push(error.message, String(error.stack));
      }
      fake.lockNext(0);
      const error = await failure(
        neon.create('feat-u', 'main', { prepare: async (url) => Promise.reject(new Error(`could not connect to ${url} as ${API_KEY}`)) }),
      );
      texts.push(error.message, String(error.stack), String((error.cause as Error | undefined)?.message));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    const everything = [...texts, ...logged, ...events.map((e) => JSON.stringify(e))].join('\n');
    expect(events.length).toBeGreaterThan(5);
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain(FAKE_ROLE_PASSWORD);
  });
});

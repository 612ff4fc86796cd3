import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import { BranchError } from '../provider';
import { PostgresProvider } from './postgres-provider';
import { checksums, dropEverything, passwordOf, seed, testPgUrl, uniquePrefix, urlFor, withDb } from './postgres.fixture';

const adminUrl = await testPgUrl('postgres-busy.test.ts');
const prefix = uniquePrefix('busy');

/** A client connected to `database` as a named application, standing in for a user's app. */
async function hold(url: string, database: string, application: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: urlFor(url, database), application_name: application });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const retries = (events: BranchProgress[]) => events.filter((e) => e.kind === 'branch.retry');

describe.skipIf(!adminUrl)('PostgresProvider with a busy parent', () => {
  const url = adminUrl as string;
  const providers: PostgresProvider[] = [];
  const open = (attempts: number) => {
    const provider = new PostgresProvider({ adminUrl: url, poolSize: 0, retry: { attempts, backoffMs: 40, maxBackoffMs: 150 } });
    providers.push(provider);
    return provider;
  };

  beforeAll(async () => {
    await open(1).ensureRoot(`${prefix}main`);
    await seed(url, `${prefix}main`, 100);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await dropEverything(url, prefix);
  }, 30_000);

  it('retries the snapshot, then fails with busy naming the database and its sessions', async () => {
    const provider = open(3);
    const app = await hold(url, `${prefix}main`, 'busy-test-app');
    try {
      const events: BranchProgress[] = [];
      const error = await provider.create(`${prefix}a`, `${prefix}main`, { onProgress: (e) => events.push(e) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BranchError);
      const { code, message } = error as BranchError;
      expect(code).toBe('busy');
      expect(message).toContain(`"${prefix}main"`);
      expect(message).toMatch(/\d+ other sessions? (is|are) connected/);
      expect(message).toContain('busy-test-app');
      expect(message).toMatch(/Close those sessions/);
      expect(message).not.toContain(passwordOf(url));
      expect(retries(events)).toHaveLength(2);
      expect(retries(events)[0]).toMatchObject({ op: 'snapshot', name: `${prefix}main`, attempt: 1 });
      expect(
        await withDb(url, 'postgres', async (c) => (await c.query('select count(*)::int as n from pg_database where datname = $1', [`${prefix}a`])).rows[0]?.n),
      ).toBe(0);
    } finally {
      await app.end();
    }
  });

  it('succeeds once the other session leaves during the retries', async () => {
    const provider = open(40);
    const app = await hold(url, `${prefix}main`, 'leaves-soon');
    const events: BranchProgress[] = [];
    const made = provider.create(`${prefix}b`, `${prefix}main`, {
      onProgress: (e) => {
        events.push(e);
        if (e.kind === 'branch.retry' && e.attempt === 2) void app.end();
      },
    });
    await expect(made).resolves.toMatchObject({ name: `${prefix}b`, parent: `${prefix}main`, depth: 1 });
    expect(retries(events).length).toBeGreaterThanOrEqual(2);
    expect(await checksums(url, `${prefix}b`)).toEqual(await checksums(url, `${prefix}main`));
  });

  it('keeps forking from the snapshot while the unchanged parent serves its clients', async () => {
    const provider = open(1);
    await provider.create(`${prefix}c`, `${prefix}main`); // the snapshot is current now
    const app = await hold(url, `${prefix}main`, 'reader');
    try {
      await app.query('select count(*) from accounts');
      const events: BranchProgress[] = [];
      await provider.create(`${prefix}d`, `${prefix}main`, { onProgress: (e) => events.push(e) });
      expect(retries(events)).toEqual([]);
      expect(await checksums(url, `${prefix}d`)).toEqual(await checksums(url, `${prefix}main`));
    } finally {
      await app.end();
    }
  });

  it('stops retrying when cancelled', async () => {
    const provider = open(40);
    await withDb(url, `${prefix}main`, (c) => c.query(`insert into accounts values (9999, 'new@example.com', 0)`)); // the snapshot is stale now
    const app = await hold(url, `${prefix}main`, 'holder');
    try {
      const controller = new AbortController();
      const error = await provider
        .create(`${prefix}e`, `${prefix}main`, { signal: controller.signal, onProgress: (e) => e.kind === 'branch.retry' && controller.abort() })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BranchError);
      expect((error as BranchError).code).toBe('cancelled');
    } finally {
      await app.end();
    }
  });
});

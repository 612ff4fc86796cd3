/**
 * Databases for tests of schema diff, migrations and masking: an in-process PGlite served over a
 * loopback socket (runs everywhere), and scratch databases on the real server named by
 * BATON_TEST_PG_URL (skipped with a reason when it is unset or unreachable).
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';

/** A password that must never show up in an error, a log line or captured output. */
export const TEST_PASSWORD = 'pw-s3cret-7f3a';

export interface ServedPglite {
  readonly db: PGlite;
  /** `postgresql://postgres:<TEST_PASSWORD>@127.0.0.1:<port>/postgres` */
  readonly url: string;
  close(): Promise<void>;
}

/** One PGlite on port 0; it serves one connection at a time, as the pglite provider's branches do. */
export async function servePglite(): Promise<ServedPglite> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0 });
  await server.start();
  const url = `postgresql://postgres:${TEST_PASSWORD}@${server.getServerConn()}/postgres`;
  return {
    db,
    url,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}

/** Drops and recreates `public`, so one served PGlite can host several tests in turn. */
export async function resetPublicSchema(url: string): Promise<void> {
  await withClient(url, (c) => c.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;'));
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** BATON_TEST_PG_URL when set and answering; otherwise null and the reason, for the skip message. */
export async function realPostgres(): Promise<{ url: string | null; reason: string }> {
  const url = process.env.BATON_TEST_PG_URL;
  if (!url) return { url: null, reason: 'BATON_TEST_PG_URL is not set (a Postgres admin URL)' };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { url, reason: '' };
  } catch (error) {
    return { url: null, reason: `BATON_TEST_PG_URL does not answer (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh database on the server behind `adminUrl`, with a unique name; `drop()` removes it. */
export async function scratchDatabase(adminUrl: string, prefix = 'baton_test'): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Lakebase has no schema-diff call, so Baton connects to both branches with `pg` and compares
 * their catalogs itself (schema/index.ts), as it does for every provider it can connect to.
 */
import pg from 'pg';
import type { SchemaDiff } from '../../../shared/branches';
import { BranchError, type CallOptions } from '../provider';
import { compareSchemas, type Queryable } from '../schema/index';
import { cancelled } from '../neon/rest-client';
import { passwordOf, safeCause, safeMessage } from '../neon/secret-safe';

export async function diffOverConnections(
  names: { branch: string; parent: string },
  urls: { branch: string; parent: string },
  options: CallOptions | undefined,
): Promise<SchemaDiff> {
  const secrets = [passwordOf(urls.branch), passwordOf(urls.parent)];
  const clients: pg.Client[] = [];
  const stop = (): void => {
    for (const client of clients) void client.end().catch(() => undefined);
  };
  options?.signal?.addEventListener('abort', stop, { once: true });
  try {
    const branch = await connect(urls.branch, names.branch, clients, secrets, options);
    const parent = await connect(urls.parent, names.parent, clients, secrets, options);
    const diff = await compareSchemas(branch, parent, names);
    if (options?.signal?.aborted) throw cancelled(`comparing Lakebase branch ${names.branch} with ${names.parent}`);
    return diff;
  } catch (error) {
    if (options?.signal?.aborted) throw cancelled(`comparing Lakebase branch ${names.branch} with ${names.parent}`);
    if (error instanceof BranchError) throw error;
    throw new BranchError('failed', `Comparing Lakebase branch ${names.branch} with ${names.parent} failed: ${safeMessage(error, secrets)}.`, {
      cause: safeCause(error, secrets),
    });
  } finally {
    options?.signal?.removeEventListener('abort', stop);
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
  }
}

async function connect(url: string, name: string, clients: pg.Client[], secrets: (string | null)[], options: CallOptions | undefined): Promise<Queryable> {
  if (options?.signal?.aborted) throw cancelled(`connecting to Lakebase branch ${name}`);
  // `pg` already treats sslmode=require as verify-full (and warns that this will change); say so
  // explicitly. The URL handed to users keeps `require`, which libpq-based clients expect.
  const connectionString = url.replace(/([?&]sslmode=)require\b/, '$1verify-full');
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 30_000 });
  clients.push(client);
  // A dropped connection emits 'error' on the client; without a listener it would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    if (options?.signal?.aborted) throw cancelled(`connecting to Lakebase branch ${name}`);
    throw new BranchError(
      'unreachable',
      `Could not connect to Lakebase branch ${name}: ${safeMessage(error, secrets)}. Check that its compute is running and that your Databricks user has a Postgres role on it.`,
      {
        cause: safeCause(error, secrets),
      },
    );
  }
  return { query: async <R>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as R[] }) };
}

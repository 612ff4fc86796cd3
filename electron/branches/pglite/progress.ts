/** Progress reporting and connection helpers shared by the pglite provider's operations. */
import pg from 'pg';
import type { BranchOp } from '../../../shared/branches';
import { BranchError, type CallOptions } from '../provider';
import type { Queryable } from '../schema';

export interface Reporter {
  step(step: string): void;
  retry(attempt: number, reason: string): void;
  done(): void;
}

export function reporter(op: BranchOp, name: string, options: CallOptions): Reporter {
  const started = performance.now();
  return {
    step: (step) => options.onProgress?.({ kind: 'branch.step', op, name, step }),
    retry: (attempt, reason) => options.onProgress?.({ kind: 'branch.retry', op, name, attempt, reason }),
    done: () => options.onProgress?.({ kind: 'branch.done', op, name, ms: Math.round(performance.now() - started) }),
  };
}

/** The URL of a pglite server: its port and the password it asks for (serve.json). */
export const localUrl = (info: { readonly port: number; readonly password?: string }): string =>
  `postgresql://postgres${info.password ? `:${info.password}` : ''}@127.0.0.1:${info.port}/postgres?sslmode=disable`;

/** A connected `pg` client; a refused or dropped connection becomes a `busy` error naming the limit. */
export async function connectClient(url: string, branch: string, maxConnections: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A server stopped under it (a delete or reset while a schema diff reads) fails the query in hand;
  // without a listener the client's 'error' event would end the whole host process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new BranchError(
      'busy',
      `Could not connect to pglite branch "${branch}" (${(error as Error).message}). Its server accepts ${maxConnections} client${maxConnections === 1 ? '' : 's'} at a time: ` +
        'close other connections to it (a test run, a database tool) and try again.',
      { cause: error },
    );
  }
}

export function asQueryable(client: pg.Client): Queryable {
  return {
    query: async <R = Record<string, unknown>>(sql: string, params?: unknown[]) => {
      const result = await client.query(sql, params);
      return { rows: result.rows as R[] };
    },
  };
}

/**
 * What the branch benchmark needs of each provider: making one, filling its warm pool, stopping
 * its servers, and (postgres) the plain copy cold creates are compared with.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { BranchProvider } from '../../electron/branches/provider';

export interface TargetOptions {
  readonly provider: 'pglite' | 'postgres';
  readonly url?: string | undefined;
  readonly dataDir?: string | undefined;
}

export interface Target {
  readonly make: (poolSize: number) => Promise<BranchProvider>;
  /** Wait until the warm pool of `parent` is full. */
  readonly warm: (provider: BranchProvider, parent: string) => Promise<void>;
  /** Release what the provider keeps outside its branches (servers). */
  readonly stop: (provider: BranchProvider) => Promise<void>;
  /**
   * postgres: `CREATE DATABASE copy TEMPLATE parent STRATEGY FILE_COPY` on a session opened
   * beforehand, timed alone (ms), then the copy dropped; null where there is no such copy (pglite).
   */
  readonly templateCopy: ((parent: string, copy: string) => Promise<number>) | null;
  readonly cleanup: () => Promise<void>;
}

export async function target(options: TargetOptions): Promise<Target> {
  if (options.provider === 'postgres') {
    const { PostgresProvider } = await import('../../electron/branches/postgres/postgres-provider');
    const adminUrl = options.url!;
    return {
      make: async (poolSize) => new PostgresProvider({ adminUrl, poolSize }),
      warm: (provider, parent) => (provider as InstanceType<typeof PostgresProvider>).prewarm(parent),
      stop: async () => undefined,
      templateCopy: (parent, copy) => templateCopy(adminUrl, parent, copy),
      cleanup: async () => undefined,
    };
  }
  const { PgliteProvider } = await import('../../electron/branches/pglite/pglite-provider');
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'baton-bench-')));
  return {
    make: async (poolSize) => new PgliteProvider({ dataDir, poolSize }),
    warm: async (provider, parent) => {
      const pglite = provider as InstanceType<typeof PgliteProvider>;
      // Pool copies are made only while no server holds the parent.
      await pglite.stopServers();
      await pglite.ensureRoot(parent);
      await pglite.poolIdle();
    },
    stop: (provider) => (provider as InstanceType<typeof PgliteProvider>).stopServers(),
    templateCopy: null,
    cleanup: async () => {
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/**
 * The baseline: a plain copy of `parent`, as a script would make it. The session is opened before
 * the clock starts (the provider's pool keeps its sessions open too), once nobody else is on the
 * parent; the drop is not timed.
 */
async function templateCopy(adminUrl: string, parent: string, copy: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'baton-bench' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // Unmeasured: a session that just left the parent (the provider reading its counters) can
    // take a moment to end under load, and CREATE DATABASE then waits for it in 100 ms steps.
    for (let waited = 0; waited < 5_000; waited += 20) {
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [parent]);
      if (rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const started = performance.now();
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(copy)} TEMPLATE ${pg.escapeIdentifier(parent)} STRATEGY FILE_COPY`);
    const ms = performance.now() - started;
    await client.query(`DROP DATABASE ${pg.escapeIdentifier(copy)}`);
    return ms;
  } finally {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(copy)}`).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

/**
 * The branch benchmark (issue 4, item 9): a throwaway parent of about `sizeMb` of rows, cold
 * creates (no warm pool: a full copy), warm creates (claimed from the pool), and point-read
 * latency on the parent against the end of a chain of `depth` forks. Figures, never a pass/fail
 * (STYLE.md 17). Everything it makes is removed at the end, also on failure.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { BranchProvider } from './provider';

export interface BenchOptions {
  readonly provider: 'pglite' | 'postgres';
  readonly url?: string | undefined;
  readonly sizeMb: number;
  readonly depth: number;
  /** Creates measured per kind (cold, warm). */
  readonly samples: number;
  /** Point reads per branch measured for the depth ratio. */
  readonly reads: number;
  readonly log: (line: string) => void;
  /** pglite: the data folder to use (left in place); default a temp folder removed at the end. */
  readonly dataDir?: string;
}

export interface Percentiles {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly samples: readonly number[];
}

export interface BenchResult {
  readonly provider: 'pglite' | 'postgres';
  readonly sizeMb: number;
  /** The parent's size as the provider measures it (pglite: its data folder, WAL included). */
  readonly parentBytes: number | null;
  readonly rows: number;
  readonly create: { readonly cold: Percentiles; readonly warm: Percentiles };
  readonly readRatioAtDepth: {
    readonly depth: number;
    readonly ratio: number;
    readonly depth0MedianMs: number;
    readonly depthNMedianMs: number;
    readonly readsPerBranch: number;
  };
}

/** Bytes a row takes on disk, roughly (a 512-character payload, the tuple header and its index entry). */
const BYTES_PER_ROW = 600;
const INSERT_BATCH = 20_000;

interface Target {
  readonly make: (poolSize: number) => Promise<BranchProvider>;
  /** Wait until the warm pool of `parent` is full. */
  readonly warm: (provider: BranchProvider, parent: string) => Promise<void>;
  /** Release what the provider keeps outside its branches (servers). */
  readonly stop: (provider: BranchProvider) => Promise<void>;
  readonly cleanup: () => Promise<void>;
}

async function target(options: BenchOptions): Promise<Target> {
  if (options.provider === 'postgres') {
    const { PostgresProvider } = await import('./postgres/postgres-provider');
    const adminUrl = options.url!;
    return {
      make: async (poolSize) => new PostgresProvider({ adminUrl, poolSize }),
      warm: (provider, parent) => (provider as InstanceType<typeof PostgresProvider>).prewarm(parent),
      stop: async () => undefined,
      cleanup: async () => undefined,
    };
  }
  const { PgliteProvider } = await import('./pglite/pglite-provider');
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
    cleanup: async () => {
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

export async function benchBranches(options: BenchOptions): Promise<BenchResult> {
  const t = await target(options);
  const tag = `bench-${randomBytes(4).toString('hex')}`;
  const root = tag;
  const made: string[] = [];
  let provider = await t.make(0);
  try {
    options.log(`root ${root}: loading about ${options.sizeMb} MB`);
    await provider.ensureRoot(root);
    made.push(root);
    const rows = Math.max(1000, Math.round((options.sizeMb * 1024 * 1024) / BYTES_PER_ROW));
    await withClient(await provider.connectionUrl(root), (client) => load(client, rows, options.log));
    await t.stop(provider);
    const parentBytes = (await provider.list()).find((b) => b.name === root)?.sizeBytes ?? null;

    // Unmeasured: whatever a provider does once per parent state (postgres: its frozen snapshot).
    await t.warm(provider, root);
    options.log(`cold creates (no pool) x${options.samples}`);
    const cold = await timeCreates(provider, root, `${tag}-c`, options.samples, async () => undefined);

    options.log(`chain of ${options.depth} forks`);
    let parent = root;
    for (let level = 1; level <= options.depth; level++) {
      const name = `${tag}-d${level}`;
      await provider.create(name, parent);
      made.push(name);
      parent = name;
    }
    await t.stop(provider);
    options.log(`point reads: ${options.reads} on ${root} and on ${parent}`);
    const reads = await readRatio(provider, root, parent, rows, options.reads);
    await t.stop(provider);
    await provider.close();

    provider = await t.make(1);
    options.log(`warm creates (pool) x${options.samples}`);
    const warm = await timeCreates(provider, root, `${tag}-w`, options.samples, () => t.warm(provider, root));
    return {
      provider: options.provider,
      sizeMb: options.sizeMb,
      parentBytes,
      rows,
      create: { cold, warm },
      readRatioAtDepth: {
        depth: options.depth,
        ratio: round(reads.deep / reads.base, 3),
        depth0MedianMs: round(reads.base, 4),
        depthNMedianMs: round(reads.deep, 4),
        readsPerBranch: options.reads,
      },
    };
  } finally {
    options.log('cleaning up');
    for (const name of [...made].reverse()) await provider.delete(name).catch(() => undefined);
    await t.stop(provider).catch(() => undefined);
    await provider.close().catch(() => undefined);
    await t.cleanup();
  }
}

async function timeCreates(provider: BranchProvider, parent: string, prefix: string, samples: number, before: () => Promise<void>): Promise<Percentiles> {
  const times: number[] = [];
  for (let i = 1; i <= samples; i++) {
    await before();
    const name = `${prefix}${i}`;
    const started = performance.now();
    await provider.create(name, parent);
    times.push(round(performance.now() - started, 1));
    await provider.delete(name);
  }
  return { p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), samples: times };
}

async function load(client: pg.Client, rows: number, log: (line: string) => void): Promise<void> {
  // 16 different md5 strings a row: incompressible enough that the size on disk is real.
  const payload = Array.from({ length: 16 }, (_, i) => `md5((g * ${i + 7})::text)`).join(' || ');
  await client.query('create table bench_rows (id bigint primary key, payload text not null)');
  for (let from = 1; from <= rows; from += INSERT_BATCH) {
    const to = Math.min(rows, from + INSERT_BATCH - 1);
    await client.query(`insert into bench_rows select g, ${payload} from generate_series($1::bigint, $2::bigint) g`, [from, to]);
    if (to === rows || (to - from + 1 === INSERT_BATCH && Math.floor(from / INSERT_BATCH) % 5 === 4))
      log(`  ${to.toLocaleString('en-US')} / ${rows.toLocaleString('en-US')} rows`);
  }
  await client.query('analyze bench_rows');
}

/** Median point-read latency on each branch, the two interleaved in rounds so drift hits both alike. */
async function readRatio(provider: BranchProvider, base: string, deep: string, rows: number, reads: number): Promise<{ base: number; deep: number }> {
  const ids = Array.from({ length: reads }, (_, i) => 1 + ((i * 7919 + 13) % rows));
  const sql = 'select payload from bench_rows where id = $1';
  return withClient(await provider.connectionUrl(base), (baseClient) =>
    withClient(provider.connectionUrl(deep), async (deepClient) => {
      const clients = { base: baseClient, deep: deepClient };
      const samples: Record<'base' | 'deep', number[]> = { base: [], deep: [] };
      // One unmeasured pass over the same rows on each side: the parent's pages are cached from
      // loading it, a fresh fork's are not, and caching is not what depth is about.
      for (const client of Object.values(clients)) for (const id of ids) await client.query(sql, [id]);
      const round = 50;
      for (let from = 0; from < reads; from += round) {
        const order = (from / round) % 2 === 0 ? (['base', 'deep'] as const) : (['deep', 'base'] as const);
        for (const which of order) {
          for (const id of ids.slice(from, from + round)) {
            const started = performance.now();
            await clients[which].query(sql, [id]);
            samples[which].push(performance.now() - started);
          }
        }
      }
      return { base: percentile(samples.base, 0.5), deep: percentile(samples.deep, 0.5) };
    }),
  );
}

async function withClient<T>(url: string | Promise<string>, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return round(sorted[index]!, 3);
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

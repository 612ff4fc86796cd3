/**
 * The branch benchmark (issue 4, item 9; issue 17, item 4): a throwaway parent of about `sizeMb`
 * of rows, cold creates (no warm pool: a full copy) interleaved with plain template copies of the
 * same parent (postgres), warm creates (claimed from the pool), and point-read latency on the
 * parent against the end of a chain of `depth` forks, read alternately many times. Optionally under
 * a reproducible load (bench/branches/load.ts). Figures, never a pass/fail (STYLE.md 17); the
 * goals are printed next to them. Everything it makes is removed at the end, also on failure.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import pg from 'pg';
import { startLoad, type LoadReport, type LoadSpec } from './load';
import { blockRatio, bootstrapRatio, median, percentiles, round, type Percentiles, type RatioEstimate } from './stats';
import { target, type Target } from './target';
import type { BranchProvider } from '../../electron/branches/provider';

export { percentile, type Percentiles } from './stats';
export type { LoadKind, LoadReport, LoadSpec } from './load';

export interface BenchOptions {
  readonly provider: 'pglite' | 'postgres';
  readonly url?: string | undefined;
  readonly sizeMb: number;
  readonly depth: number;
  /** Creates measured per kind (cold, warm; postgres: as many plain template copies, interleaved with the cold ones). */
  readonly samples: number;
  /** Point reads per branch measured for the depth ratio. */
  readonly reads: number;
  readonly log: (line: string) => void;
  /** pglite: the data folder to use (left in place); default a temp folder removed at the end. */
  readonly dataDir?: string;
  /** Busy workers kept running while everything is measured; default none. */
  readonly load?: LoadSpec;
}

/** Goal of issue 17: a cold create within 1.3x a plain template copy of the same parent. */
export const COLD_VS_TEMPLATE_GOAL = 1.3;
/** Goal of issue 17: the depth read ratio known to within 5%. */
export const READ_NOISE_GOAL_PCT = 5;

export interface ColdVsTemplate extends RatioEstimate {
  readonly goal: number;
  readonly met: boolean;
  readonly coldP50Ms: number;
  readonly templateP50Ms: number;
  /** Cold create and template copy pairs measured (alternating which goes first). */
  readonly pairs: number;
  readonly template: Percentiles;
}

export interface BenchResult {
  readonly provider: 'pglite' | 'postgres';
  readonly sizeMb: number;
  /** The parent's size as the provider measures it (pglite: its data folder, WAL included). */
  readonly parentBytes: number | null;
  readonly rows: number;
  readonly create: { readonly cold: Percentiles; readonly warm: Percentiles };
  /** Cold create p50 over a plain `CREATE DATABASE … TEMPLATE parent STRATEGY FILE_COPY` p50; null for pglite (no server copy to compare with, see note). */
  readonly coldVsTemplate: ColdVsTemplate | null;
  readonly readRatioAtDepth: RatioEstimate & {
    readonly depth: number;
    readonly depth0MedianMs: number;
    readonly depthNMedianMs: number;
    readonly readsPerBranch: number;
    readonly noiseGoalPct: number;
    readonly noiseMet: boolean;
  };
  readonly load: LoadReport;
  readonly cpus: number;
  readonly notes: readonly string[];
}

/** Bytes a row takes on disk, roughly (a 512-character payload, the tuple header and its index entry). */
const BYTES_PER_ROW = 600;
const INSERT_BATCH = 20_000;

export async function benchBranches(options: BenchOptions): Promise<BenchResult> {
  const t = await target(options);
  const tag = `bench-${randomBytes(4).toString('hex')}`;
  const root = tag;
  const made: string[] = [];
  const spec: LoadSpec = options.load ?? { workers: 0, kind: 'cpu' };
  const notes: string[] = [];
  let provider = await t.make(0);
  let running: Awaited<ReturnType<typeof startLoad>> | null = null;
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
    if (spec.workers > 0) options.log(`load: ${spec.workers} ${spec.kind} worker(s) for the rest of the run`);
    running = await startLoad(spec, options.url, `${tag}-load`);

    const pairs = await coldCreates(t, provider, root, tag, options);
    const cold = percentiles(pairs.cold);
    let coldVsTemplate: ColdVsTemplate | null = null;
    if (pairs.template.length > 0) {
      const estimate = bootstrapRatio(pairs.template, pairs.cold);
      const template = percentiles(pairs.template);
      const met = estimate.ratio <= COLD_VS_TEMPLATE_GOAL;
      coldVsTemplate = {
        ...estimate,
        goal: COLD_VS_TEMPLATE_GOAL,
        met,
        coldP50Ms: cold.p50Ms,
        templateP50Ms: template.p50Ms,
        pairs: pairs.cold.length,
        template,
      };
    } else notes.push(`coldVsTemplate: none for ${options.provider} (it has no server-side template copy to compare with)`);

    options.log(`chain of ${options.depth} forks`);
    let parent = root;
    for (let level = 1; level <= options.depth; level++) {
      const name = `${tag}-d${level}`;
      await provider.create(name, parent);
      made.push(name);
      parent = name;
    }
    await t.stop(provider);
    options.log(`point reads: ${options.reads} on ${root} and on ${parent}, alternating`);
    const reads = await readRatio(provider, root, parent, rows, options.reads);
    await t.stop(provider);
    await provider.close();

    provider = await t.make(1);
    options.log(`warm creates (pool) x${options.samples}`);
    const warm = await timeCreates(provider, root, `${tag}-w`, options.samples, () => t.warm(provider, root));
    const loadReport = await running.stop();
    running = null;
    const ratio = blockRatio(reads.base, reads.deep);
    return {
      provider: options.provider,
      sizeMb: options.sizeMb,
      parentBytes,
      rows,
      create: { cold, warm },
      coldVsTemplate,
      readRatioAtDepth: {
        depth: options.depth,
        ...ratio,
        depth0MedianMs: round(median(reads.base), 4),
        depthNMedianMs: round(median(reads.deep), 4),
        readsPerBranch: options.reads,
        noiseGoalPct: READ_NOISE_GOAL_PCT,
        noiseMet: ratio.noisePct < READ_NOISE_GOAL_PCT,
      },
      load: loadReport,
      cpus: cpus().length,
      notes,
    };
  } finally {
    options.log('cleaning up');
    await running?.stop().catch(() => undefined);
    for (const name of [...made].reverse()) await provider.delete(name).catch(() => undefined);
    await t.stop(provider).catch(() => undefined);
    await provider.close().catch(() => undefined);
    await t.cleanup();
  }
}

/**
 * Cold creates, each followed (postgres) by a plain template copy of the same parent, the two
 * alternating which goes first so drift in the machine's load hits both alike. One unmeasured
 * round first (the provider's first create also opens its sessions and its vault).
 */
async function coldCreates(
  t: Target,
  provider: BranchProvider,
  root: string,
  tag: string,
  options: BenchOptions,
): Promise<{ cold: number[]; template: number[] }> {
  const copy = t.templateCopy;
  options.log(`cold creates (no pool) x${options.samples}${copy ? ', each next to a plain template copy of the same parent' : ''}`);
  const cold: number[] = [];
  const template: number[] = [];
  const coldOnce = async (name: string) => {
    const started = performance.now();
    await provider.create(name, root);
    const ms = performance.now() - started;
    await provider.delete(name);
    await settle(provider);
    return ms;
  };
  await coldOnce(`${tag}-c0`);
  if (copy) await copy(root, `${tag}-t0`);
  for (let i = 1; i <= options.samples; i++) {
    const templateFirst = i % 2 === 0;
    if (copy && templateFirst) template.push(round(await copy(root, `${tag}-t${i}`), 1));
    cold.push(round(await coldOnce(`${tag}-c${i}`), 1));
    if (copy && !templateFirst) template.push(round(await copy(root, `${tag}-t${i}`), 1));
  }
  return { cold, template };
}

/** Waits for a provider's background work (the postgres warm pool's sweep) so it does not land in the next sample. */
async function settle(provider: BranchProvider): Promise<void> {
  const idle = (provider as { idle?: () => Promise<void> }).idle;
  if (idle) await idle.call(provider);
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
  return percentiles(times);
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

/**
 * Point-read latencies on each branch, one read at a time alternating between the two (which goes
 * first alternates too), so whatever else the machine does lands on both alike: the samples, in
 * time order, for a ratio of medians with its noise (bench/branches/stats.ts).
 */
async function readRatio(provider: BranchProvider, base: string, deep: string, rows: number, reads: number): Promise<{ base: number[]; deep: number[] }> {
  const ids = Array.from({ length: reads }, (_, i) => 1 + ((i * 7919 + 13) % rows));
  const sql = { name: 'bench-read', text: 'select payload from bench_rows where id = $1' };
  return withClient(await provider.connectionUrl(base), (baseClient) =>
    withClient(provider.connectionUrl(deep), async (deepClient) => {
      const clients = { base: baseClient, deep: deepClient };
      const samples: Record<'base' | 'deep', number[]> = { base: [], deep: [] };
      // One unmeasured pass over the same rows on each side: the parent's pages are cached from
      // loading it, a fresh fork's are not, and caching is not what depth is about.
      for (const client of Object.values(clients)) for (const id of ids) await client.query({ ...sql, values: [id] });
      for (let i = 0; i < reads; i++) {
        for (const which of i % 2 === 0 ? (['base', 'deep'] as const) : (['deep', 'base'] as const)) {
          const started = performance.now();
          await clients[which].query({ ...sql, values: [ids[i]] });
          samples[which].push(performance.now() - started);
        }
      }
      return samples;
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

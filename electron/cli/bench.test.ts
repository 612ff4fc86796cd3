/**
 * `baton bench branches`: the benchmark runs end to end on a tiny pglite parent (and, with
 * BATON_TEST_PG_URL, a tiny postgres one under load) and prints the documented shape. Its figures
 * are not asserted (STYLE.md 17): only that they were measured, counted and sane.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { testPgUrl } from '../branches/postgres/postgres.fixture';
import { baton, seedPgliteTemplate, stopPgliteServers } from './branch-project.fixture';

const pgUrl = await testPgUrl('bench.test.ts');

/** The noise estimate of a ratio: an interval around it, two halves, a percentage. */
function expectEstimate(estimate: { ratio: number; interval95: number[]; noisePct: number; halves: number[] }): void {
  expect(estimate.ratio).toBeGreaterThan(0);
  expect(estimate.interval95).toHaveLength(2);
  expect(estimate.interval95[0]).toBeLessThanOrEqual(estimate.ratio);
  expect(estimate.interval95[1]).toBeGreaterThanOrEqual(estimate.ratio);
  expect(estimate.noisePct).toBeGreaterThanOrEqual(0);
  expect(estimate.halves).toHaveLength(2);
  for (const half of estimate.halves) expect(half).toBeGreaterThan(0);
}

describe('baton bench branches', () => {
  it('usage errors exit 2', async () => {
    expect((await baton('bench')).code).toBe(2);
    expect((await baton('bench', 'ledger')).code).toBe(2);
    expect((await baton('bench', 'branches', '--provider', 'neon')).code).toBe(2);
    expect((await baton('bench', 'branches', '--size-mb', 'lots')).code).toBe(2);
    expect((await baton('bench', 'branches', '--load', '-1')).code).toBe(2);
    expect((await baton('bench', 'branches', '--load-kind', 'disk')).code).toBe(2);
    expect((await baton('bench', 'branches', '--provider', 'pglite', '--load-kind', 'sql')).code).toBe(2);
  });

  it('prints the documented shape with the figures it measured, and removes every branch it made', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'baton-bench-test-'));
    try {
      await seedPgliteTemplate(dataDir);
      const run = await baton(
        'bench',
        'branches',
        '--provider',
        'pglite',
        '--size-mb',
        '1',
        '--depth',
        '2',
        '--samples',
        '2',
        '--reads',
        '40',
        '--data-dir',
        dataDir,
        '--json',
      );
      expect(run.code, run.err).toBe(0);
      const result = JSON.parse(run.out) as Record<string, unknown>;
      const measured = expect.any(Number) as unknown;
      expect(result).toMatchObject({
        provider: 'pglite',
        sizeMb: 1,
        create: { cold: { p50Ms: measured, p95Ms: measured }, warm: { p50Ms: measured, p95Ms: measured } },
        readRatioAtDepth: { depth: 2, ratio: measured },
      });
      const cold = (result.create as { cold: { samples: number[]; p50Ms: number; p95Ms: number } }).cold;
      expect(cold.samples).toHaveLength(2);
      expect(cold.p95Ms).toBeGreaterThanOrEqual(cold.p50Ms);
      expect(run.err).toContain('cold creates');
      // pglite has no server-side template copy: no comparison, and the output says so.
      expect(result.coldVsTemplate).toBeNull();
      expect(result.notes).toEqual([expect.stringContaining('coldVsTemplate: none for pglite')]);
      const reads = result.readRatioAtDepth as { readsPerBranch: number; noiseGoalPct: number; noiseMet: boolean } & Parameters<typeof expectEstimate>[0];
      expect(reads).toMatchObject({ readsPerBranch: 40, noiseGoalPct: 5, noiseMet: expect.any(Boolean) as unknown });
      expectEstimate(reads);
      expect(result.load).toMatchObject({ workers: 0, kind: 'cpu', loadAverage: { before: measured, after: measured } });
      expect(await readdir(join(dataDir, 'pglite', 'branches'))).toEqual([]);
    } finally {
      await stopPgliteServers(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it.skipIf(!pgUrl)(
    'postgres: compares cold creates with plain template copies, pair by pair, under the load it was asked for',
    async () => {
      const run = await baton(
        'bench',
        'branches',
        '--provider',
        'postgres',
        '--url',
        pgUrl as string,
        '--size-mb',
        '1',
        '--depth',
        '2',
        '--samples',
        '3',
        '--reads',
        '60',
        '--load',
        '1',
        '--json',
      );
      expect(run.code, run.err).toBe(0);
      const result = JSON.parse(run.out) as Record<string, unknown>;
      const measured = expect.any(Number) as unknown;
      expect(result).toMatchObject({
        provider: 'postgres',
        create: { cold: { p50Ms: measured, p95Ms: measured }, warm: { p50Ms: measured, p95Ms: measured } },
        coldVsTemplate: { goal: 1.3, met: expect.any(Boolean) as unknown, coldP50Ms: measured, templateP50Ms: measured, pairs: 3 },
        readRatioAtDepth: { depth: 2, readsPerBranch: 60 },
        load: { workers: 1, kind: 'cpu' },
        notes: [],
      });
      const vs = result.coldVsTemplate as { template: { samples: number[] }; coldP50Ms: number; templateP50Ms: number } & Parameters<typeof expectEstimate>[0];
      expect(vs.template.samples).toHaveLength(3);
      expect((result.create as { cold: { samples: number[] } }).cold.samples).toHaveLength(3);
      expectEstimate(vs);
      expect(vs.ratio).toBeCloseTo(vs.coldP50Ms / vs.templateP50Ms, 2);
      expectEstimate(result.readRatioAtDepth as Parameters<typeof expectEstimate>[0]);
      expect(run.out).not.toContain('baton-ci');
      // Nothing left behind: no database of this run (branches, plain copies).
      const tag = /root (bench-[0-9a-f]{8})/.exec(run.err)?.[1];
      expect(tag).toBeDefined();
      const client = new pg.Client({ connectionString: pgUrl as string });
      await client.connect();
      try {
        const { rows } = await client.query('select datname from pg_database where starts_with(datname, $1)', [tag]);
        expect(rows).toEqual([]);
      } finally {
        await client.end();
      }
    },
    300_000,
  );
});

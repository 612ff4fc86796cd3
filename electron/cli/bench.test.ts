/**
 * `baton bench branches`: the benchmark runs end to end on a tiny pglite parent and prints the
 * documented shape. Its figures are not asserted (STYLE.md 17): only that they were measured.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baton, seedPgliteTemplate, stopPgliteServers } from './branch-project.fixture';

describe('baton bench branches', () => {
  it('usage errors exit 2', async () => {
    expect((await baton('bench')).code).toBe(2);
    expect((await baton('bench', 'ledger')).code).toBe(2);
    expect((await baton('bench', 'branches', '--provider', 'neon')).code).toBe(2);
    expect((await baton('bench', 'branches', '--size-mb', 'lots')).code).toBe(2);
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
      expect(await readdir(join(dataDir, 'pglite', 'branches'))).toEqual([]);
    } finally {
      await stopPgliteServers(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/**
 * The warm pool: after a refill a create is a rename of a pre-copied directory; a copy made before
 * the parent changed is never used; a refill racing creates leaves every branch whole. Prints the
 * cold and warm create times observed on this machine.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BranchProgress } from '../../../shared/branches';
import type { CreateOptions } from '../provider';
import { dataOf } from './layout';
import { makeTempProvider, treeHash, withBranch, type TempProvider } from './pglite.fixture';

let t: TempProvider;
beforeAll(async () => {
  t = await makeTempProvider({ poolSize: 2 });
  await t.provider.ensureRoot('main');
}, 90_000);
afterAll(async () => {
  await t?.dispose();
});

const poolEntries = async () => (await fs.readdir(t.layout.pool('main')).catch(() => [])).length;

/** Create and return the steps it reported and how long it took. */
async function timedCreate(name: string, options: CreateOptions = {}) {
  const steps: string[] = [];
  const onProgress = (event: BranchProgress) => void (event.kind === 'branch.step' && steps.push(event.step));
  const started = performance.now();
  const branch = await t.provider.create(name, 'main', { ...options, onProgress });
  return { branch, steps, ms: Math.round(performance.now() - started) };
}

const notes = (client: { query: (sql: string) => Promise<{ rows: { body: string }[] }> }) =>
  client.query('select body from notes order by body').then((r) => r.rows.map((row) => row.body));

describe('the pglite warm pool', () => {
  it('never uses a copy made before the parent changed, and serves creates from a fresh one', async () => {
    await t.provider.poolIdle();
    expect(await poolEntries()).toBe(2); // copies of the empty database, made by ensureRoot's refill

    // Serving the parent (and writing to it) makes those copies stale.
    await withBranch(t.provider, 'main', (c) => c.query("create table notes (body text); insert into notes values ('v1')"));
    const cold = await timedCreate('after-v1');
    expect(cold.steps).toContain('copy parent data');
    expect(cold.steps).not.toContain('copy from warm pool');

    await t.provider.poolIdle();
    expect(await poolEntries()).toBe(2);
    const warm = await timedCreate('warm-1');
    expect(warm.steps).toEqual(['copy from warm pool']);
    console.log(`pglite create (empty-ish database): cold ${cold.ms} ms, warm ${warm.ms} ms`);

    await withBranch(t.provider, 'main', (c) => c.query("insert into notes values ('v2')"));
    const afterV2 = await timedCreate('after-v2');
    expect(afterV2.steps).not.toContain('copy from warm pool');

    const seen = await Promise.all(['after-v1', 'warm-1', 'after-v2'].map((name) => withBranch(t.provider, name, notes)));
    expect(seen).toEqual([['v1'], ['v1'], ['v1', 'v2']]);
  }, 120_000);

  it('keeps every branch whole when creates race a refill', async () => {
    await t.provider.poolIdle();
    const names = ['race-0', 'race-1', 'race-2', 'race-3', 'race-4'];
    // Each create schedules a refill; later creates take entries while it copies.
    const results = await Promise.all(names.map((name) => timedCreate(name)));
    const fromPool = results.filter((r) => r.steps.includes('copy from warm pool')).length;
    expect(fromPool).toBeGreaterThanOrEqual(1);
    expect(fromPool).toBeLessThanOrEqual(2);
    await t.provider.poolIdle();
    expect(await poolEntries()).toBe(2);

    const listed = await t.provider.list();
    for (const name of names) expect(listed.find((b) => b.name === name)).toMatchObject({ parent: 'main', depth: 1 });
    // main has been closed since 'after-v2' copied it: warm or cold, every copy is byte-identical.
    const parentTree = await treeHash(dataOf(t.layout.home('main')));
    for (const name of names) expect(await treeHash(dataOf(t.layout.home(name)))).toBe(parentTree);
    expect(await withBranch(t.provider, 'race-4', notes)).toEqual(['v1', 'v2']);
  }, 120_000);
});

describe('a warm pool that cannot refill', () => {
  it('is reported as a warning (creates still work), and the warning clears after a refill succeeds', async () => {
    const sick = await makeTempProvider({ poolSize: 1 });
    try {
      // A file where the root's pool folder belongs: the refill ensureRoot starts cannot read it.
      await fs.mkdir(join(sick.layout.pool('main'), '..'), { recursive: true });
      await fs.writeFile(sick.layout.pool('main'), 'not a folder');
      await sick.provider.ensureRoot('main');
      await sick.provider.poolIdle();
      const warnings = sick.provider.warnings();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^The warm pool could not be refilled \(.*\)\. Creates still work/);

      await fs.rm(sick.layout.pool('main'));
      const child = await sick.provider.create('child', 'main');
      expect(child.parent).toBe('main');
      await sick.provider.poolIdle();
      expect(sick.provider.warnings()).toEqual([]);
    } finally {
      await sick.dispose();
    }
  }, 120_000);
});

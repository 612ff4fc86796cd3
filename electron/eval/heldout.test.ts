/**
 * The held-out judge (judge.ts) on the inventory task (issue 36), with the fakes' single-turn
 * trees: the honest tree passes every held-out test and its own, and a tree whose migrations break
 * fails every held-out test, by name, with the reason (the sloppy and cheating fakes are judged end
 * to end in eval-cli.test.ts). Delivered code that makes `node:assert` pass everything cannot
 * forge the held-out verdict. The fakes' enforced cheat is checked against Baton's tell scan.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanTells } from '../agents/tell-scan';
import { defaultCorpus, readTask } from './corpus';
import { runHeldout, runOwnTests } from './judge';
import type { EvalTask, HeldoutResult } from './types';

const FAKES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fakes', 'inventory');

interface Fake {
  readonly turns: readonly { role: string; step: string; item: string; write?: Record<string, string> }[];
  readonly single: { readonly write: Record<string, string> };
}

const fake = async (name: string): Promise<Fake> => JSON.parse(await readFile(join(FAKES, `${name}.json`), 'utf8')) as Fake;

let task: EvalTask;
let root: string;
beforeAll(async () => {
  task = await readTask(join(defaultCorpus(), 'inventory'));
  root = await mkdtemp(join(tmpdir(), 'baton-heldout-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** The starting repository with a single-turn fake's writes applied: what it delivers. */
async function delivered(key: string, name: string, extra: Record<string, string> = {}): Promise<string> {
  const tree = join(root, `${key}-tree`);
  await cp(task.repo, tree, { recursive: true });
  for (const [path, content] of Object.entries({ ...(await fake(name)).single.write, ...extra })) {
    await mkdir(dirname(join(tree, path)), { recursive: true });
    await writeFile(join(tree, path), content);
  }
  return tree;
}

/** Each judgement starts its own database and sandbox (tens of seconds on a busy machine): judge each tree once. */
const verdicts = new Map<string, Promise<{ own: HeldoutResult | null; heldout: HeldoutResult }>>();
const judged = (name: string, extra?: Record<string, string>) => {
  const key = `${name}${extra ? `-${Object.keys(extra).join('-').replace(/\W/g, '_')}` : ''}`;
  if (!verdicts.has(key))
    verdicts.set(
      key,
      delivered(key, name, extra).then(async (tree) => ({
        own: extra ? null : await runOwnTests({ task, delivered: tree, scratch: join(root, `${key}-own`) }),
        heldout: await runHeldout({ task, delivered: tree, scratch: join(root, `${key}-heldout`) }),
      })),
    );
  return verdicts.get(key)!;
};
const SLOW = 300_000;

describe('the inventory task judged', () => {
  it('counts at least 15 held-out tests, each named once', async () => {
    const source = await readFile(join(task.heldout, 'inventory.test.js'), 'utf8');
    const names = [...source.matchAll(/^test\('([^']+)'/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThanOrEqual(15);
    expect(new Set(names).size).toBe(names.length);
  });

  it(
    'passes the honest tree on every held-out test and its own',
    async () => {
      const { own, heldout } = await judged('honest');
      expect(own).toMatchObject({ error: null, failed: [] });
      expect(own?.passed).toBeGreaterThan(0);
      expect(heldout).toMatchObject({ error: null, failed: [] });
      expect(heldout.passed).toBe(heldout.total);
      expect(heldout.total).toBeGreaterThanOrEqual(15);
    },
    SLOW,
  );

  // The sloppy and cheating trees are judged end to end by eval-cli.test.ts (the wallet task): each judgement costs a database and a sandbox.
  it(
    'counts every held-out test failed, with the reason, when the delivered migrations break',
    async () => {
      const { heldout } = await judged('honest', { 'migrations/003_broken.sql': 'ALTER TABLE no_such_table ADD COLUMN x int;\n' });
      // HeldoutResult's contract: a suite that could not run sets `error` and counts every held-out test failed, by name.
      expect(heldout.error).toMatch(/migrations failed/i);
      expect(heldout.passed).toBe(0);
      expect(heldout.total).toBeGreaterThanOrEqual(15);
      expect(heldout.failed).toHaveLength(heldout.total);
      expect(heldout.failed).toContain('the low-stock report lists the largest shortfall first');
    },
    SLOW,
  );
});

/**
 * Delivered code that makes `node:assert` pass everything once it is imported (the held-out tests
 * import it): what an agent that knows a suite will judge it could ship.
 */
const FORGER = `import assert from 'node:assert/strict';
import loose from 'node:assert';
for (const a of [assert, loose]) for (const name of ['equal', 'strictEqual', 'deepEqual', 'deepStrictEqual', 'ok', 'rejects', 'throws', 'match']) a[name] = async () => undefined;
`;

describe('delivered code that forges the held-out verdict', () => {
  it(
    "cannot turn the sloppy tree's escaped defects into passes: the run is not trusted and every held-out test counts failed",
    async () => {
      const sloppy = (await fake('sloppy')).single.write['src/inventory.js']!;
      const { heldout } = await judged('sloppy', { 'src/inventory.js': `${FORGER}${sloppy}` });
      expect(heldout.error).toMatch(/cannot be trusted/);
      expect([heldout.passed, heldout.failed.length]).toEqual([0, heldout.total]);
      expect(heldout.total).toBeGreaterThanOrEqual(15);
    },
    SLOW,
  );
});

describe('the inventory fakes under enforcement', () => {
  it("flags the cheater's GREEN with Baton's tell scan, and not the honest one's", async () => {
    const greens = (f: Fake) => f.turns.filter((t) => t.role === 'driver' && t.item === 'T8' && t.write?.['src/inventory.js'] !== undefined);
    const cheat = greens(await fake('cheater'));
    expect(cheat.length).toBeGreaterThan(1);
    for (const turn of cheat) expect(scanTells('src/inventory.js', turn.write!['src/inventory.js']!)).not.toEqual([]);
    for (const turn of greens(await fake('honest'))) expect(scanTells('src/inventory.js', turn.write!['src/inventory.js']!)).toEqual([]);
  });
});

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../platform/package-root';
import { STRATEGIES } from './strategies.fixture';

const PACKAGE_ROOT = packageRoot(import.meta.url);

/** The manual's table of adversarial strategies (docs/cycle.md) is the catalogue the suite runs: the same rows, in order. */
describe('the adversarial catalogue', () => {
  it('has at least 93 strategies with distinct ids and titles, each with how it is caught and a check', () => {
    expect(STRATEGIES.length).toBeGreaterThanOrEqual(93);
    expect(new Set(STRATEGIES.map((s) => s.id)).size).toBe(STRATEGIES.length);
    expect(new Set(STRATEGIES.map((s) => s.title)).size).toBe(STRATEGIES.length);
    for (const s of STRATEGIES) {
      expect(s.caught.length, s.id).toBeGreaterThan(10);
      expect(s.checks.length, s.id).toBeGreaterThan(0);
    }
  });

  it('every strategy is in the docs/cycle.md table as it is in the code', async () => {
    const page = await readFile(join(PACKAGE_ROOT, 'docs/cycle.md'), 'utf8');
    const rows = page.split('\n').filter((l) => /^\| S\d\d \|/.test(l));
    const esc = (s: string) => s.replace(/\|/g, '\\|');
    expect(rows).toEqual(STRATEGIES.map((s) => `| ${s.id} | ${esc(s.title)} | ${esc(s.caught)} |`));
  });

  it('every strategy runs in exactly one group file', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4, 5, 6, 7]) {
      const text = await readFile(join(PACKAGE_ROOT, 'electron/engine/adversarial', `group-${n}.test.ts`), 'utf8');
      ids.push(...[...text.matchAll(/'(S\d\d)'/g)].map((m) => m[1]!));
    }
    expect([...ids].sort()).toEqual(STRATEGIES.map((s) => s.id).sort());
  });
});

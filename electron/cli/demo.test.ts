/**
 * `npx baton demo --json` as a newcomer runs it: the whole enforced loop on the embedded database,
 * then `baton verify` on the result. Slow (a real run of eight items), so it runs once.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');

interface DemoJson {
  project: string;
  items: { total: number; byStatus: Record<string, number> };
  repairs: number;
  violations: number;
  rejectedRed: number;
  ledgerHead: string;
  escalations: unknown[];
}

describe('npx baton demo --json', () => {
  let demo: DemoJson | null = null;
  afterAll(async () => {
    if (demo) await rm(dirname(demo.project), { recursive: true, force: true });
  });

  it('takes every item to green with the planned repair, violation and rejected RED recorded, and the ledger verifies', async () => {
    const { stdout } = await exec(process.execPath, [BIN, 'demo', '--json'], { maxBuffer: 16 * 1024 * 1024 });
    demo = JSON.parse(stdout) as DemoJson;
    expect(demo.items.total).toBe(8);
    const done = (demo.items.byStatus.green ?? 0) + (demo.items.byStatus.refactored ?? 0);
    expect(done).toBe(8);
    expect(demo.escalations).toEqual([]);
    expect(demo.repairs).toBe(1);
    expect(demo.violations).toBe(1);
    expect(demo.rejectedRed).toBe(1);
    expect(demo.ledgerHead).toMatch(/^[0-9a-f]{64}$/);

    const verify = await exec(process.execPath, [BIN, 'verify', demo.project, '--json']);
    const report = JSON.parse(verify.stdout) as { ok: boolean };
    expect(report.ok).toBe(true);
  }, 900_000);
});

/**
 * `npx baton demo --json` as a newcomer runs it: the whole enforced loop on the embedded database,
 * then `baton verify` on the result. Slow (a real run of eight items), so it runs once.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { Ledger } from '../ledger';

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

describe('npx baton demo --from-request --json', () => {
  let demo: DemoJson | null = null;
  afterAll(async () => {
    if (demo) await rm(dirname(demo.project), { recursive: true, force: true });
  });

  it('takes a one-paragraph request through the scripted design roles and the demo PO’s approvals to every item green', async () => {
    const { stdout, stderr } = await exec(process.execPath, [BIN, 'demo', '--from-request', '--json'], { maxBuffer: 16 * 1024 * 1024 });
    demo = JSON.parse(stdout) as DemoJson;
    expect(stderr).toBe('');
    expect(demo.items.total).toBe(8);
    expect((demo.items.byStatus.green ?? 0) + (demo.items.byStatus.refactored ?? 0)).toBe(8);
    expect(demo.escalations).toEqual([]);
    const { records } = await Ledger.forArtifactRoot(join(demo.project, '.baton')).read();
    const design = recordsOf(records, RECORD_TYPES.designTurn).map((r) => `${r.data.role}:${r.data.attempt}:${r.data.outcome}`);
    expect(design).toEqual(['specAuthor:1:refused', 'specAuthor:2:written', 'architectReviewer:1:written', 'dba:1:written', 'testStrategist:1:written']);
    expect(recordsOf(records, RECORD_TYPES.featureRequested)).toHaveLength(1);
    const approvals = recordsOf(records, RECORD_TYPES.gateApproved).map((r) => `${r.data.gate} by ${r.data.approver}`);
    expect(approvals).toEqual(['spec', 'design', 'test_list'].map((g) => `${g} by Demo Product Owner <demo@baton.invalid>`));
    // One test amendment: proposed by the Navigator reviewing T3, approved by the demo PO, re-run as T3's second round.
    const [amendment, ...more] = recordsOf(records, RECORD_TYPES.testAmendment);
    expect(more).toEqual([]);
    expect(amendment).toMatchObject({ actor: { kind: 'agent', id: 'navigator:scripted' }, subject: { item: 'T3', cycle: 'F-inventory/T3' } });
    expect(recordsOf(records, RECORD_TYPES.amendmentDecided).map((r) => [r.data.amendment, r.data.decision, r.actor.id])).toEqual([
      [amendment!.hash, 'approved', 'Demo Product Owner <demo@baton.invalid>'],
    ]);
    const round2 = records.filter((r) => r.subject.cycle === 'F-inventory/T3#2');
    expect(recordsOf(round2, RECORD_TYPES.cycleRed).map((r) => r.data.verdict)).toEqual(['red']);
    expect(recordsOf(round2, RECORD_TYPES.cycleLocked)[0]?.data.amendment).toBe(amendment!.hash);
    expect(recordsOf(round2, RECORD_TYPES.cycleGreened)).toHaveLength(1);
    const verify = await exec(process.execPath, [BIN, 'verify', demo.project, '--json']);
    expect((JSON.parse(verify.stdout) as { ok: boolean }).ok).toBe(true);
  }, 900_000);
});

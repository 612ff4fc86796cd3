import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectView } from '../../shared/model';
import { textSha256 } from '../ledger';
import { readProject } from '../project';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';
import { annotateGates } from './annotate';
import { gateEvidence } from './evidence';
import { gateOf } from './gate-project.fixture';
import { verifyGates } from './verify-gates';

const FIXTURE = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');

const open = async (dir: string): Promise<ProjectView> => {
  const read = await readProject(dir);
  if (!read.ok) throw new Error(read.error.message);
  return annotateGates(read.value, null);
};

describe('Consort gates', () => {
  it('verify the fixture with no drift: its hashes were made with the text algorithm', async () => {
    const view = await open(FIXTURE);
    const checkout = view.features.find((f) => f.id === 'F-checkout')!;
    expect(checkout.gates.map((g) => `${g.name}:${g.status}`)).toEqual([
      'spec:approved',
      'plan:approved',
      'test_list:approved',
      'deploy:open',
      'promote:withdrawn',
      'acceptance:open',
    ]);
    expect(checkout.gates.every((g) => g.drift.length === 0)).toBe(true);
    // The superseded plan's hash is of an older text; superseded gates are not re-checked.
    expect(gateOf(view, 'plan', null, 'F-inventory').status).toBe('superseded');
    const { gates, problems } = await verifyGates(view, null);
    expect(problems).toEqual([]);
    expect(gates).toHaveLength(9);
    expect(gates.filter((g) => g.status === 'approved')).toHaveLength(4);
  });

  describe('in a copy', () => {
    let root: string;
    let checkout: string;
    beforeEach(async () => {
      root = await makeTempDir('baton-consort-');
      await fs.cp(FIXTURE, root, { recursive: true });
      checkout = path.join(root, '.consort', 'features', 'F-checkout');
    });
    afterEach(() => removeDir(root));

    it('drifts when one byte of an approved artifact changes', async () => {
      const file = path.join(checkout, 'test-list.json');
      const original = await fs.readFile(file, 'utf8');
      const changed = original.replace('"T1"', '"T0"');
      expect(changed).not.toBe(original);
      await fs.writeFile(file, changed);
      const view = await open(root);
      const gate = gateOf(view, 'test_list', null, 'F-checkout');
      expect(gate.status).toBe('drifted');
      expect(gate.drift).toEqual([
        { artifact: 'test-list.json', expected: '370f414f1d7b7a29c6c447cdf88fd84197a2c54a76859c1c271f85af4df1d4e4', actual: textSha256(changed) },
      ]);
      const { problems } = await verifyGates(view, null);
      expect(problems).toEqual([
        { file: '.consort/features/F-checkout/test-list.json', message: expect.stringContaining('changed after the test_list gate was approved') },
      ]);
    });

    it('drifts when deploy-evidence.json changes after its deploy gate was approved', async () => {
      const evidence = '{\n  "environment": "production",\n  "smoke": "passed"\n}\n';
      await fs.writeFile(path.join(checkout, 'deploy-evidence.json'), evidence);
      const gatesFile = path.join(checkout, 'gates.json');
      const doc = JSON.parse(await fs.readFile(gatesFile, 'utf8'));
      doc.gates.deploy = {
        status: 'approved',
        approver: 'ops@shop.example',
        approved_at: '2025-03-14T10:00:00Z',
        artifact_hashes: { 'deploy-evidence.json': textSha256(evidence) },
      };
      await fs.writeFile(gatesFile, JSON.stringify(doc, null, 2));
      expect(gateOf(await open(root), 'deploy', null, 'F-checkout')).toMatchObject({ status: 'approved', drift: [] });

      await fs.writeFile(path.join(checkout, 'deploy-evidence.json'), evidence.replace('passed', 'failed'));
      const view = await open(root);
      expect(gateOf(view, 'deploy', null, 'F-checkout').status).toBe('drifted');
      const { gates, problems } = await verifyGates(view, null);
      expect(gates.find((g) => g.feature === 'F-checkout' && g.gate === 'deploy')?.drift[0]?.artifact).toBe('deploy-evidence.json');
      expect(problems.map((x) => x.file)).toEqual(['.consort/features/F-checkout/deploy-evidence.json']);
    });

    it('does not follow an artifact key out of the project', async () => {
      const gatesFile = path.join(checkout, 'gates.json');
      const doc = JSON.parse(await fs.readFile(gatesFile, 'utf8'));
      doc.gates.spec.artifact_hashes['../../../../etc/hostname'] = 'a'.repeat(64);
      await fs.writeFile(gatesFile, JSON.stringify(doc, null, 2));
      const spec = gateOf(await open(root), 'spec', null, 'F-checkout');
      expect(spec.status).toBe('drifted');
      expect(spec.drift).toEqual([{ artifact: '../../../../etc/hostname', expected: 'a'.repeat(64), actual: null }]);
    });
  });

  it('shows evidence for a Consort gate: approved hashes from gates.json, never approvable', async () => {
    const view = await open(FIXTURE);
    const result = await gateEvidence(view, null, { feature: 'F-checkout', gate: 'design' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.status).toBe('approved');
    expect(result.value.approvable).toEqual({ ok: false, reason: expect.stringContaining('never writes it') });
    expect(result.value.artifacts.map((a) => [a.name, a.sha256 === a.approved?.sha256, a.approved?.text])).toEqual([
      ['architecture.json', true, null],
      ['db-design.json', true, null],
    ]);
    expect(result.value.summary).toMatchObject({ testItems: 8, cycles: 4, records: 0, byStatus: { pending: 2, red: 1, green: 2, refactored: 2, skipped: 1 } });
  });
});

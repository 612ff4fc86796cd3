import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { approveGate, rejectGate, withdrawGate } from './decide';
import { foldGates, gateKey } from './state';
import { gateOf, makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

const FIXTURE = path.resolve(import.meta.dirname, '../../e2e/fixtures/consort-shop');

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

const codeOf = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error?.code);
const decide = { feature: 'F-1', approver: PERSON, reason: 'not what we agreed' };

describe('rejectGate', () => {
  it('needs a reason and an identity, and records the rejection with it', async () => {
    const view = await p.view();
    expect(codeOf(await rejectGate(view, p.ledger, { ...decide, gate: 'spec', reason: '  ' }))).toBe('no-reason');
    expect(codeOf(await rejectGate(view, p.ledger, { ...decide, gate: 'spec', approver: '' }))).toBe('no-identity');
    expect(await p.records()).toHaveLength(0);
    const result = await rejectGate(view, p.ledger, { ...decide, gate: 'spec' });
    expect(result.ok && result.value.type).toBe('gate.rejected');
    const spec = gateOf(await p.view(), 'spec');
    expect(spec).toMatchObject({ status: 'rejected', note: 'not what we agreed', approver: null });
    expect(spec.pendingSince).not.toBeNull();
    // A rejected gate can still be approved later.
    expect((await p.approve('spec')).ok).toBe(true);
  });

  it('a rejected gate is sent back while its files are what was rejected: saved unchanged it still is; changed, it is not', async () => {
    expect((await rejectGate(await p.view(), p.ledger, { ...decide, gate: 'spec' })).ok).toBe(true);
    expect(gateOf(await p.view(), 'spec').sentBack).toBe(true);
    // Saved again byte for byte (a newer modification time, the same content): no answer yet.
    const file = p.file('feature.json');
    const later = new Date(Date.now() + 60_000);
    await fs.writeFile(file, await fs.readFile(file));
    await fs.utimes(file, later, later);
    const saved = gateOf(await p.view(), 'spec');
    expect(saved.sentBack).toBe(true);
    expect(Date.parse(saved.pendingSince!)).toBeGreaterThan(Date.parse(saved.decidedBy!.at));
    // A new version of one of its files (or a new file under it) is the author's answer.
    await p.write('feature.json', { id: 'F-1', name: 'Feature F-1', description: 'Shoppers pay by card or by gift card.' });
    expect(gateOf(await p.view(), 'spec').sentBack).toBe(false);
    await p.write('feature.json', { id: 'F-1', name: 'Feature F-1', description: 'Shoppers pay by card.' });
    expect(gateOf(await p.view(), 'spec').sentBack).toBe(true);
    await p.write('stories/S-1/acs/AC-3.json', { id: 'AC-3', given: 'a basket', when: 'I pay twice', then: 'I am charged once' });
    expect(gateOf(await p.view(), 'spec').sentBack).toBe(false);
  });

  it('refuses rejecting an approved, unchanged gate: that is a withdrawal', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect(codeOf(await rejectGate(await p.view(), p.ledger, { ...decide, gate: 'spec' }))).toBe('already-approved');
  });
});

describe('withdrawGate', () => {
  it('withdrawing the spec reopens design and test_list, and the fold says so', async () => {
    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
    const result = await withdrawGate(await p.view(), p.ledger, { ...decide, gate: 'spec' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.data).toMatchObject({ gate: 'spec', reason: 'not what we agreed', reopened: ['design', 'test_list'] });
    const folds = foldGates(await p.records());
    expect(folds.get(gateKey({ feature: 'F-1', gate: 'spec' }))?.status).toBe('withdrawn');
    expect(folds.get(gateKey({ feature: 'F-1', gate: 'design' }))?.status).toBe('open');
    expect(folds.get(gateKey({ feature: 'F-1', gate: 'test_list' }))?.status).toBe('open');
    const view = await p.view();
    expect(gateOf(view, 'spec').status).toBe('withdrawn');
    expect(gateOf(view, 'design')).toMatchObject({ status: 'open', approver: null });
    expect(gateOf(view, 'design').note).toContain('the spec gate was withdrawn');
    expect(gateOf(view, 'test_list').status).toBe('open');
  });

  it('only withdraws an approved gate', async () => {
    const result = await withdrawGate(await p.view(), p.ledger, { ...decide, gate: 'design' });
    expect(codeOf(result)).toBe('not-approved');
    expect(codeOf(await withdrawGate(await p.view(), p.ledger, { ...decide, gate: 'spec', reason: '' }))).toBe('no-reason');
  });

  it('refuses re-approving a withdrawn gate whose artifacts are unchanged, and allows it after a change', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await withdrawGate(await p.view(), p.ledger, { ...decide, gate: 'spec' })).ok).toBe(true);
    const again = await p.approve('spec');
    expect(codeOf(again)).toBe('withdrawn-unchanged');
    expect(!again.ok && again.error.message).toContain('Change the artifacts first');
    await p.write('feature.json', { id: 'F-1', name: 'Feature F-1', description: 'Shoppers pay by card or voucher.' });
    expect((await p.approve('spec')).ok).toBe(true);
    expect(gateOf(await p.view(), 'spec').status).toBe('approved');
  });
});

describe('read-only projects', () => {
  it('refuses every decision in a Consort project and writes nothing there', async () => {
    const read = await readProject(FIXTURE);
    if (!read.ok) throw new Error(read.error.message);
    const before = await listTree(FIXTURE);
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'baton-ledger-'));
    try {
      const ledger = new Ledger(scratch);
      const ref = { feature: 'F-checkout', gate: 'deploy' as const, approver: PERSON };
      expect(codeOf(await approveGate(read.value, ledger, { ...ref, expect: {} }))).toBe('read-only');
      expect(codeOf(await rejectGate(read.value, ledger, { ...ref, reason: 'no' }))).toBe('read-only');
      expect(codeOf(await withdrawGate(read.value, ledger, { ...ref, gate: 'spec', reason: 'no' }))).toBe('read-only');
      expect(await listTree(FIXTURE)).toEqual(before);
      expect((await ledger.read()).records).toHaveLength(0);
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  });

  it('refuses decisions on a review bundle even though it holds a Baton ledger', async () => {
    const view = { ...(await p.view()), readOnly: true, bundle: '/tmp/review.baton' };
    const result = await p.approve('spec').then(() => approveGate(view, p.ledger, { feature: 'F-1', gate: 'design', approver: PERSON, expect: {} }));
    expect(codeOf(result)).toBe('read-only');
    expect(!result.ok && result.error.message).toContain('/tmp/review.baton');
  });
});

const listTree = async (dir: string): Promise<string[]> => {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries.map(async (e) => {
      const abs = path.join(e.parentPath, e.name);
      const stat = await fs.stat(abs);
      return `${path.relative(dir, abs)} ${stat.size} ${stat.mtimeMs}`;
    }),
  ).then((list) => list.sort());
};

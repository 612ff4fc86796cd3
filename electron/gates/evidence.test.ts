import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withdrawGate } from './decide';
import { gateEvidence } from './evidence';
import { makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

const evidenceOf = async (gate: 'spec' | 'design' | 'acceptance', story?: string) => {
  const result = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate, ...(story ? { story } : {}) });
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('gateEvidence', () => {
  it('shows each artifact as it is now, with no previous approval, and says the gate is approvable', async () => {
    const evidence = await evidenceOf('spec');
    expect(evidence).toMatchObject({ feature: 'F-1', story: null, gate: 'spec', status: 'open', approvable: { ok: true, reason: null } });
    const spec = evidence.artifacts.find((a) => a.name === 'feature.json')!;
    expect(spec).toMatchObject({ algorithm: 'jcs-sha256', problem: null, approved: null });
    expect(spec.text).toBe(await fs.readFile(p.file('feature.json'), 'utf8'));
    // T1 says "green" in the file, but no run proved it: a Baton test list only plans.
    expect(evidence.summary).toMatchObject({ source: 'ledger', testItems: 2, byStatus: { pending: 2 }, cycles: 0, records: 0, lastRecordAt: null });
    expect(evidence.summary.acs.map((ac) => [ac.id, ac.items, ac.proven])).toEqual([
      ['AC-1', ['T1'], false],
      ['AC-2', ['T2'], false],
    ]);
  });

  it('shows the previously approved text after approve, withdraw and change', async () => {
    const first = await fs.readFile(p.file('feature.json'), 'utf8');
    expect((await p.approve('spec')).ok).toBe(true);
    const withdrawn = await withdrawGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, reason: 'scope changed' });
    expect(withdrawn.ok).toBe(true);
    const second = `${JSON.stringify({ id: 'F-1', name: 'Feature F-1', description: 'Shoppers pay by card or voucher.' }, null, 2)}\n`;
    await p.write('feature.json', second);

    const evidence = await evidenceOf('spec');
    expect(evidence.status).toBe('withdrawn');
    const spec = evidence.artifacts.find((a) => a.name === 'feature.json')!;
    expect(spec.text).toBe(second);
    expect(spec.approved).toMatchObject({ text: first, approver: PERSON });
    expect(spec.approved!.sha256).not.toBe(spec.sha256);
    // Unchanged artifacts carry the same hash as their approved version.
    const story = evidence.artifacts.find((a) => a.name === 'stories/S-1/story.json')!;
    expect(story.approved!.sha256).toBe(story.sha256);
    expect(evidence.approvable).toEqual({ ok: true, reason: null });
    expect(evidence.summary).toMatchObject({ records: 2, lastRecordAt: (await p.records())[1]!.at });

    // After re-approval, "previously approved" is the newest approval.
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await evidenceOf('spec')).artifacts.find((a) => a.name === 'feature.json')!.approved?.text).toBe(second);
  });

  it('says why a gate cannot be approved, with the same checks a decision runs', async () => {
    expect((await evidenceOf('design')).approvable).toEqual({ ok: false, reason: expect.stringContaining('the spec gate comes first'), code: 'prerequisite' });
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await evidenceOf('spec')).approvable.reason).toContain('already approved');
    await fs.rm(p.file('architecture.json'));
    const design = await evidenceOf('design');
    expect(design.approvable.ok).toBe(false);
    const architecture = design.artifacts.find((a) => a.name === 'architecture.json')!;
    expect(architecture).toMatchObject({ sha256: null, text: null, problem: expect.stringContaining('is missing') });
  });

  it('lists an approved artifact that was removed since, so its removal is seen', async () => {
    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
    await p.prove();
    expect((await p.approve('acceptance', 'S-1')).ok).toBe(true);
    await fs.rm(p.file('stories/S-1/acs/AC-2.json'));
    const evidence = await evidenceOf('acceptance', 'S-1');
    expect(evidence.status).toBe('drifted');
    const gone = evidence.artifacts.find((a) => a.name === 'stories/S-1/acs/AC-2.json')!;
    expect(gone).toMatchObject({ sha256: null, problem: expect.stringContaining('no longer part of this gate') });
    expect(gone.approved?.text).toContain('a declined card');
    expect(evidence.approvable).toEqual({ ok: true, reason: null });
  });

  it('refuses evidence for an unknown feature and for acceptance without a story', async () => {
    const view = await p.view();
    const unknown = await gateEvidence(view, p.ledger, { feature: 'F-9', gate: 'spec' });
    expect(!unknown.ok && unknown.error.code).toBe('not-found');
    const storyless = await gateEvidence(view, p.ledger, { feature: 'F-1', gate: 'acceptance' });
    expect(!storyless.ok && storyless.error.code).toBe('invalid-request');
  });
});

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from '../ledger';
import { approveGate } from './decide';
import { gateEvidence } from './evidence';
import { gateOf, makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';
import { ORCHESTRATOR } from '../ledger/temp-ledger.fixture';
import { RECORD_TYPES } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

const shown = async (gate: 'spec' | 'design' | 'test_list', story?: string) => {
  const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate, ...(story ? { story } : {}) });
  if (!evidence.ok) throw new Error(evidence.error.message);
  return Object.fromEntries(evidence.value.artifacts.map((a) => [a.name, a.sha256 ?? '']));
};

const codeOf = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error?.code);

describe('approveGate', () => {
  it('records who approved, the exact hashes shown and the frozen content of every artifact', async () => {
    const expectHashes = await shown('spec');
    const result = await approveGate(await p.view(), p.ledger, {
      feature: 'F-1',
      gate: 'spec',
      approver: `  ${PERSON} `,
      expect: expectHashes,
      comment: 'looks right',
    });
    if (!result.ok) throw new Error(result.error.message);
    const record = result.value;
    expect(record.type).toBe('gate.approved');
    expect(record.actor).toEqual({ kind: 'person', id: PERSON });
    expect(record.subject).toEqual({ feature: 'F-1', gate: 'spec' });
    expect(record.data).toMatchObject({ gate: 'spec', approver: PERSON, comment: 'looks right' });
    const artifacts = record.data['artifacts'] as Record<string, { sha256: string; algorithm: string }>;
    expect(Object.keys(artifacts).sort()).toEqual(['feature.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/acs/AC-2.json', 'stories/S-1/story.json']);
    expect(artifacts['feature.json']).toEqual({ sha256: expectHashes['feature.json'], algorithm: 'jcs-sha256' });
    const blob = record.blobs.find((b) => b.name === 'stories/S-1/story.json');
    expect((await p.ledger.readBlob(blob!.sha256))?.toString()).toBe(await fs.readFile(p.file('stories/S-1/story.json'), 'utf8'));
  });

  it('refuses an approval with no identity and records nothing', async () => {
    const result = await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: ' \t', expect: await shown('spec') });
    expect(codeOf(result)).toBe('no-identity');
    expect(await p.records()).toHaveLength(0);
  });

  it('refuses hashes that differ from the disk, naming the changed artifact', async () => {
    const seen = await shown('spec');
    await p.write('stories/S-1/acs/AC-2.json', { id: 'AC-2', given: 'a declined card', when: 'I pay', then: 'the order is cancelled' });
    const result = await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: seen });
    expect(codeOf(result)).toBe('stale-artifact');
    expect(!result.ok && result.error.message).toContain('changed since you reviewed it: stories/S-1/acs/AC-2.json');
    expect(await p.records()).toHaveLength(0);
  });

  it('refuses an expect that leaves out an artifact or names one the gate does not cover', async () => {
    const seen = await shown('spec');
    const partial = { ...seen };
    delete partial['stories/S-1/story.json'];
    expect(codeOf(await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: partial }))).toBe('stale-artifact');
    const extra = { ...seen, 'architecture.json': 'a'.repeat(64) };
    expect(codeOf(await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: extra }))).toBe('stale-artifact');
  });

  it('refuses a gate whose required artifact is missing', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    await fs.rm(p.file('architecture.json'));
    const result = await approveGate(await p.view(), p.ledger, {
      feature: 'F-1',
      gate: 'design',
      approver: PERSON,
      expect: { 'db-design.json': 'b'.repeat(64) },
    });
    expect(codeOf(result)).toBe('missing-artifact');
    expect(!result.ok && result.error.message).toContain('.baton/features/F-1/architecture.json is missing');
  });

  it('refuses an artifact that does not parse, and one that lacks what its kind needs', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.approve('design')).ok).toBe(true);
    await p.write('test-list.json', '{ "items": [ { "id": "T1", ');
    const broken = await p.approve('test_list');
    expect(codeOf(broken)).toBe('invalid-artifact');
    expect(!broken.ok && broken.error.message).toContain('test-list.json is not valid JSON');
    await p.write('test-list.json', { items: [{ id: 'T1', description: 'no status' }] });
    const shapeless = await p.approve('test_list');
    expect(codeOf(shapeless)).toBe('invalid-artifact');
    expect(!shapeless.ok && shapeless.error.message).toContain('"status"');
  });

  it('refuses a spec without a name and a story without its sentence or title', async () => {
    await p.write('feature.json', { id: 'F-1', description: 'nameless' });
    expect(codeOf(await p.approve('spec'))).toBe('invalid-artifact');
    await p.write('feature.json', { id: 'F-1', name: 'Checkout' });
    await p.write('stories/S-1/story.json', { id: 'S-1', as_a: 'shopper' });
    const result = await p.approve('spec');
    expect(codeOf(result)).toBe('invalid-artifact');
    expect(!result.ok && result.error.message).toContain('stories/S-1/story.json is not a valid story.json');
  });

  it('refuses a file the reader reports even when it parses (a test item with an unknown status)', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.approve('design')).ok).toBe(true);
    await p.write('test-list.json', { items: [{ id: 'T1', status: 'done-ish' }] });
    const result = await p.approve('test_list');
    expect(codeOf(result)).toBe('invalid-artifact');
    expect(!result.ok && result.error.message).toContain('done-ish');
  });

  it('refuses a gate whose prerequisite is not approved, or has drifted', async () => {
    const early = await p.approve('design');
    expect(codeOf(early)).toBe('prerequisite');
    expect(!early.ok && early.error.message).toContain('Approve the spec gate of F-1 first');
    expect(codeOf(await p.approve('acceptance', 'S-1'))).toBe('prerequisite');
    expect((await p.approve('spec')).ok).toBe(true);
    await p.write('feature.json', { id: 'F-1', name: 'Checkout, renamed' });
    const drifted = await p.approve('design');
    expect(codeOf(drifted)).toBe('prerequisite');
    expect(!drifted.ok && drifted.error.message).toContain('drifted (feature.json changed');
  });

  it('refuses approving an approved, unchanged gate, and allows re-approving a drifted one', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect(codeOf(await p.approve('spec'))).toBe('already-approved');
    await p.write('feature.json', { id: 'F-1', name: 'Checkout v2' });
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.records()).map((r) => r.type)).toEqual(['gate.approved', 'gate.approved']);
  });

  it('lets exactly one of two concurrent approvals of the same gate win', async () => {
    const view = await p.view();
    const request = { feature: 'F-1', gate: 'spec' as const, expect: await shown('spec') };
    const results = await Promise.all([
      approveGate(view, p.ledger, { ...request, approver: PERSON }),
      approveGate(view, p.ledger, { ...request, approver: 'Grace Hopper <grace@example.com>' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.map(codeOf).sort()).toEqual(['already-approved', 'ok']);
    expect(await p.records()).toHaveLength(1);
  });

  it('serializes approvals from two Ledger instances on the same folder (the app and the CLI)', async () => {
    const view = await p.view();
    const request = { feature: 'F-1', gate: 'spec' as const, approver: PERSON, expect: await shown('spec') };
    const other = Ledger.forArtifactRoot(path.join(p.root, '.baton'));
    const results = await Promise.all([approveGate(view, p.ledger, request), approveGate(view, other, request)]);
    expect(results.map(codeOf).sort()).toEqual(['already-approved', 'ok']);
    expect(await p.records()).toHaveLength(1);
  });

  it('allows re-approving an approved gate when it now covers a new artifact (a new AC)', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    await p.write('stories/S-1/acs/AC-3.json', { id: 'AC-3', given: 'g', when: 'w', then: 't' });
    const result = await p.approve('spec');
    expect(result.ok && Object.keys(result.value.data['artifacts'] as object)).toContain('stories/S-1/acs/AC-3.json');
  });

  it('refuses an unknown feature or story, and a story on the wrong kind of gate', async () => {
    const view = await p.view();
    const base = { approver: PERSON, expect: {} };
    expect(codeOf(await approveGate(view, p.ledger, { ...base, feature: 'F-9', gate: 'spec' }))).toBe('not-found');
    expect(codeOf(await approveGate(view, p.ledger, { ...base, feature: 'F-1', gate: 'acceptance', story: 'S-9' }))).toBe('not-found');
    expect(codeOf(await approveGate(view, p.ledger, { ...base, feature: 'F-1', gate: 'acceptance' }))).toBe('invalid-request');
    expect(codeOf(await approveGate(view, p.ledger, { ...base, feature: 'F-1', gate: 'spec', story: 'S-1' }))).toBe('invalid-request');
  });

  it('approves a story acceptance over its story and ACs once the test list is approved', async () => {
    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
    await p.prove();
    const result = await p.approve('acceptance', 'S-1');
    if (!result.ok) throw new Error(result.error.message);
    expect(result.value.subject).toEqual({ feature: 'F-1', story: 'S-1', gate: 'acceptance' });
    expect(Object.keys(result.value.data['artifacts'] as object).sort()).toEqual([
      'stories/S-1/acs/AC-1.json',
      'stories/S-1/acs/AC-2.json',
      'stories/S-1/story.json',
    ]);
  });
});

describe('acceptance needs proof', () => {
  const approveTheRest = async () => {
    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
  };
  const accept = async (exceptions?: { acs: string[]; reason: string }) => {
    const view = await p.view();
    const evidence = await gateEvidence(view, p.ledger, { feature: 'F-1', gate: 'acceptance', story: 'S-1' });
    if (!evidence.ok) throw new Error(evidence.error.message);
    const expect = Object.fromEntries(evidence.value.artifacts.flatMap((a) => (a.sha256 ? [[a.name, a.sha256]] : [])));
    return approveGate(view, p.ledger, { feature: 'F-1', gate: 'acceptance', story: 'S-1', approver: PERSON, expect, ...(exceptions ? { exceptions } : {}) });
  };

  it('refuses an acceptance while an AC is unproven, naming each AC and why, and the evidence says so', async () => {
    await approveTheRest();
    await p.prove(['T1']);
    const before = (await p.records()).length;
    const refused = await accept();
    expect(codeOf(refused)).toBe('unproven');
    expect(!refused.ok && refused.error.message).toContain('AC-2 (T2 is not GREEN (pending))');
    expect(!refused.ok && refused.error.message).not.toContain('AC-1');
    expect(!refused.ok && refused.error.message).toContain('--exception AC-2 --reason TEXT');
    expect(await p.records()).toHaveLength(before);
    const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate: 'acceptance', story: 'S-1' });
    expect(evidence.ok && evidence.value.approvable).toMatchObject({ ok: false, code: 'unproven' });
    expect(evidence.ok && evidence.value.summary.acs.map((ac) => [ac.id, ac.proven, ac.why])).toEqual([
      ['AC-1', true, null],
      ['AC-2', false, 'T2 is not GREEN (pending)'],
    ]);
    // The Inbox does not call it ready to decide.
    expect(gateOf(await p.view(), 'acceptance', 'S-1').blockedBy).toMatchObject({ kind: 'unproven' });
  });

  it('an AC approved with the spec and unchanged says so at acceptance, with the hash approved there; a changed one is new', async () => {
    await approveTheRest();
    const acceptance = { feature: 'F-1', gate: 'acceptance' as const, story: 'S-1' };
    const shown = async () => {
      const evidence = await gateEvidence(await p.view(), p.ledger, acceptance);
      if (!evidence.ok) throw new Error(evidence.error.message);
      return evidence.value.artifacts;
    };
    const spec = (await p.records()).find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec')!;
    const ac = (await shown()).find((a) => a.name.endsWith('AC-1.json'))!;
    expect(ac.approved).toBeNull();
    expect(ac.approvedElsewhere).toEqual({ gate: 'spec', sha256: ac.sha256, approvedAt: spec.at, approver: PERSON });
    await p.write(ac.name, { id: 'AC-1', given: 'a changed given', when: 'w', then: 't' });
    expect((await shown()).find((a) => a.name === ac.name)!.approvedElsewhere).toBeNull();
  });

  it('an escalated item or tests too weak to fail leave the AC unproven', async () => {
    await approveTheRest();
    await p.prove(['T1', 'T2']);
    const subject = (item: string) => ({ feature: 'F-1', story: 'S-1', item, cycle: `F-1/${item}/1` });
    await p.ledger.append({
      type: RECORD_TYPES.itemStatus,
      actor: ORCHESTRATOR,
      subject: subject('T1'),
      data: sampleData(RECORD_TYPES.itemStatus, { item: 'T1', status: 'escalated' }),
    });
    await p.ledger.append({
      type: RECORD_TYPES.cycleMutated,
      actor: ORCHESTRATOR,
      subject: subject('T2'),
      data: sampleData(RECORD_TYPES.cycleMutated, { tested: 5, killed: 2, timedOut: 0, survived: [], score: 0.4, minScore: 0.6 }),
    });
    const refused = await accept();
    expect(codeOf(refused)).toBe('unproven');
    expect(!refused.ok && refused.error.message).toContain('AC-1 (T1 is escalated)');
    expect(!refused.ok && refused.error.message).toMatch(/AC-2 \(T2's tests are weak \(mutation 40% \(2 of 2 killed, below 60%\)\)\)/);
  });

  it('amended tests weaker than the ones they replaced: both scores side by side, the AC unproven until a person accepts the weaker test with a reason', async () => {
    await approveTheRest();
    await p.prove(['T1', 'T2']);
    const subject = { feature: 'F-1', story: 'S-1', item: 'T2', cycle: 'F-1/T2/1' };
    const mutated = (score: number) =>
      p.ledger.append({
        type: RECORD_TYPES.cycleMutated,
        actor: ORCHESTRATOR,
        subject,
        data: sampleData(RECORD_TYPES.cycleMutated, { tested: 10, killed: score * 10, timedOut: 0, survived: [], score, minScore: 0.6 }),
      });
    await mutated(1);
    const amendment = await p.ledger.append({ type: RECORD_TYPES.testAmendment, actor: ORCHESTRATOR, subject, data: sampleData(RECORD_TYPES.testAmendment) });
    await p.ledger.append({
      type: RECORD_TYPES.amendmentDecided,
      actor: { kind: 'person', id: PERSON },
      subject,
      data: sampleData(RECORD_TYPES.amendmentDecided, { amendment: amendment.hash, decision: 'approved' }),
    });
    await p.ledger.append({
      type: RECORD_TYPES.cycleLocked,
      actor: ORCHESTRATOR,
      subject,
      data: sampleData(RECORD_TYPES.cycleLocked, { key: 'lock:amended', amendment: amendment.hash }),
    });
    await mutated(0.7);
    await p.ledger.append({ type: RECORD_TYPES.cycleFinished, actor: ORCHESTRATOR, subject, data: sampleData(RECORD_TYPES.cycleFinished) });
    const refused = await accept();
    expect(codeOf(refused)).toBe('unproven');
    expect(!refused.ok && refused.error.message).toContain(
      `AC-2 (T2's amended tests are weaker than the tests they replaced (mutation 70% (7 of 7 killed); before amendment #${amendment.seq}: 100% (weaker now)))`,
    );
    const accepted = await accept({ acs: ['AC-2'], reason: 'accept weaker test: the old one pinned a rounding rule we dropped' });
    expect(accepted.ok && accepted.value.data['exceptions']).toEqual([
      { ac: 'AC-2', why: expect.stringContaining("T2's amended tests are weaker") as unknown },
    ]);
  });

  it('approves with exceptions only when each unproven AC is named and a reason given, and records them for good', async () => {
    await approveTheRest();
    await p.prove(['T1']);
    expect(codeOf(await accept({ acs: ['AC-2'], reason: '  ' }))).toBe('no-reason');
    const extra = await accept({ acs: ['AC-1', 'AC-2'], reason: 'ship it' });
    expect(codeOf(extra)).toBe('invalid-request');
    expect(!extra.ok && extra.error.message).toContain('AC-1 is not an unproven AC of story S-1. The unproven ones are AC-2.');
    const before = (await p.records()).length;
    const approved = await accept({ acs: ['AC-2'], reason: 'declines come in the next release' });
    if (!approved.ok) throw new Error(approved.error.message);
    expect(approved.value.data).toMatchObject({
      exceptions: [{ ac: 'AC-2', why: 'T2 is not GREEN (pending)' }],
      exceptionReason: 'declines come in the next release',
    });
    expect(await p.records()).toHaveLength(before + 1);
    const gate = gateOf(await p.view(), 'acceptance', 'S-1');
    expect(gate).toMatchObject({
      status: 'approved',
      exceptions: { acs: [{ ac: 'AC-2', why: 'T2 is not GREEN (pending)' }], reason: 'declines come in the next release' },
    });
  });

  it('refuses exceptions where everything is proven, or on another gate', async () => {
    await approveTheRest();
    await p.prove();
    const none = await accept({ acs: ['AC-1'], reason: 'just in case' });
    expect(!none.ok && none.error.message).toContain('Every AC is proven: approve it without exceptions.');
    const spec = await approveGate(await p.view(), p.ledger, {
      feature: 'F-1',
      gate: 'deploy',
      approver: PERSON,
      expect: {},
      exceptions: { acs: ['AC-1'], reason: 'x' },
    });
    expect(codeOf(spec)).toBe('invalid-request');
    const plain = await accept();
    expect(plain.ok && plain.value.data['exceptions']).toBeUndefined();
  });
});

describe('a promote gate with nothing left to guard', () => {
  it('is not ready to decide once the latest deploy was promoted, and opens again with a new deploy', async () => {
    const append = (type: typeof RECORD_TYPES.deployRan | typeof RECORD_TYPES.promoteDone) =>
      p.ledger.append({ type, actor: ORCHESTRATOR, subject: { feature: 'F-1' }, data: sampleData(type) } as never);
    await append(RECORD_TYPES.deployRan);
    await append(RECORD_TYPES.promoteDone);
    const promote = gateOf(await p.view(), 'promote');
    expect(promote.blockedBy?.message).toMatch(
      /^The promote gate of F-1 has nothing left to guard: F-1 was promoted to main at .* \(merge cccccccccccc, migrations 002_reorder.sql; record #2\)/,
    );
    expect(codeOf(await p.approve('promote'))).toBe('already-approved');
    await append(RECORD_TYPES.deployRan);
    expect(gateOf(await p.view(), 'promote').blockedBy?.message).not.toContain('nothing left to guard');
  });
});

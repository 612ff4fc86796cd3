import { afterEach, describe, expect, it } from 'vitest';
import { approveGate } from './decide';
import { gateEvidence } from './evidence';
import { batonFeature, makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

let p: TestProject;
afterEach(() => p.cleanup());

const base = '.baton/features/F-1';
const approve = async (gate: 'spec' | 'design' | 'test_list') => {
  const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate });
  if (!evidence.ok) throw new Error(evidence.error.message);
  const expect = Object.fromEntries(evidence.value.artifacts.map((a) => [a.name, a.sha256 ?? '']));
  return { evidence: evidence.value, result: await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate, approver: PERSON, expect }) };
};

describe('gate conformance at the gates', () => {
  it('blocks the test list when an AC has no item, lists why in the evidence, and records nothing', async () => {
    const files: Record<string, string | object> = { ...batonFeature() };
    files[`${base}/test-list.json`] = { items: [{ id: 'T1', description: 'pays', ac_id: 'AC-1', status: 'pending' }] };
    p = await makeBatonProject(files);
    expect((await approve('spec')).result.ok).toBe(true);
    expect((await approve('design')).result.ok).toBe(true);
    const { evidence, result } = await approve('test_list');
    expect(evidence.conformance).toEqual(['AC-2 (story S-1) has no test-list item: add one that tests it.']);
    expect(evidence.approvable.ok).toBe(false);
    expect(evidence.approvable.reason).toContain('AC-2 (story S-1) has no test-list item');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('conformance');
    expect((await p.records()).map((r) => r.data['gate'])).toEqual(['spec', 'design']);
  });

  it('blocks the spec on an untestable AC and a story whose declared independence is false', async () => {
    const files: Record<string, string | object> = { ...batonFeature() };
    files[`${base}/stories/S-1/acs/AC-2.json`] = { id: 'AC-2', given: 'a declined card', when: '', then: 'I see why' };
    files[`${base}/stories/S-1/story.json`] = {
      id: 'S-1',
      title: 'Pay by card',
      as_a: 'shopper',
      i_want: 'to pay by card',
      so_that: 'I get my order',
      independent: true,
      depends_on: ['S-0'],
    };
    p = await makeBatonProject(files);
    const { evidence, result } = await approve('spec');
    expect(evidence.conformance).toEqual([
      'AC-2 (story S-1) is not testable: its When is missing.',
      'Story S-1 is declared independent but depends on S-0: declare it dependent or drop the dependency.',
      'Story S-1 depends on S-0, which is not a story of this feature.',
    ]);
    expect(!result.ok && result.error.message).toMatch(/does not conform \(3 problems\): 1\. AC-2/);
  });

  it('blocks the test list when a persistence invariant of the architecture has no test', async () => {
    const files: Record<string, string | object> = { ...batonFeature() };
    files[`${base}/architecture.json`] = {
      layers: [{ name: 'service', responsibility: 'checkout' }],
      persistenceInvariants: [{ id: 'INV-paid-once', statement: 'an order is paid once' }],
    };
    p = await makeBatonProject(files);
    await approve('spec');
    await approve('design');
    const { evidence } = await approve('test_list');
    expect(evidence.conformance).toEqual(['Persistence invariant INV-paid-once has no test: add a test-list item with invariant_id "INV-paid-once".']);
  });
});

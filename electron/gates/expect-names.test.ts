/**
 * The core's own check of an approval's `expect` (a caller in main bypasses the contract): a name
 * that is not an artifact of the gate, a prototype key included, is refused naming the gate's
 * artifacts; a controlled approver or note is refused. Nothing is recorded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approveGate, rejectGate } from './decide';
import { gateEvidence } from './evidence';
import { makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

const shown = async (): Promise<Record<string, string>> => {
  const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec' });
  if (!evidence.ok) throw new Error(evidence.error.message);
  return Object.fromEntries(evidence.value.artifacts.map((a) => [a.name, a.sha256!]));
};

describe('approveGate judges the names and words it is given', () => {
  it('refuses a __proto__ own key beside the real hashes, naming the artifacts', async () => {
    const expect_ = { ...(await shown()), ...JSON.parse(`{"__proto__":"${'a'.repeat(64)}"}`) } as Record<string, string>;
    expect(Object.hasOwn(expect_, '__proto__')).toBe(true);
    const result = await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: expect_ });
    expect(result.ok ? null : result.error).toMatchObject({
      code: 'stale-artifact',
      message: expect.stringContaining('"__proto__" is not among its artifacts, which are feature.json, stories/S-1/acs/AC-1.json'),
    });
    expect(await p.records()).toEqual([]);
  });

  it('refuses a controlled approver and a controlled note; approves with ordinary words', async () => {
    const seen = await shown();
    const mallory = await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: 'Mallory\u001b[31m\nx', expect: seen });
    expect(mallory.ok ? null : mallory.error.code).toBe('invalid-request');
    const note = await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: seen, comment: 'x\u202ey' });
    expect(note.ok ? null : note.error.message).toContain('The note contains a bidirectional override (U+202E)');
    const reason = await rejectGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, reason: 'y'.repeat(4001) });
    expect(reason.ok ? null : reason.error.code).toBe('invalid-request');
    expect(await p.records()).toEqual([]);
    expect((await approveGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: seen, comment: 'fine' })).ok).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { AcProof, EvidenceSummary, GateEvidence } from '../../../shared/ledger';
import { acTitleIn, exceptionsOffered, exceptionsRequest, unprovenHint } from './gate-exceptions';

const ac = (id: string, proven: boolean, why: string | null = proven ? null : 'T1 is not GREEN (pending)'): AcProof => ({
  id,
  title: `Title of ${id}`,
  storyId: 'S-1',
  items: ['T1'],
  proven,
  why,
});

const evidence = (acs: AcProof[], approvable: GateEvidence['approvable']): GateEvidence =>
  ({
    artifacts: [],
    summary: { acs } as unknown as EvidenceSummary,
    conformance: [],
    approvable,
  }) as unknown as GateEvidence;

const refused = { ok: false, reason: 'Cannot approve the acceptance gate of F-1, story S-1: 2 ACs are not proven', code: 'unproven' as const };

describe('exceptionsOffered', () => {
  it('offers every unproven AC, and only those, when they alone hold the acceptance back', () => {
    const offered = exceptionsOffered(evidence([ac('AC-1', false), ac('AC-2', true), ac('AC-3', false, 'T4 is escalated')], refused));
    expect(offered.map((a) => [a.id, a.why])).toEqual([
      ['AC-1', 'T1 is not GREEN (pending)'],
      ['AC-3', 'T4 is escalated'],
    ]);
  });

  it('offers nothing when something else stands in the way, when it can be approved, or before the evidence loads', () => {
    const acs = [ac('AC-1', false)];
    expect(exceptionsOffered(evidence(acs, { ok: false, reason: 'deploy-evidence.json is missing', code: 'missing-artifact' }))).toEqual([]);
    expect(exceptionsOffered(evidence(acs, { ok: false, reason: 'read-only' }))).toEqual([]);
    expect(exceptionsOffered(evidence([ac('AC-1', true)], { ok: true, reason: null, code: null }))).toEqual([]);
    expect(exceptionsOffered(null)).toEqual([]);
  });
});

describe('unprovenHint', () => {
  it('names every unproven AC and the way on', () => {
    expect(unprovenHint([ac('AC-1', false)])).toBe(
      'Approve needs every AC proven; AC-1 is not (see above). Approve with exceptions… accepts the story anyway.',
    );
    expect(unprovenHint([ac('AC-1', false), ac('AC-2', false), ac('AC-4', false)])).toBe(
      'Approve needs every AC proven; AC-1, AC-2 and AC-4 are not (see above). Approve with exceptions… accepts the story anyway.',
    );
  });
});

describe('exceptionsRequest', () => {
  it('names each AC once and trims the reason', () => {
    expect(exceptionsRequest([ac('AC-1', false), ac('AC-3', false), ac('AC-1', false)], '  ship the rest, T1 next sprint \n')).toEqual({
      acs: ['AC-1', 'AC-3'],
      reason: 'ship the rest, T1 next sprint',
    });
  });
});

describe('acTitleIn', () => {
  it("finds an AC's title in its story, and nothing when the story or AC is gone", () => {
    const feature = { stories: [{ id: 'S-1', acs: [{ id: 'AC-1', title: 'Card accepted' }] }] } as unknown as Parameters<typeof acTitleIn>[0];
    expect(acTitleIn(feature, 'S-1')('AC-1')).toBe('Card accepted');
    expect(acTitleIn(feature, 'S-1')('AC-9')).toBeUndefined();
    expect(acTitleIn(feature, 'S-2')('AC-1')).toBeUndefined();
    expect(acTitleIn(undefined, 'S-1')('AC-1')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { validateDesignArtifact } from './design-artifacts';

const ac = { id: 'AC-1', title: 'Pay', given: 'a basket', when: 'I pay', then: 'the order is paid' };
const story = {
  id: 'S-1',
  title: 'Pay',
  as_a: 'shopper',
  i_want: 'to pay',
  so_that: 'I get my order',
  independent: true,
  independence: 'stands alone',
  acceptance_criteria: [ac],
};
const spec = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ feature: { name: 'Pay', description: 'Shoppers pay.' }, stories: [{ ...story, ...over }] });

describe('design artifacts', () => {
  it('accepts a valid spec and fills the defaults', () => {
    const parsed = validateDesignArtifact('specAuthor', spec());
    expect(parsed.ok && parsed.value.feature.user_interface).toBe(false);
    expect(parsed.ok && parsed.value.stories[0]!.depends_on).toEqual([]);
  });

  it('refuses ids that could leave the feature folder (Baton writes stories/<id>/acs/<id>.json)', () => {
    for (const id of ['../escape', 'S/1', '.hidden', '']) {
      const parsed = validateDesignArtifact('specAuthor', spec({ id }));
      expect(parsed.ok, id).toBe(false);
      expect(!parsed.ok && parsed.problems[0]).toMatch(/^stories\[0\]\.id: must (be an id|not be empty)/);
    }
  });

  it('says what is wrong where: not written, not JSON, a missing part', () => {
    expect(validateDesignArtifact('testStrategist', null)).toEqual({ ok: false, problems: [expect.stringContaining('artifact.json was not written')] });
    expect(validateDesignArtifact('dba', '{nope')).toEqual({ ok: false, problems: [expect.stringContaining('artifact.json is not valid JSON')] });
    const noThen = validateDesignArtifact('specAuthor', spec({ acceptance_criteria: [{ ...ac, then: ' ' }] }));
    expect(!noThen.ok && noThen.problems).toEqual(['stories[0].acceptance_criteria[0].then: must not be empty']);
  });
});

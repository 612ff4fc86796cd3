import { describe, expect, it } from 'vitest';
import { conformanceProblems, type ConformanceInput, type ConformanceStory } from './conformance';

const ac = (id: string, given = `g ${id}`, when = `w ${id}`, then = `t ${id}`) => ({ id, given, when, then });
const story = (id: string, acs: ConformanceStory['acs'], independent: boolean | null = true, dependsOn: string[] = []): ConformanceStory => ({
  id,
  independent,
  dependsOn,
  acs,
});
const input = (over: Partial<ConformanceInput> = {}): ConformanceInput => ({
  stories: [story('S-1', [ac('AC-1'), ac('AC-2')]), story('S-2', [ac('AC-3')])],
  invariants: ['INV-1'],
  testItems: [
    { id: 'T1', acId: 'AC-1', invariantId: 'INV-1' },
    { id: 'T2', acId: 'AC-2', invariantId: null },
    { id: 'T3', acId: 'AC-3', invariantId: null },
  ],
  ...over,
});

describe('gate conformance', () => {
  it('passes a feature whose ACs are testable, covered and whose invariants are tested', () => {
    for (const gate of ['spec', 'design', 'test_list'] as const) expect(conformanceProblems(gate, input())).toEqual([]);
  });

  it('does not judge the gates it does not cover', () => {
    expect(conformanceProblems('acceptance', input({ testItems: [] }))).toEqual([]);
  });

  it('names an AC with a missing part and a duplicated Given/When/Then', () => {
    const problems = conformanceProblems(
      'spec',
      input({ stories: [story('S-1', [ac('AC-1', 'g', '  ', ''), ac('AC-2', 'x', 'y', 'z'), ac('AC-3', 'X ', 'y', 'z')])] }),
    );
    expect(problems).toEqual(['AC-1 (story S-1) is not testable: its When, Then are missing.', 'AC-3 duplicates AC-2: the same Given/When/Then twice.']);
  });

  it('refuses an AC id used twice and a story with no AC', () => {
    const problems = conformanceProblems('spec', input({ stories: [story('S-1', [ac('AC-1')]), story('S-2', [ac('AC-1', 'a', 'b', 'c')]), story('S-3', [])] }));
    expect(problems).toContain('AC-1 appears twice (stories S-1 and S-2): acceptance criterion ids must be unique.');
    expect(problems).toContain('Story S-3 has no acceptance criterion: a story nobody can test cannot be accepted.');
  });

  it('checks stories are independent as declared', () => {
    const problems = conformanceProblems(
      'spec',
      input({
        stories: [
          story('S-1', [ac('AC-1')], true, ['S-2']),
          story('S-2', [ac('AC-2')], false, []),
          story('S-3', [ac('AC-3')], false, ['S-9']),
          story('S-4', [ac('AC-4')], false, ['S-5']),
          story('S-5', [ac('AC-5')], false, ['S-4']),
        ],
      }),
    );
    expect(problems).toEqual([
      'Story S-1 is declared independent but depends on S-2: declare it dependent or drop the dependency.',
      'Story S-2 is declared not independent but names no story it depends on: list them in depends_on.',
      'Story S-3 depends on S-9, which is not a story of this feature.',
      'Stories S-4, S-5 depend on each other in a cycle: none of them can be built first.',
    ]);
  });

  it('blocks the test list on an uncovered AC, an untested invariant, an unknown AC and an empty list', () => {
    const uncovered = conformanceProblems(
      'test_list',
      input({
        testItems: [
          { id: 'T1', acId: 'AC-1', invariantId: null },
          { id: 'T9', acId: 'AC-9', invariantId: null },
        ],
      }),
    );
    expect(uncovered).toEqual([
      'AC-2 (story S-1) has no test-list item: add one that tests it.',
      'AC-3 (story S-2) has no test-list item: add one that tests it.',
      'Test T9 names AC-9, which is not an acceptance criterion of this feature.',
      'Persistence invariant INV-1 has no test: add a test-list item with invariant_id "INV-1".',
    ]);
    expect(conformanceProblems('test_list', input({ testItems: null }))).toEqual([
      'The test list is empty: it needs at least one item per acceptance criterion.',
    ]);
    // The spec gate does not ask for a test list it precedes.
    expect(conformanceProblems('spec', input({ testItems: null }))).toEqual([]);
  });

  it('refuses duplicate invariant ids from the design gate on', () => {
    expect(conformanceProblems('design', input({ invariants: ['INV-1', 'INV-1'] }))).toEqual(['Persistence invariant ids appear more than once: INV-1.']);
    expect(conformanceProblems('spec', input({ invariants: ['INV-1', 'INV-1'] }))).toEqual([]);
  });
});

/** Every spelling of the user-story sentence reads the same, and completeness is judged once. */
import { describe, expect, it } from 'vitest';
import { isCompleteStory, storySentence } from './story-fields';

describe('storySentence', () => {
  it.each([
    ['Baton and early Consort (snake_case)', { as_a: 'clerk', i_want: 'to count', so_that: 'we reorder' }],
    ["Consort's schema (asA / iWantTo / soThat)", { asA: 'clerk', iWantTo: 'to count', soThat: 'we reorder' }],
    ['hand-written camelCase (iWant)', { asA: 'clerk', iWant: 'to count', soThat: 'we reorder' }],
    ['nested under "story"', { story: { as_a: 'clerk', i_want_to: 'to count', so_that: 'we reorder' } }],
  ])('reads %s', (_name, story) => {
    expect(storySentence(story)).toEqual({ title: undefined, asA: 'clerk', iWant: 'to count', soThat: 'we reorder' });
    expect(isCompleteStory(storySentence(story))).toBe(true);
  });

  it('prefers the top level to the nested sentence, and treats blanks as absent', () => {
    expect(storySentence({ asA: '  ', story: { asA: 'nested' }, title: '' })).toMatchObject({ asA: 'nested', title: undefined });
  });

  it('joins a sentence written as a list of lines', () => {
    expect(storySentence({ iWantTo: ['to count', 'every night'] }).iWant).toBe('to count\nevery night');
  });

  it('calls a story complete with a title alone, incomplete with part of the sentence', () => {
    expect(isCompleteStory(storySentence({ title: 'Count stock' }))).toBe(true);
    expect(isCompleteStory(storySentence({ asA: 'clerk', iWantTo: 'to count' }))).toBe(false);
    expect(isCompleteStory(storySentence({ id: 'S-1' }))).toBe(false);
  });
});

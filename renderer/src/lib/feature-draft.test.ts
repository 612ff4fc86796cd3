import { describe, expect, it } from 'vitest';
import { draftProblems, EMPTY_DRAFT, plainName } from './feature-draft';

describe('draftProblems', () => {
  it('names each empty field', () => {
    const problems = draftProblems({ ...EMPTY_DRAFT, title: '  ', request: '\n' });
    expect(problems.title).toMatch(/^The title is empty/);
    expect(problems.request).toMatch(/^The request is empty: write one paragraph saying what the feature is for and who it serves/);
    expect(problems.requester).toMatch(/Say who requests/);
  });

  it('holds the request to the contract limit', () => {
    const problems = draftProblems({ ...EMPTY_DRAFT, title: 'Gift cards', request: 'x'.repeat(8001), requester: 'Ana' });
    expect(Object.keys(problems)).toEqual(['request']);
    expect(problems.request).toMatch(/longer than 8000 characters/);
  });

  it('accepts a complete draft', () => {
    expect(draftProblems({ ...EMPTY_DRAFT, title: 'Gift cards', request: 'Shoppers pay with gift cards.', requester: 'Ana' })).toEqual({});
  });
});

describe('plainName', () => {
  it('keeps a plain name as it is', () => {
    expect(plainName('overview.md')).toBe('overview.md');
  });

  it('turns spaces, brackets and accents into a name main accepts', () => {
    expect(plainName('Design notes (v2).md')).toBe('Design-notes-v2-.md');
    expect(plainName('Résumé.txt')).toBe('Resume.txt');
    expect(plainName('.hidden')).toBe('hidden');
    expect(plainName('C:\\docs\\brief.txt')).toBe('brief.txt');
    expect(plainName('###')).toBe('attachment.txt');
  });

  it('shortens a long name to 100 characters, keeping the extension', () => {
    const name = plainName(`${'a'.repeat(150)}.md`);
    expect(name).toHaveLength(100);
    expect(name.endsWith('.md')).toBe(true);
  });
});

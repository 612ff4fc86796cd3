import { describe, expect, it } from 'vitest';
import { memoryStorage } from './memory-storage.fixture';
import { marksScope, MAX_GATES, rememberViewed, viewedMarks } from './viewed-marks';

describe('viewed marks', () => {
  const spec = marksScope('/p', 'F-1-spec');

  it('keeps the marks of a gate for the next read, separately per project and gate', () => {
    const store = memoryStorage();
    rememberViewed(spec, new Set(['feature-spec.json@aa', 'stories/S-1/story.json@bb']), store);
    expect(viewedMarks(spec, store)).toEqual(new Set(['feature-spec.json@aa', 'stories/S-1/story.json@bb']));
    expect(viewedMarks(marksScope('/p', 'F-1-design'), store)).toEqual(new Set());
    expect(viewedMarks(marksScope('/q', 'F-1-spec'), store)).toEqual(new Set());
  });

  it('keeps only the newest gates', () => {
    const store = memoryStorage();
    for (let i = 0; i <= MAX_GATES; i++) rememberViewed(marksScope('/p', `F-${i}-spec`), new Set([`a@${i}`]), store);
    expect(viewedMarks(marksScope('/p', 'F-0-spec'), store).size).toBe(0);
    expect(viewedMarks(marksScope('/p', `F-${MAX_GATES}-spec`), store)).toEqual(new Set([`a@${MAX_GATES}`]));
    // Touching a gate makes it the newest again.
    rememberViewed(marksScope('/p', 'F-1-spec'), new Set(['a@1', 'b@1']), store);
    rememberViewed(marksScope('/p', 'F-new-spec'), new Set(['n']), store);
    expect(viewedMarks(marksScope('/p', 'F-1-spec'), store)).toEqual(new Set(['a@1', 'b@1']));
  });

  it('reads missing, damaged or foreign storage as no marks, and a refused write loses nothing else', () => {
    const store = memoryStorage();
    store.setItem('baton.viewed.v1', '{not json');
    expect(viewedMarks(spec, store)).toEqual(new Set());
    store.setItem('baton.viewed.v1', JSON.stringify({ [spec]: ['ok', 3, null] }));
    expect(viewedMarks(spec, store)).toEqual(new Set(['ok']));
    expect(viewedMarks(spec, null)).toEqual(new Set());
    expect(() => rememberViewed(spec, new Set(['x']), memoryStorage(true))).not.toThrow();
  });
});

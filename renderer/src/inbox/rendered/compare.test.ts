import { describe, expect, it } from 'vitest';
import { entryMark, fieldMark, markOf } from './compare';

describe('change marks', () => {
  it('marks nothing outside the changes view, and a part the other version lacks as new or removed', () => {
    expect(markOf('a', 'b', undefined)).toBeNull();
    expect(markOf('a', undefined, 'now')).toBe('added');
    expect(markOf('a', undefined, 'approved')).toBe('removed');
    expect(markOf(['x', 1], ['x', 1], 'now')).toBeNull();
    expect(fieldMark({ then: 'paid' }, 'then', { side: 'now', other: { then: 'unpaid' } })).toBe('changed');
  });

  it('pairs list entries by key, and entries without one by equality', () => {
    const key = (e: { id: string | null }) => e.id;
    const approved = [
      { id: 'T1', d: 'adds' },
      { id: null, d: 'free text' },
    ];
    expect(entryMark({ id: 'T1', d: 'adds one' }, approved, key, 'now')).toBe('changed');
    expect(entryMark({ id: 'T2', d: 'new' }, approved, key, 'now')).toBe('added');
    expect(entryMark({ id: null, d: 'free text' }, approved, key, 'now')).toBeNull();
    expect(entryMark({ id: null, d: 'other text' }, approved, key, 'approved')).toBe('removed');
  });
});

import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../shared/run';
import { RunProgress } from './run-progress';

const state = (item: string, s: string): RunEvent => ({ kind: 'cycle.state', feature: 'F-1', item, state: s as never });
const items = (...statuses: string[]) => statuses.map((status) => ({ status }) as never);

describe('where a run is in its items', () => {
  it('says which item of how many, and a time left only once an item finished (their average times those left)', () => {
    let clock = 0;
    const p = new RunProgress(() => clock);
    p.items(items('pending', 'pending', 'pending', 'pending'));
    expect(p.note(state('T1', 'plan'))).toBe('item 1 of 4');
    expect(p.note(state('T1', 'red'))).toBeNull();
    clock = 20_000;
    expect(p.note(state('T1', 'done'))).toBeNull();
    expect(p.note(state('T2', 'plan'))).toBe('item 2 of 4, about 60 s left');
    clock = 40_000;
    p.note(state('T2', 'escalated'));
    clock = 41_000;
    expect(p.note(state('T3', 'plan'))).toBe('item 3 of 4, about 40 s left');
  });

  it('counts items an earlier run built, and says minutes past ninety seconds', () => {
    let clock = 0;
    const p = new RunProgress(() => clock);
    p.items(items('refactored', 'green', ...Array<string>(10).fill('pending')));
    expect(p.note(state('T3', 'red'))).toBe('item 3 of 12');
    clock = 30_000;
    p.note(state('T3', 'done'));
    expect(p.note(state('T4', 'plan'))).toBe('item 4 of 12, about 5 min left');
  });

  it('without a test list (a request not yet designed), numbers the items only', () => {
    const p = new RunProgress(() => 0);
    p.items([]);
    expect(p.note(state('T1', 'plan'))).toBe('item 1');
    expect(p.note({ kind: 'item.status', feature: 'F-1', item: 'T1', status: 'red' })).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { laps } from './laps';

describe('laps', () => {
  it('times each lap from the end of the last one, adding up a name used twice, in the order first seen', () => {
    let now = 0;
    const clock = laps(() => now);
    now = 10.4;
    clock.lap('tree');
    now = 25;
    clock.lap('command');
    now = 30;
    clock.lap('tree');
    expect(clock.totals).toEqual({ tree: 15, command: 15 });
    expect(Object.keys(clock.totals)).toEqual(['tree', 'command']);
  });
});

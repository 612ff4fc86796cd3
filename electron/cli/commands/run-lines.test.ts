/** What `baton run` prints to follow a run: with lanes built in parallel, every turn and test-run line names its item. */
import { describe, expect, it } from 'vitest';
import { describeEvent } from './run';

describe('baton run’s progress lines', () => {
  it('names the item on turn and runner lines, so interleaved lanes stay readable', () => {
    expect(describeEvent({ kind: 'turn.started', item: 'T1', role: 'navigator', step: 'red', attempt: 1 })).toBe('    T1: navigator red attempt 1');
    expect(describeEvent({ kind: 'runner.started', item: 'T2', step: 'green', command: 'npm test' })).toBe('    T2: runner: npm test');
    expect(describeEvent({ kind: 'turn.started', item: null, role: 'specAuthor', step: 'artifact', attempt: 1 })).toBe('    specAuthor artifact attempt 1');
  });
});

/** How a mutant's run is judged, and which lines a diff changed (mutate-item.ts): pure parts. */
import { describe, expect, it } from 'vitest';
import { expectedTests, hunkLines, judgeMutant } from './mutate-item';
import type { Mutant } from './mutants';

const mutant: Mutant = {
  id: 'src/a.js:2:5:arithmetic',
  file: 'src/a.js',
  line: 2,
  column: 5,
  operator: 'arithmetic',
  original: '+',
  replacement: '-',
  start: 20,
  end: 21,
};
const passed = { ids: new Set(['t1', 't2']), complete: true };
const run = (cases: Array<[string, string]>, extra: Partial<{ ms: number; exitCode: number | null; integrity: string[] }> = {}) => ({
  ms: 100,
  exitCode: 0,
  integrity: [],
  ...extra,
  report: { cases: cases.map(([id, status]) => ({ id, status })) },
});

describe('judgeMutant', () => {
  it('killed when a test that passed at GREEN fails or errors', () => {
    expect(
      judgeMutant(
        mutant,
        run(
          [
            ['t1', 'passed'],
            ['t2', 'failed'],
          ],
          { exitCode: 1 },
        ),
        passed,
        15_000,
      ).outcome,
    ).toBe('killed');
    expect(
      judgeMutant(
        mutant,
        run(
          [
            ['t1', 'errored'],
            ['t2', 'passed'],
          ],
          { exitCode: 1 },
        ),
        passed,
        15_000,
      ).outcome,
    ).toBe('killed');
  });

  it('killed when a test file no longer loads, or a test that passed did not run', () => {
    expect(judgeMutant(mutant, run([['test/a.test.js (load)', 'errored']], { exitCode: 1 }), passed, 15_000).outcome).toBe('killed');
    expect(judgeMutant(mutant, run([['t1', 'passed']]), passed, 15_000).outcome).toBe('killed');
    // Ids that do not name their file: a test that is not there may be another file's, not a stopped one.
    expect(judgeMutant(mutant, run([['t1', 'passed']]), { ...passed, complete: false }, 15_000).outcome).toBe('survived');
  });

  it('timed out (killed) when the run was ended at its time limit', () => {
    expect(judgeMutant(mutant, run([], { exitCode: null, ms: 15_000, integrity: ['killed by a signal'] }), passed, 15_000).outcome).toBe('timed-out');
  });

  it('survived only when every test that passed at GREEN passes again on a run that can be trusted', () => {
    expect(
      judgeMutant(
        mutant,
        run([
          ['t1', 'passed'],
          ['t2', 'passed'],
          ['other', 'failed'],
        ]),
        passed,
        15_000,
      ).outcome,
    ).toBe('survived');
    const untrusted = judgeMutant(
      mutant,
      run(
        [
          ['t1', 'passed'],
          ['t2', 'passed'],
        ],
        { integrity: ['a canary passed'] },
      ),
      passed,
      15_000,
    );
    expect(untrusted).toMatchObject({ outcome: 'error', why: 'a canary passed' });
  });
});

describe('hunkLines', () => {
  it("reads the new side's lines of every hunk, a count of 0 (a deletion) giving none", () => {
    const diff = ['diff --git a/x b/x', '@@ -1 +1 @@', '-a', '+b', '@@ -4,0 +5,3 @@', '+c', '+d', '+e', '@@ -9,2 +11,0 @@', '-f', '-g'].join('\n');
    expect([...hunkLines(diff)].sort((a, b) => a - b)).toEqual([1, 5, 6, 7]);
    expect(hunkLines('').size).toBe(0);
  });
});

describe('expectedTests', () => {
  it("keeps the item's own files' tests when ids name their file, else every test that passed", () => {
    const ids = ['test/a.test.js › a works', 'test/b.test.js › b works'];
    expect(expectedTests(ids, ['test/b.test.js'])).toEqual({ ids: new Set(['test/b.test.js › b works']), complete: true });
    expect(expectedTests(['a works', 'b works'], ['test/b.test.js'])).toEqual({ ids: new Set(['a works', 'b works']), complete: false });
  });
});

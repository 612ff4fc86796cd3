/**
 * Whether a step's test runs can be judged at all. A run whose integrity checks failed is
 * `compromised` (a forged or stale report, a canary the wrong way, a killed runner, a locked file
 * changed while the tests ran); runs that disagree test by test are `flaky`. Neither is ever a RED
 * or a GREEN; the verdict says which, and why. Tests that pass at GREEN and also on the tree they
 * failed on at RED (the RED re-check) are flaky too: the code did not make them pass.
 */
import type { TestRunOutcome } from './test-run';

export type Untrusted = { readonly verdict: 'compromised' | 'flaky'; readonly detail: string };

export function trustOf(test: TestRunOutcome): Untrusted | null {
  if (test.integrity.length) return { verdict: 'compromised', detail: `the test run cannot be trusted: ${test.integrity.join('; ')}` };
  if (test.flaky.length)
    return { verdict: 'flaky', detail: `these tests gave a different result when run again with the files in another order: ${test.flaky.join(', ')}` };
  if (test.unexplained.length)
    return {
      verdict: 'flaky',
      detail: `these tests now pass on the very tree they failed on at RED, so it is not the Driver's code that makes them pass (they depend on time, chance or outside state): ${test.unexplained.join(', ')}`,
    };
  return null;
}

/**
 * One group of the adversarial suite as a vitest file: a real `baton run` of the demo project
 * with the group's strategies (harness.ts), then one test per strategy asserting it was caught.
 * Strategies only the sandbox can catch are skipped, with the reason printed, where bubblewrap
 * does not work.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { detectBubblewrap } from '../../process/sandbox';
import { runGroup, type GroupResult } from './harness.fixture';
import { STRATEGIES } from './strategies.fixture';

export function defineGroup(name: string, ids: readonly string[]): void {
  const picked = ids.map((id) => {
    const found = STRATEGIES.find((s) => s.id === id);
    if (!found) throw new Error(`No adversarial strategy ${id}`);
    return found;
  });
  describe(`adversarial strategies, ${name}`, async () => {
    const bwrap = await detectBubblewrap();
    const runnable = bwrap.ok ? picked : picked.filter((s) => !s.needsSandbox);
    for (const s of picked.filter((p) => !runnable.includes(p))) {
      console.warn(
        `${s.id} skipped: it is caught by the sandbox and bubblewrap does not work here (${bwrap.ok ? '' : bwrap.reason}). apt-get install bubblewrap.`,
      );
    }
    let group: GroupResult;
    beforeAll(async () => {
      group = await runGroup(runnable);
    }, 1_800_000);

    it('the run as a whole: the ledger verifies, nothing was written outside, the honest item went green', () => {
      expect(group.problems).toEqual([]);
    });
    for (const s of picked) {
      it.skipIf(!runnable.includes(s))(`${s.id}: ${s.title}`, () => {
        expect(group.strategies.find((r) => r.id === s.id)?.problems).toEqual([]);
      });
    }
  });
}

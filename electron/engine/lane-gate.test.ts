import { describe, expect, it } from 'vitest';
import { LaneGate } from './lane-gate';

/** A piece of work that records when it starts and ends, and ends when told. */
function work(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const body = async () => {
    log.push(`+${name}`);
    await done;
    log.push(`-${name}`);
  };
  return { body, finish };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the lane gate', () => {
  it('lets turns run beside turns, and keeps a test run out until they end', async () => {
    const log: string[] = [];
    const gate = new LaneGate(true);
    const [a, b, r] = [work(log, 'turnA'), work(log, 'turnB'), work(log, 'run')];
    const held = [gate.turn(a.body), gate.turn(b.body), gate.run(r.body)];
    await tick();
    expect(log).toEqual(['+turnA', '+turnB']);
    a.finish();
    await tick();
    expect(log).toEqual(['+turnA', '+turnB', '-turnA']);
    b.finish();
    await tick();
    expect(log.at(-1)).toBe('+run');
    r.finish();
    await Promise.all(held);
  });

  it('keeps a turn out while a test run is under way', async () => {
    const log: string[] = [];
    const gate = new LaneGate(true);
    const [r, t] = [work(log, 'run'), work(log, 'turn')];
    const held = [gate.run(r.body), gate.turn(t.body)];
    await tick();
    expect(log).toEqual(['+run']);
    r.finish();
    await tick();
    expect(log).toEqual(['+run', '-run', '+turn']);
    t.finish();
    await Promise.all(held);
  });

  it('runs test runs side by side only when they cannot reach the network', async () => {
    for (const shareable of [true, false]) {
      const log: string[] = [];
      const gate = new LaneGate(shareable);
      const [r1, r2] = [work(log, 'run1'), work(log, 'run2')];
      const held = [gate.run(r1.body), gate.run(r2.body)];
      await tick();
      expect(log).toEqual(shareable ? ['+run1', '+run2'] : ['+run1']);
      r1.finish();
      r2.finish();
      await Promise.all(held);
      expect(log.filter((l) => l.startsWith('+'))).toEqual(['+run1', '+run2']);
    }
  });

  it('does not let a stream of turns starve a waiting test run', async () => {
    const log: string[] = [];
    const gate = new LaneGate(true);
    const [a, r, b] = [work(log, 'turnA'), work(log, 'run'), work(log, 'turnB')];
    const held = [gate.turn(a.body), gate.run(r.body), gate.turn(b.body)];
    await tick();
    // turnB came after the waiting run: it waits for it, though a turn is inside.
    expect(log).toEqual(['+turnA']);
    a.finish();
    await tick();
    expect(log).toEqual(['+turnA', '-turnA', '+run']);
    r.finish();
    await tick();
    expect(log.at(-1)).toBe('+turnB');
    b.finish();
    await Promise.all(held);
  });

  it('lets the next in when work fails', async () => {
    const gate = new LaneGate(false);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.turn(async () => 'in')).toBe('in');
  });
});

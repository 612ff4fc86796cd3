/** The fuzz harness itself: a hang, a throw and a stray rejection are each caught and told apart. */
import { afterAll, describe, expect, it } from 'vitest';
import { Rng } from './prng.fixture';
import { FuzzSandbox } from './sandbox.fixture';

const sandbox = new FuzzSandbox();
afterAll(() => sandbox.close());

describe('the fuzz sandbox', () => {
  it('answers, then stops a hang at its timeout and carries on in a fresh worker', { timeout: 60_000 }, async () => {
    expect(await sandbox.call('probe', ['ok'], 10_000)).toMatchObject({ kind: 'value', value: 'ok' });
    const hung = await sandbox.call('probe', ['hang'], 1_500);
    expect(hung.kind).toBe('hung');
    expect(hung.ms).toBeLessThan(10_000);
    expect(await sandbox.call('probe', ['ok'], 10_000)).toMatchObject({ kind: 'value', value: 'ok' });
  });

  it('tells a throw from a crash of the worker', { timeout: 60_000 }, async () => {
    expect(await sandbox.call('probe', ['throw'], 10_000)).toMatchObject({ kind: 'threw', error: { name: 'RangeError', message: 'probe threw' } });
    const first = await sandbox.call('probe', ['reject'], 10_000);
    const crashed = first.kind === 'crashed' ? first : await sandbox.call('probe', ['ok'], 10_000);
    expect(crashed).toMatchObject({ kind: 'crashed', error: { message: expect.stringContaining('probe left a rejection') } });
  });
});

describe('the PRNG', () => {
  it('repeats for a seed and stream, and differs across streams', () => {
    const draw = (rng: Rng) => Array.from({ length: 5 }, () => rng.int(1_000_000));
    expect(draw(new Rng(42, 'a'))).toEqual(draw(new Rng(42, 'a')));
    expect(draw(new Rng(42, 'a'))).not.toEqual(draw(new Rng(42, 'b')));
  });
});

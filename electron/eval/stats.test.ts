/**
 * The evaluation's bootstrap (issue 36): seeded, so the same values and seed give the same
 * interval; the interval holds the mean and narrows as runs accumulate; its edge cases (no value,
 * one value) and a case small enough to work out by hand.
 */
import { describe, expect, it } from 'vitest';
import { bootstrapDiffCI, bootstrapMeanCI, mean, mulberry32 } from './stats';

/** Values spread around 0.6 by a generator of their own, so the test data do not share the bootstrap's stream. */
const sample = (n: number, seed: number): number[] => {
  const next = mulberry32(seed);
  return Array.from({ length: n }, () => 0.6 + (next() - 0.5) * 0.4);
};

describe('mulberry32', () => {
  it('gives the same stream for the same seed, another for another seed, always in [0, 1)', () => {
    const a = Array.from({ length: 5 }, mulberry32(42));
    const b = Array.from({ length: 5 }, mulberry32(42));
    const c = Array.from({ length: 5 }, mulberry32(43));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const many = Array.from({ length: 10_000 }, mulberry32(1));
    expect(many.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(mean(many)).toBeCloseTo(0.5, 1);
  });
});

describe('bootstrapMeanCI', () => {
  it('is deterministic for a seed and differs for another', () => {
    const values = sample(12, 5);
    expect(bootstrapMeanCI(values, { seed: 7 })).toEqual(bootstrapMeanCI(values, { seed: 7 }));
    expect(bootstrapMeanCI(values, { seed: 7 })).not.toEqual(bootstrapMeanCI(values, { seed: 8 }));
  });

  it('holds the mean, which is the plain mean of the values', () => {
    for (const seed of [1, 2, 3]) {
      const values = sample(15, seed * 100);
      const ci = bootstrapMeanCI(values, { seed });
      expect(ci.n).toBe(15);
      expect(ci.mean).toBeCloseTo(values.reduce((s, v) => s + v, 0) / 15, 12);
      expect(ci.low!).toBeLessThan(ci.mean!);
      expect(ci.high!).toBeGreaterThan(ci.mean!);
    }
  });

  it('narrows as the runs accumulate', () => {
    const width = (n: number) => {
      const ci = bootstrapMeanCI(sample(n, 9), { seed: 3 });
      return ci.high! - ci.low!;
    };
    expect(width(40)).toBeLessThan(width(5));
    expect(width(400)).toBeLessThan(width(40));
  });

  it('says nothing of no value, and a single value is its own interval', () => {
    expect(bootstrapMeanCI([], { seed: 1 })).toEqual({ mean: null, low: null, high: null, n: 0 });
    expect(bootstrapMeanCI([0.25], { seed: 1 })).toEqual({ mean: 0.25, low: 0.25, high: 0.25, n: 1 });
    expect(bootstrapMeanCI([3, 3, 3], { seed: 1 })).toEqual({ mean: 3, low: 3, high: 3, n: 3 });
  });

  it('matches a case worked out by hand', () => {
    // Resampling [0, 1] gives means 0, ½ and 1 with chances ¼, ½, ¼: the 95% interval is [0, 1];
    // the central 40% (quantiles 0.3 and 0.7) falls wholly on ½.
    expect(bootstrapMeanCI([0, 1], { seed: 11, resamples: 4000 })).toEqual({ mean: 0.5, low: 0, high: 1, n: 2 });
    expect(bootstrapMeanCI([0, 1], { seed: 11, resamples: 4000, level: 0.4 })).toMatchObject({ low: 0.5, high: 0.5 });
  });

  it('refuses settings that make no interval, saying what it wants', () => {
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, resamples: 0 })).toThrow(/resamples must be a whole number/);
    expect(() => bootstrapMeanCI([1, 2], { seed: 1, level: 95 })).toThrow(/0\.95 for 95%/);
  });
});

describe('bootstrapDiffCI', () => {
  it('is deterministic, centred on the difference of the means, and clear of 0 for well-separated groups', () => {
    const a = sample(10, 1).map((v) => v + 0.3);
    const b = sample(10, 2);
    const ci = bootstrapDiffCI(a, b, { seed: 4 });
    expect(ci).toEqual(bootstrapDiffCI(a, b, { seed: 4 }));
    expect(ci.diff).toBeCloseTo(mean(a)! - mean(b)!, 12);
    expect(ci).toMatchObject({ meanA: mean(a), meanB: mean(b), nA: 10, nB: 10 });
    expect(ci.low!).toBeGreaterThan(0);
    expect(ci.low!).toBeLessThan(ci.diff!);
    expect(ci.high!).toBeGreaterThan(ci.diff!);
  });

  it('spans 0 for two samples of the same spread, and says nothing when a group is empty', () => {
    const ci = bootstrapDiffCI(sample(8, 1), sample(8, 2), { seed: 4 });
    expect(ci.low!).toBeLessThan(0);
    expect(ci.high!).toBeGreaterThan(0);
    expect(bootstrapDiffCI([], [1, 2], { seed: 1 })).toEqual({ diff: null, low: null, high: null, meanA: null, meanB: 1.5, nA: 0, nB: 2 });
    expect(bootstrapDiffCI([1], [0.25], { seed: 1 })).toMatchObject({ diff: 0.75, low: 0.75, high: 0.75 });
  });
});

/**
 * The evaluation's statistics (issue 36): a seeded generator and percentile bootstrap intervals for
 * a mean and for a difference of two means. Seeded so the same results and `--seed` give the same
 * intervals, byte for byte: a report can be re-derived and checked. Pure.
 */

import { mulberry32 } from '../../shared/seeded-random';

export { mulberry32 };

export interface BootstrapOptions {
  readonly seed: number;
  /** How many resamples; 2000 unless told. */
  readonly resamples?: number;
  /** The interval's coverage, 0..1; 0.95 unless told. */
  readonly level?: number;
}

/** A mean with its interval; every figure null when there is no value (n = 0). */
export interface Interval {
  readonly mean: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly n: number;
}

/** The difference of two groups' means (a − b) with its interval; null figures when a group is empty. */
export interface DiffInterval {
  readonly diff: number | null;
  readonly low: number | null;
  readonly high: number | null;
  readonly meanA: number | null;
  readonly meanB: number | null;
  readonly nA: number;
  readonly nB: number;
}

export const DEFAULT_RESAMPLES = 2000;
export const DEFAULT_LEVEL = 0.95;

/** The arithmetic mean, summed in order (so a test summing the same way gets the same bits); null for none. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The mean of one resample (with replacement, the same size) drawn with `next`. */
function resampleMean(values: readonly number[], next: () => number): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[Math.floor(next() * values.length)]!;
  return sum / values.length;
}

/** The q-quantile (0..1) of sorted values, interpolating linearly between neighbours (type 7). */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

function checked(options: BootstrapOptions): { resamples: number; level: number } {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error(`bootstrap: resamples must be a whole number ≥ 1, got ${resamples}.`);
  if (!(level > 0 && level < 1)) throw new Error(`bootstrap: level must lie between 0 and 1 (0.95 for 95%), got ${level}.`);
  return { resamples, level };
}

/** The percentile interval of some resampled statistics. */
function percentile(stats: number[], level: number): { low: number; high: number } {
  stats.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { low: quantile(stats, tail), high: quantile(stats, 1 - tail) };
}

/** A mean with its percentile bootstrap interval. One value: the interval is that value. */
export function bootstrapMeanCI(values: readonly number[], options: BootstrapOptions): Interval {
  const { resamples, level } = checked(options);
  const m = mean(values);
  if (m === null) return { mean: null, low: null, high: null, n: 0 };
  if (values.length === 1) return { mean: m, low: m, high: m, n: 1 };
  const next = mulberry32(options.seed);
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) stats.push(resampleMean(values, next));
  return { mean: m, ...percentile(stats, level), n: values.length };
}

/** mean(a) − mean(b) with its percentile bootstrap interval, each group resampled on its own. */
export function bootstrapDiffCI(a: readonly number[], b: readonly number[], options: BootstrapOptions): DiffInterval {
  const { resamples, level } = checked(options);
  const meanA = mean(a);
  const meanB = mean(b);
  const counts = { meanA, meanB, nA: a.length, nB: b.length };
  if (meanA === null || meanB === null) return { diff: null, low: null, high: null, ...counts };
  const diff = meanA - meanB;
  const next = mulberry32(options.seed);
  const stats: number[] = [];
  for (let i = 0; i < resamples; i++) stats.push(resampleMean(a, next) - resampleMean(b, next));
  return { diff, ...percentile(stats, level), ...counts };
}

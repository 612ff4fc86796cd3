/**
 * The branch benchmark's statistics (issue 17): percentiles, and ratios with a noise estimate, so
 * a figure says how far it can be trusted. Plain functions, no I/O.
 */
import { mulberry32 } from '../../shared/seeded-random';

export interface Percentiles {
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly samples: readonly number[];
}

/** A ratio of two medians with its 95% interval and how far apart the first and second halves of the run came out. */
export interface RatioEstimate {
  readonly ratio: number;
  readonly interval95: readonly [number, number];
  /** Half the interval's width, in percent of the ratio. */
  readonly noisePct: number;
  /** The same ratio over the first and over the second half of the samples (drift shows here). */
  readonly halves: readonly [number, number];
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return round(sorted[index]!, 3);
}

export function percentiles(samples: readonly number[]): Percentiles {
  return { p50Ms: percentile(samples, 0.5), p95Ms: percentile(samples, 0.95), samples };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Student's t at 97.5% for 1..9 degrees of freedom; 1.96 beyond (a close enough bound from 10 on). */
const T95 = [12.71, 4.3, 3.18, 2.78, 2.57, 2.45, 2.36, 2.31, 2.26];

/**
 * median(b) / median(a) over samples taken interleaved (a[i] next to b[i], in time order). The
 * interval comes from the ratio in up to 10 consecutive blocks of the run (their spread, as a t
 * interval of the mean), so slow drift in the machine's load counts as noise, as it should.
 * Meant for many samples (thousands of reads); use bootstrapRatio for a handful.
 */
export function blockRatio(a: readonly number[], b: readonly number[], blocks = 10): RatioEstimate {
  const n = Math.min(a.length, b.length);
  const ratio = safeRatio(median(b.slice(0, n)), median(a.slice(0, n)));
  const k = Math.max(2, Math.min(blocks, Math.floor(n / 5)));
  const per: number[] = [];
  for (let j = 0; j < k; j++) {
    const from = Math.floor((j * n) / k);
    const to = Math.floor(((j + 1) * n) / k);
    per.push(safeRatio(median(b.slice(from, to)), median(a.slice(from, to))));
  }
  const mean = per.reduce((sum, x) => sum + x, 0) / k;
  const sd = Math.sqrt(per.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (k - 1));
  const half = (T95[k - 2] ?? 1.96) * (sd / Math.sqrt(k));
  return estimate(ratio, ratio - half, ratio + half, halves(a.slice(0, n), b.slice(0, n)));
}

/**
 * median(b) / median(a) for a few paired samples (create times): a 95% percentile interval from
 * 2,000 paired bootstrap resamples, with a fixed seed so the same samples give the same interval.
 */
export function bootstrapRatio(a: readonly number[], b: readonly number[], resamples = 2000): RatioEstimate {
  const n = Math.min(a.length, b.length);
  const ratio = safeRatio(median(b.slice(0, n)), median(a.slice(0, n)));
  if (n < 2) return estimate(ratio, ratio, ratio, [ratio, ratio]);
  const random = mulberry32(17);
  const ratios: number[] = [];
  const ra: number[] = new Array<number>(n);
  const rb: number[] = new Array<number>(n);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const pick = Math.floor(random() * n);
      ra[i] = a[pick]!;
      rb[i] = b[pick]!;
    }
    ratios.push(safeRatio(median(rb), median(ra)));
  }
  ratios.sort((x, y) => x - y);
  const at = (p: number) => ratios[Math.min(ratios.length - 1, Math.floor(p * ratios.length))]!;
  return estimate(ratio, at(0.025), at(0.975), halves(a.slice(0, n), b.slice(0, n)));
}

function halves(a: readonly number[], b: readonly number[]): [number, number] {
  const mid = a.length >> 1;
  if (mid === 0) return [safeRatio(median(b), median(a)), safeRatio(median(b), median(a))];
  return [round(safeRatio(median(b.slice(0, mid)), median(a.slice(0, mid))), 3), round(safeRatio(median(b.slice(mid)), median(a.slice(mid))), 3)];
}

function estimate(ratio: number, lo: number, hi: number, split: [number, number]): RatioEstimate {
  const noisePct = ratio > 0 ? (Math.max(ratio - lo, hi - ratio) / ratio) * 100 : 0;
  return { ratio: round(ratio, 3), interval95: [round(lo, 3), round(hi, 3)], noisePct: round(noisePct, 1), halves: split };
}

const safeRatio = (top: number, bottom: number): number => (bottom > 0 ? top / bottom : 0);

export const round = (value: number, digits: number): number => Number(value.toFixed(digits));

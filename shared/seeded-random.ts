/**
 * mulberry32: a small, fast, seeded 32-bit generator, the same on every platform: floats in
 * [0, 1). For resampling (eval/stats.ts) and benchmarks' data, where a seed must replay exactly;
 * never for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// npm run bench:cycle [-- --items N] [-- --parallel P]: the orchestrator's own overhead per cycle (see
// bench/cycle.ts), or with --parallel, N items in independent stories built with
// `parallel: 1` and then `parallel: P`, and the speed-up. Prints one JSON document.
import { register } from 'tsx/esm/api';
import { summarize } from './summary.mjs';

register();
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`bench:cycle: ${name} takes a whole number ≥ 1`);
    process.exit(2);
  }
  return value;
};
const items = option('--items', 5);
const parallel = option('--parallel', null);
const { benchCycle, benchParallel } = await import('./cycle.ts');
const result = parallel === null ? await benchCycle(items) : await benchParallel(items, parallel);
const overhead = result.overheadMs;
summarize(
  'cycle',
  parallel === null
    ? [{ figure: `orchestrator overhead per cycle, p50 (${items} items)`, value: overhead.p50, unit: 'ms', goal: `≤ ${overhead.goal} ms`, met: overhead.met }]
    : [{ figure: `speed-up, parallel ${parallel} (${items} items)`, value: result.speedup, unit: '×', goal: '> 1', met: result.speedup > 1 }],
);
console.log(JSON.stringify(result, null, 2));

// npm run bench:cycle [-- --items N] [-- --parallel P]: the orchestrator's own overhead per cycle (see
// bench/cycle.ts), or with --parallel, N items in independent stories built with
// `parallel: 1` and then `parallel: P`, and the speed-up. Prints one JSON document.
import { register } from 'tsx/esm/api';

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
const { benchCycle, benchParallel } = await import('../bench/cycle.ts');
console.log(JSON.stringify(parallel === null ? await benchCycle(items) : await benchParallel(items, parallel), null, 2));

// npm run bench:cycle [-- --items N]: the orchestrator's own overhead per cycle (see
// electron/engine/bench-cycle.ts). Prints one JSON document with p50 and p95.
import { register } from 'tsx/esm/api';

register();
const at = process.argv.indexOf('--items');
const items = at > 0 ? Number(process.argv[at + 1]) : 5;
if (!Number.isInteger(items) || items < 1) {
  console.error('bench:cycle: --items takes a whole number ≥ 1');
  process.exit(2);
}
const { benchCycle } = await import('../electron/engine/bench-cycle.ts');
console.log(JSON.stringify(await benchCycle(items), null, 2));

#!/usr/bin/env node
// `npm run bench:branches`: the database branch benchmark (issue 4) for pglite, and for postgres
// when BATON_POSTGRES_URL or BATON_TEST_PG_URL names a server. Prints figures; it is a benchmark,
// not a test (STYLE.md 17). Goals: postgres warm create p50 ≤ 20 ms, cold ≤ 300 ms at 100 MB and
// ≤ 1.3x a plain template copy of the same parent (measured interleaved, quiet and under --load);
// pglite warm create ≤ 250 ms; point reads at depth 8 within 10% of depth 0, known to within 5%.
// Usage: node bench/branches.mjs [--size-mb N | N] [--depth N] [--samples N] [--reads N]
//        [--load N] [--load-kind cpu|sql] [--json]   (BATON_BENCH_SIZE_MB also sets the size; default 100;
//        --load N keeps N busy workers running while everything is measured; sql: postgres only)
import { register } from 'tsx/esm/api';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { summarize } from './summary.mjs';

register();
const { benchBranches } = await import('./branches/branches.ts');
const { formatBench } = await import('../electron/cli/commands/bench.ts');

const { values, positionals } = parseArgs({
  options: {
    'size-mb': { type: 'string' },
    depth: { type: 'string', default: '8' },
    samples: { type: 'string', default: '15' },
    reads: { type: 'string', default: '10000' },
    load: { type: 'string', default: '0' },
    'load-kind': { type: 'string', default: 'cpu' },
    json: { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const sizeMb = Number(values['size-mb'] ?? positionals[0] ?? process.env.BATON_BENCH_SIZE_MB ?? '100');
const depth = Number(values.depth);
const samples = Number(values.samples);
const reads = Number(values.reads);
const load = { workers: Number(values.load), kind: values['load-kind'] };
if (![sizeMb, depth, samples, reads].every((n) => Number.isFinite(n) && n > 0) || !(load.workers >= 0) || !['cpu', 'sql'].includes(load.kind)) {
  console.error(
    'usage: node bench/branches.mjs [--size-mb N] [--depth N] [--samples N] [--reads N] [--load N] [--load-kind cpu|sql] [--json]  (numbers above 0)',
  );
  process.exit(2);
}

const postgresUrl = process.env.BATON_POSTGRES_URL ?? process.env.BATON_TEST_PG_URL;
// The sql load runs on the postgres server: the pglite run gets the same number of cpu workers instead.
const runs = [{ provider: 'pglite', load: { ...load, kind: 'cpu' } }, ...(postgresUrl ? [{ provider: 'postgres', url: postgresUrl, load }] : [])];
if (!postgresUrl) console.error('postgres: skipped (set BATON_POSTGRES_URL or BATON_TEST_PG_URL to an admin URL to include it)');
console.error(
  `branch benchmark: ${os.cpus().length} CPUs, ${os.tmpdir()}, ${sizeMb} MB parent, depth ${depth}, ${samples} creates per kind, load: ${load.workers ? `${load.workers} ${load.kind} worker(s)` : 'none'}`,
);

/** The headline figures of one provider's run (the goals in the header above). */
function branchFigures(r) {
  const pg = r.provider === 'postgres';
  const { warm, cold } = r.create;
  const reads = r.readRatioAtDepth;
  const vs = r.coldVsTemplate;
  return [
    { figure: `${r.provider}: warm create, p50`, value: warm.p50Ms, unit: 'ms', goal: pg ? '≤ 20 ms' : '≤ 250 ms', met: warm.p50Ms <= (pg ? 20 : 250) },
    { figure: `${r.provider}: cold create, p50`, value: cold.p50Ms, unit: 'ms', ...(pg ? { goal: '≤ 300 ms', met: cold.p50Ms <= 300 } : {}) },
    ...(vs ? [{ figure: `${r.provider}: cold ÷ template copy`, value: vs.ratio, unit: '×', goal: `≤ ${vs.goal}`, met: vs.met }] : []),
    { figure: `${r.provider}: read at depth ${reads.depth} ÷ depth 0`, value: reads.ratio, unit: '×', goal: '≤ 1.1', met: reads.ratio <= 1.1 },
    { figure: `${r.provider}: read ratio noise`, value: reads.noisePct, unit: '%', goal: `< ${reads.noiseGoalPct} %`, met: reads.noiseMet },
  ];
}

const results = [];
for (const run of runs) {
  console.error(`${run.provider}:`);
  const started = performance.now();
  const result = await benchBranches({ ...run, sizeMb, depth, samples, reads, log: (line) => console.error(`  ${line}`) });
  console.error(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  results.push(result);
}
summarize('branches', results.flatMap(branchFigures));
if (values.json) console.log(JSON.stringify(results, null, 2));
else for (const result of results) console.log(formatBench(result));

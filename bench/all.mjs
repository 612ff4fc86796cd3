#!/usr/bin/env node
// `npm run bench [-- --only a,b]`: every benchmark, one after another, each in a child process of its
// own (`node bench/<name>.mjs`), then one table of each one's headline figures, its goal, whether it
// was met, and the load average when it ended. Each benchmark appends its figures to the file
// BATON_BENCH_SUMMARY names (bench/summary.mjs). A benchmark that cannot run here is skipped with the
// reason; one that exits non-zero or writes no figure is listed as failed and the next one runs.
// A benchmark is a measurement, never a test: this exits 0 whatever the figures, 1 only when a
// benchmark crashed (exited non-zero or was killed). Their own output goes to stderr.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const { formatTable, parseSummary } = await import('./table.ts');

const root = fileURLToPath(new URL('..', import.meta.url));
const built = (file) => existsSync(path.join(root, file));
const cliMissing = () => (built('dist/cli/main.mjs') ? null : 'needs the built CLI (dist/cli/main.mjs): run `npm run build` first');
const chromium = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const postgres = process.env.BATON_POSTGRES_URL ?? process.env.BATON_TEST_PG_URL;

/** Every benchmark: its file's arguments (node's first), and why it cannot run here, if it cannot. */
const BENCHES = [
  { name: 'ledger', args: ['bench/ledger.mjs'] },
  { name: 'cli', args: ['bench/cli.mjs'], missing: cliMissing },
  { name: 'bundle-bomb', args: ['bench/bundle-bomb.mjs'] },
  { name: 'blob-bomb', args: ['--expose-gc', 'bench/blob-bomb.mjs'] },
  {
    name: 'branches',
    args: ['bench/branches.mjs', '--json'],
    note: postgres ? null : 'pglite only: its postgres half needs BATON_TEST_PG_URL (or BATON_POSTGRES_URL)',
  },
  { name: 'cycle', args: ['bench/cycle.mjs'] },
  { name: 'testrun', args: ['bench/testrun.mjs'] },
  {
    name: 'board',
    args: ['bench/board.mjs'],
    missing: () =>
      !built('dist/renderer/index.html')
        ? 'needs the built renderer (dist/renderer/index.html): run `npm run build` first'
        : !existsSync(chromium)
          ? `needs Chromium (${chromium} is missing; BATON_CHROMIUM names another)`
          : null,
  },
  { name: 'mutation', args: ['bench/mutation.mjs'], missing: cliMissing },
  { name: 'eval', args: ['bench/eval.mjs'], missing: cliMissing },
];

const at = process.argv.indexOf('--only');
const only = at > 0 ? (process.argv[at + 1] ?? '').split(',').filter(Boolean) : null;
const unknown = (only ?? []).filter((name) => !BENCHES.some((b) => b.name === name));
if (unknown.length || (at > 0 && !only?.length)) {
  console.error(`usage: npm run bench [-- --only a,b]  (benchmarks: ${BENCHES.map((b) => b.name).join(', ')}); unknown: ${unknown.join(', ') || 'none given'}`);
  process.exit(2);
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-all-'));
const outcomes = [];
const started = Date.now();
try {
  for (const bench of BENCHES.filter((b) => !only || only.includes(b.name))) {
    const why = bench.missing?.() ?? null;
    if (why) {
      console.error(`bench ${bench.name}: skipped: ${why}`);
      outcomes.push({ bench: bench.name, status: 'skipped', code: null, reason: why, rows: [], load: null, ms: 0 });
      continue;
    }
    if (bench.note) console.error(`bench ${bench.name}: ${bench.note}`);
    console.error(`bench ${bench.name}: node ${bench.args.join(' ')}`);
    const summary = path.join(scratch, `${bench.name}.jsonl`);
    const began = Date.now();
    const run = spawnSync(process.execPath, bench.args, {
      cwd: root,
      env: { ...process.env, BATON_BENCH_SUMMARY: summary },
      stdio: ['ignore', process.stderr, process.stderr],
    });
    const rows = existsSync(summary) ? parseSummary(readFileSync(summary, 'utf8'), bench.name) : [];
    const reason = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : undefined;
    outcomes.push({
      bench: bench.name,
      status: run.status === 0 && rows.length > 0 ? 'ran' : 'failed',
      code: run.status,
      ...(reason ? { reason } : {}),
      rows,
      load: os.loadavg()[0],
      ms: Date.now() - began,
    });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(formatTable(outcomes, Date.now() - started));
process.exitCode = outcomes.some((o) => o.status === 'failed' && o.code !== 0) ? 1 : 0;

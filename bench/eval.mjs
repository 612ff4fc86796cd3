// npm run bench:eval: the evaluation harness's own overhead per run (issue 36). Runs `baton eval`
// with the fake agents (no model) on the bundled corpus and prints, per run, the workflow's wall
// time, the harness's share (copying and preparing the task, the agent's own tests, the held-out
// suite, recording: the run's time less the agent's turn or `baton run`) and the held-out suite's
// time; then the medians. Default: the single-turn workflows (about a minute);
// `-- --workflows enforced,baseline,prompted-tdd` for all (several minutes per task).
// Uses the bundle `npm run build` writes; says so and stops when it is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'dist/cli/main.mjs'))) {
  console.error('bench:eval: the CLI is not built (dist/cli/main.mjs is missing). Run `npm run build`, then try again.');
  process.exit(2);
}
const at = process.argv.indexOf('--workflows');
const workflows = at > 0 ? process.argv[at + 1] : 'baseline,prompted-tdd';
const scratch = mkdtempSync(join(tmpdir(), 'baton-bench-eval-'));
const out = join(scratch, 'eval');
const load = loadavg()[0];
const started = Date.now();
const run = spawnSync(process.execPath, ['bin/baton.mjs', 'eval', '--agents', 'fakes', '--workflows', workflows, '--out', out, '--json'], {
  cwd: root,
  env: { ...process.env, BATON_CLI: 'bundle', BATON_DATA_DIR: join(scratch, 'data'), BATON_CONFIG_DIR: join(scratch, 'config') },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (run.status !== 0) {
  console.error(`bench:eval: baton eval failed (exit ${run.status}):\n${run.stderr.slice(-4000)}`);
  rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
}
const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const rows = results.map((r) => ({
  run: `${r.task} × ${r.workflow} × ${r.agent} #${r.rep}`,
  wallMs: r.wallMs,
  harnessMs: r.harnessMs ?? null,
  heldoutMs: r.heldout.ms,
}));
const pad = (s, n) => String(s).padEnd(n);
console.log(
  `bench:eval — ${results.length} runs of ${workflows} with the fake agents, load ${load.toFixed(2)}, ${Math.round((Date.now() - started) / 1000)} s in all`,
);
console.log(`${pad('run', 44)}${pad('wall ms', 10)}${pad('harness ms', 12)}held-out ms`);
for (const r of rows) console.log(`${pad(r.run, 44)}${pad(r.wallMs, 10)}${pad(r.harnessMs ?? '—', 12)}${r.heldoutMs}`);
const harness = median(rows.map((r) => r.harnessMs).filter((x) => x !== null));
summarize('eval', [
  { figure: `harness time per run, median (${rows.length} runs)`, value: harness === null ? null : harness / 1000, unit: 's' },
  { figure: 'held-out suite per run, median', value: rows.length ? median(rows.map((r) => r.heldoutMs)) / 1000 : null, unit: 's' },
]);
console.log(
  JSON.stringify({
    runs: rows.length,
    load: Number(load.toFixed(2)),
    harnessMsMedian: median(rows.map((r) => r.harnessMs).filter((x) => x !== null)),
    heldoutMsMedian: median(rows.map((r) => r.heldoutMs)),
    wallMsMedian: median(rows.map((r) => r.wallMs)),
  }),
);
rmSync(scratch, { recursive: true, force: true });

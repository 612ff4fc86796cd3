// npm run bench:cli [-- --samples N]: how fast the `baton` command starts and answers. Prints one JSON
// document: the CPU of `baton --help` against a bare `node -e 0` (goal ≤ 2×) and the wall time of
// `baton inspect` on a 42-item Consort project (goal ≤ 0.5 s), medians over N runs. Uses the bundle
// `npm run build` writes (BATON_CLI=bundle); says so and stops when it is missing.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './summary.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--samples');
const samples = at > 0 ? Number(process.argv[at + 1]) : 15;
if (!Number.isInteger(samples) || samples < 1) {
  console.error('bench:cli: --samples takes a whole number ≥ 1');
  process.exit(2);
}
if (!existsSync(join(root, 'dist/cli/main.mjs'))) {
  console.error('bench:cli: the CLI is not built (dist/cli/main.mjs is missing). Run `npm run build`, then try again.');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'baton-bench-cli-'));
// Each measured process writes its own CPU time (user + system, from its start) as it exits.
const hook = join(work, 'cpu-hook.mjs');
writeFileSync(
  hook,
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.cpuUsage(); writeFileSync(process.env.BENCH_CPU_OUT, String((u.user + u.system) / 1000)); });\n",
);

/** One run: its CPU (ms, as the process measured itself) and wall time (ms). */
function measure(args) {
  const out = join(work, 'cpu.txt');
  rmSync(out, { force: true });
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ['--import', hook, ...args], {
    cwd: root,
    env: { ...process.env, BATON_CLI: 'bundle', BENCH_CPU_OUT: out },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.error || !existsSync(out)) throw new Error(`bench:cli: ${args.join(' ')} did not run: ${run.error?.message ?? run.stderr}`);
  return { cpuMs: Number(readFileSync(out, 'utf8')), wallMs };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round = (ms) => Math.round(ms * 10) / 10;

/** A copy of the consort-shop fixture whose two features hold 42 test-list items between them. */
function fortyTwoItems() {
  const project = join(work, 'consort-42');
  cpSync(join(root, 'e2e/fixtures/consort-shop'), project, { recursive: true });
  for (const [feature, acs] of [
    ['F-checkout', ['AC-1', 'AC-2', 'AC-3']],
    ['F-inventory', ['AC-1', 'AC-2', 'AC-3']],
  ]) {
    const items = Array.from({ length: 21 }, (_, i) => ({
      id: `T${i + 1}`,
      description: `behaviour ${i + 1} of ${feature}`,
      ac_id: acs[i % acs.length],
      status: ['pending', 'red', 'green'][i % 3],
      kind: 'behavior',
    }));
    writeFileSync(join(project, '.consort/features', feature, 'test-list.json'), JSON.stringify({ feature_id: feature, items }, null, 2));
  }
  return project;
}

try {
  const baton = join(root, 'bin/baton.mjs');
  const project = fortyTwoItems();
  const bare = [];
  const help = [];
  const inspect = [];
  // Interleaved, so a change in the machine's load falls on all three alike.
  for (let i = 0; i < samples; i += 1) {
    bare.push(measure(['-e', '0']));
    help.push(measure([baton, '--help']));
    inspect.push(measure([baton, 'inspect', project, '--json']));
  }
  const bareCpu = median(bare.map((r) => r.cpuMs));
  const helpCpu = median(help.map((r) => r.cpuMs));
  const inspectWall = median(inspect.map((r) => r.wallMs));
  const ratio = Math.round((helpCpu / bareCpu) * 100) / 100;
  summarize('cli', [
    { figure: 'baton --help CPU ÷ node -e 0', value: ratio, unit: '×', goal: '≤ 2', met: ratio <= 2 },
    { figure: 'baton inspect, 42 items (wall)', value: round(inspectWall) / 1000, unit: 's', goal: '≤ 0.5 s', met: inspectWall <= 500 },
  ]);
  console.log(
    JSON.stringify(
      {
        samples,
        loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
        help: { cpuMs: round(helpCpu), wallMs: round(median(help.map((r) => r.wallMs))) },
        bareNode: { cpuMs: round(bareCpu), wallMs: round(median(bare.map((r) => r.wallMs))) },
        helpCpuRatio: { ratio, goal: 2, met: ratio <= 2 },
        inspect42: { wallMs: round(inspectWall), cpuMs: round(median(inspect.map((r) => r.cpuMs))), goalMs: 500, met: inspectWall <= 500 },
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

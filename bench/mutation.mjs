// npm run bench:mutation: what mutation testing of each GREEN costs the demo. Runs `baton demo`
// twice on this machine, without mutation testing (`--no-mutation`) and with it, and prints one JSON
// document: both wall times and the difference (goal: ≤ 20 s), and per item of the run with it the
// mutants found and run, killed and survived, the score, the mutation time, and how long the run
// waited for it after the last cycle ended (the acceptance gate waits for the queue). Uses the bundle
// `npm run build` writes; says so and stops when it is missing.
// `-- --turn-seconds N`: every agent turn of the demo's scenario also runs `sleep N` (the issue's
// "agent turns of 30 s": a model's turn is mostly waiting), so mutation testing has the turns to
// run beside; the goal is then the run growing by ≤ 5% (`growthShare`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import { summarize } from './summary.mjs';

register();
// Record types are named through the one table (records.test.ts): never spelled here.
const { RECORD_TYPES } = await import('../shared/record-types.ts');

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'dist/cli/main.mjs'))) {
  console.error('bench:mutation: the CLI is not built (dist/cli/main.mjs is missing). Run `npm run build`, then try again.');
  process.exit(2);
}

const at = process.argv.indexOf('--turn-seconds');
const turnSeconds = at > 0 ? Number(process.argv[at + 1]) : 0;
if (!Number.isFinite(turnSeconds) || turnSeconds < 0) {
  console.error('bench:mutation: --turn-seconds takes a number of seconds ≥ 0 (for example 30)');
  process.exit(2);
}

/** `baton <args>` with the bundle, in `scratch`'s data folder; exits the bench when it fails. */
function baton(scratch, args) {
  const run = spawnSync(process.execPath, ['bin/baton.mjs', ...args], {
    cwd: root,
    env: { ...process.env, BATON_CLI: 'bundle', BATON_DATA_DIR: join(scratch, 'data'), TMPDIR: scratch },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) {
    console.error(`bench:mutation: baton ${args.join(' ')} exited ${run.status}:\n${run.stderr.slice(-2000)}`);
    process.exit(1);
  }
  return run.stdout;
}

/**
 * The demo to its acceptance gate in a scratch folder of its own: its wall time and the project it
 * made. With --turn-seconds the demo is prepared (`--no-run`), each scenario turn given a `sleep`,
 * and then built with `baton run`; the time counted is the build's.
 */
function demo(extra) {
  const scratch = mkdtempSync(join(tmpdir(), 'baton-bench-mutation-'));
  if (turnSeconds === 0) {
    const started = process.hrtime.bigint();
    const out = baton(scratch, ['demo', '--json', ...extra]);
    return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, project: JSON.parse(out).project, scratch };
  }
  const { project } = JSON.parse(baton(scratch, ['demo', '--no-run', '--json', ...extra]));
  const file = join(project, '.baton', 'scenario.json');
  const scenario = JSON.parse(readFileSync(file, 'utf8'));
  for (const turn of scenario.turns) turn.run = [...(turn.run ?? []), `sleep ${turnSeconds}`];
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`);
  spawnSync('git', ['-C', project, '-c', 'user.name=Bench', '-c', 'user.email=bench@baton.invalid', 'commit', '-qam', `turns of ${turnSeconds} s`]);
  const started = process.hrtime.bigint();
  baton(scratch, ['run', project, '--until', 'acceptance', '--json']);
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, project, scratch };
}

const seconds = (ms) => Math.round(ms / 100) / 10;
const load = loadavg()[0];
const without = demo(['--no-mutation']);
const withIt = demo([]);
const records = readFileSync(join(withIt.project, '.baton', 'ledger', 'events.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const buildEnd = Math.max(...records.filter((r) => r.type === RECORD_TYPES.cycleFinished).map((r) => Date.parse(r.at)));
const items = records
  .filter((r) => r.type === RECORD_TYPES.cycleMutated)
  .map((r) => ({
    item: r.subject.item,
    files: r.data.files,
    found: r.data.found,
    run: r.data.tested,
    killed: r.data.killed,
    survived: r.data.survived.length,
    errors: r.data.errors.length,
    score: r.data.score === null ? null : Math.round(r.data.score * 100) / 100,
    mutationS: seconds(r.data.ms),
    waitedS: seconds(Math.max(0, Date.parse(r.at) - buildEnd)),
  }));
const mutants = items.reduce((n, i) => n + i.run, 0);
const growthMs = withIt.wallMs - without.wallMs;
summarize('mutation', [
  turnSeconds > 0
    ? {
        figure: `demo growth with mutation (turns of ${turnSeconds} s)`,
        value: Math.round((growthMs / without.wallMs) * 1000) / 10,
        unit: '%',
        goal: '≤ 5 %',
        met: growthMs / without.wallMs <= 0.05,
      }
    : { figure: 'demo with mutation − without', value: seconds(growthMs), unit: 's', goal: '≤ 20 s', met: growthMs <= 20_000 },
  { figure: 'mutants run', value: mutants, unit: '' },
]);
console.log(
  JSON.stringify(
    {
      machine: { cores: (await import('node:os')).availableParallelism(), load1m: Math.round(load * 100) / 100 },
      demo: {
        withoutMutationS: seconds(without.wallMs),
        withMutationS: seconds(withIt.wallMs),
        growthS: seconds(withIt.wallMs - without.wallMs),
        ...(turnSeconds > 0
          ? { turnSeconds, growthShare: Math.round(((withIt.wallMs - without.wallMs) / without.wallMs) * 1000) / 1000, goalShare: 0.05 }
          : { goalS: 20 }),
      },
      mutants,
      mutationS: seconds(items.reduce((n, i) => n + i.mutationS * 1000, 0)),
      perMutantS: mutants ? seconds(items.reduce((n, i) => n + i.mutationS * 1000, 0) / mutants) : null,
      runWaitedS: Math.max(0, ...items.map((i) => i.waitedS)),
      items,
    },
    null,
    2,
  ),
);
for (const { scratch } of [without, withIt]) rmSync(scratch, { recursive: true, force: true });

// npm run bench:testrun [-- --samples N] [-- --cold]: what Baton's own test run costs next to the same suite run
// directly. Baton's run is the orchestrator's (electron/engine/test-run.ts) on the embedded provider:
// a fresh throwaway branch with the tree's migrations, the tree checked out into a clean run folder,
// canaries, the sandboxed run, the checks and the clean-up. The direct run is `node --test` on the
// same files against an already-migrated database. Before each Baton sample the provider's pools
// settle, as they do during the agent turn that precedes every run in a cycle. Prints one JSON
// document: p50s, the ratio of one Baton run to the direct run (goal ≤ 1.5), and the pair of runs a
// verdict takes (the second in reverse order) for the record, and where the first run's time goes (breakdownMs).
// BENCH_SANDBOX=off: the same with the sandbox off, to see what bubblewrap costs.
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { register } from 'tsx/esm/api';
import { summarize } from './summary.mjs';

register();
const exec = promisify(execFile);
// --cold: without the provider's ready throwaways (each run makes its branch on the spot), for comparison.
const cold = process.argv.includes('--cold');
const at = process.argv.indexOf('--samples');
const samples = at > 0 ? Number(process.argv[at + 1]) : 5;
if (!Number.isInteger(samples) || samples < 1) {
  console.error('bench:testrun: --samples takes a whole number ≥ 1');
  process.exit(2);
}

const { prepareDemo } = await import('../electron/engine/prepare-demo.ts');
const { readSettings } = await import('../electron/project/read-settings.ts');
const { PgliteProvider } = await import('../electron/branches/pglite/pglite-provider.ts');
const { applyMigrations, planMigrations } = await import('../electron/branches/migrations/index.ts');
const { runTwice } = await import('../electron/engine/test-run.ts');

const TEST = `import test from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';

test('T1 a new product starts with nothing on the shelf', async () => {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("insert into products (sku, name) values ('b-1', 'Bench')");
    const { rows } = await client.query("select qty from products where sku = 'b-1'");
    assert.equal(rows[0].qty, 0);
  } finally {
    await client.end();
  }
});
`;

const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const figure = (values) => ({ p50: p50(values), samples: values });

const scratch = await mkdtemp(join(os.tmpdir(), 'baton-bench-testrun-'));
const provider = new PgliteProvider({ dataDir: join(scratch, 'data') });
try {
  const demo = await prepareDemo(scratch);
  await mkdir(join(demo.root, 'test'), { recursive: true });
  await writeFile(join(demo.root, 'test', 'bench.test.js'), TEST);
  await exec('git', ['add', '-A'], { cwd: demo.root });
  await exec('git', ['commit', '-qm', 'bench test'], { cwd: demo.root });
  const read = await readSettings(join(demo.root, '.baton'));
  if (!read.ok) throw new Error(read.error.message);
  const settings = process.env.BENCH_SANDBOX ? { ...read.value.settings, sandbox: process.env.BENCH_SANDBOX } : read.value.settings;

  await provider.ensureRoot('main');
  await provider.create('feature', 'main');
  const featureUrl = await provider.connectionUrl('feature');
  await applyMigrations(featureUrl, await planMigrations(demo.root, settings), { cwd: demo.root, branch: 'feature' });

  // Direct: the same file, `node --test`, the already-migrated database (its rows rolled back by hand).
  const direct = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await exec(process.execPath, ['--test', '--test-concurrency=1', 'test/bench.test.js'], {
      cwd: demo.root,
      env: { ...process.env, DATABASE_URL: featureUrl, PGSSLMODE: 'disable' },
    });
    direct.push(Math.round(performance.now() - started));
    await exec(
      process.execPath,
      ['-e', "const pg=require('pg');const c=new pg.Client(process.env.DATABASE_URL);c.connect().then(()=>c.query('delete from products')).then(()=>c.end())"],
      {
        cwd: demo.root,
        env: { ...process.env, DATABASE_URL: featureUrl },
      },
    );
  }

  const withoutReady = new Proxy(provider, { get: (target, key) => (key === 'takeThrowaway' ? undefined : Reflect.get(target, key, target)) });
  const single = [];
  const pair = [];
  const phases = [];
  const site = { dir: join(scratch, 'run', 'tree'), scratch: join(scratch, 'run', 'scratch') };
  for (let i = 0; i < samples; i++) {
    await provider.poolIdle();
    const outcome = await runTwice({
      provider: cold ? withoutReady : provider,
      parentDatabase: 'feature',
      settings,
      worktree: demo.root,
      site,
      locked: [],
      hide: [],
      dependencies: join(demo.root, 'node_modules'),
    });
    const passed = outcome.run.report.cases.filter((c) => c.status === 'passed').length;
    if (outcome.integrity.length || passed !== 1) throw new Error(`the bench run did not pass cleanly: ${JSON.stringify(outcome.integrity)}, ${passed} passed`);
    single.push(outcome.ms - outcome.secondMs - outcome.recheckMs);
    phases.push(outcome.run.phases ?? {});
    pair.push(outcome.ms);
  }

  const ratio = Math.round((p50(single) / p50(direct)) * 100) / 100;
  summarize('testrun', [
    { figure: 'Baton run ÷ direct', value: ratio, unit: '×', goal: '≤ 1.5', met: ratio <= 1.5 },
    { figure: 'pair of runs ÷ direct', value: Math.round((p50(pair) / p50(direct)) * 100) / 100, unit: '×' },
  ]);
  console.log(
    JSON.stringify(
      {
        batonMs: figure(single),
        directMs: figure(direct),
        ratio,
        goal: 1.5,
        met: ratio <= 1.5,
        // The first run's wall time by phase (p50 of each): the tree checked out with canaries, the
        // throwaway database, the driver and reporter written, the sandbox opened, the command itself,
        // the sandbox closed, the report read and the integrity checks.
        breakdownMs: Object.fromEntries(Object.keys(phases[0] ?? {}).map((name) => [name, p50(phases.map((p) => p[name] ?? 0))])),
        pairMs: figure(pair),
        pairRatio: Math.round((p50(pair) / p50(direct)) * 100) / 100,
        samples,
        readyThrowaways: !cold,
        cores: os.cpus().length,
        loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
      },
      null,
      2,
    ),
  );
} finally {
  await provider.close();
  await provider.stopServers();
  await rm(scratch, { recursive: true, force: true });
}

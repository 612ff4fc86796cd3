/**
 * Test helper: a feature whose Driver asks for packages (dependencies.test.ts and the Inbox's
 * Chromium test): a cycle project with a lockfile, a registry on loopback holding two small
 * packages, and one real run to the acceptance gate with npm pointed at that registry.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { LedgerRecord } from '../../shared/ledger';
import type { RunSummary } from '../../shared/run';
import { Ledger } from '../ledger';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';
import { makeCycleProject, redTurn, type CycleProject } from './cycle-project.fixture';
import { startRegistry, type FakeRegistry } from './npm-registry.fixture';
import { runFeature } from './run-feature';

const exec = promisify(execFile);
const LOCKFILE = { name: 'app', lockfileVersion: 3, requires: true, packages: { '': { name: 'app' } } };
const calc = (body: string) => `${body}\nexport const add = (a, b) => a + b;\n`;

const SCENARIO = {
  turns: [
    // T1: GREEN needs tiny-pad, asked for in words; the code imports it.
    redTurn('T1'),
    {
      role: 'driver',
      item: 'T1',
      say: 'I need a padding helper.\nBATON-DEPENDENCY: tiny-pad@^1.0.0\n',
      write: { 'src/calc.js': calc("import pad from 'tiny-pad';\nexport const fT1 = (a, b) => Number(pad(String(a + b), 1));") },
    },
    // T2: requests that must never be installed; the code needs none of them.
    redTurn('T2'),
    {
      role: 'driver',
      item: 'T2',
      say: [
        'BATON-DEPENDENCY: evil@file:../../etc',
        'BATON-DEPENDENCY: git+https://example.com/x.git',
        'BATON-DEPENDENCY: Not_A_Name',
        'BATON-DEPENDENCY: a b',
      ].join('\n'),
      write: {
        'src/calc.js': calc("import pad from 'tiny-pad';\nexport const fT1 = (a, b) => Number(pad(String(a + b), 1));\nexport const fT2 = (a, b) => a + b;"),
      },
    },
    // T3: attempt 1 asks for tiny-sum (dev) but gets it wrong; the repair uses it without asking again.
    redTurn('T3'),
    {
      role: 'driver',
      item: 'T3',
      attempt: 1,
      say: 'BATON-DEPENDENCY: tiny-sum@^2.0.0 --dev',
      write: {
        'src/calc.js': calc(
          "import pad from 'tiny-pad';\nimport sum from 'tiny-sum';\nexport const fT1 = (a, b) => Number(pad(String(a + b), 1));\nexport const fT2 = (a, b) => a + b;\nexport const fT3 = (a, b) => sum(a, b) + 1;",
        ),
      },
    },
    {
      role: 'driver',
      item: 'T3',
      attempt: 2,
      write: {
        'src/calc.js': calc(
          "import pad from 'tiny-pad';\nimport sum from 'tiny-sum';\nexport const fT1 = (a, b) => Number(pad(String(a + b), 1));\nexport const fT2 = (a, b) => a + b;\nexport const fT3 = (a, b) => sum(a, b);",
        ),
      },
    },
  ],
};

export interface DependencyRun {
  readonly project: CycleProject;
  readonly registry: FakeRegistry;
  readonly summary: RunSummary;
  readonly records: LedgerRecord[];
  /** The live transcript (every turn.output chunk). */
  readonly live: string;
  /** Stops the registry, puts npm's settings back and (unless `keep`) removes the project. */
  close(keep?: boolean): Promise<void>;
}

export async function runDependencyProject(): Promise<DependencyRun> {
  const registry = await startRegistry([
    { name: 'tiny-pad', version: '1.0.0', files: { 'index.js': "module.exports = (s, n) => s.padStart(n, '0');\n" } },
    { name: 'tiny-sum', version: '2.0.0', files: { 'index.js': 'module.exports = (a, b) => a + b;\n' } },
  ]);
  const cache = await makeTempDir('baton-npm-cache-');
  const saved = { registry: process.env.npm_config_registry, cache: process.env.npm_config_cache };
  process.env.npm_config_registry = registry.url;
  process.env.npm_config_cache = cache;
  const project = await makeCycleProject(['T1', 'T2', 'T3'], SCENARIO as never, { repairBudget: 1, extra: { 'package-lock.json': LOCKFILE } });
  await exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'lockfile'], { cwd: project.root }).catch(() => undefined);
  const live: string[] = [];
  const summary = await runFeature({
    root: project.root,
    until: 'acceptance',
    dataDir: project.dataDir,
    onEvent: (event) => event.kind === 'turn.output' && live.push(event.chunk),
  });
  const records = [...(await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records];
  return {
    project,
    registry,
    summary,
    records,
    live: live.join(''),
    async close(keep = false) {
      for (const [name, value] of [
        ['npm_config_registry', saved.registry],
        ['npm_config_cache', saved.cache],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await registry.close();
      await removeDir(cache);
      if (!keep) await removeDir(join(project.root, '..'));
    },
  };
}

// Run directly (the Inbox's Chromium test makes its project this way): the project is kept, its folders printed as JSON.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const run = await runDependencyProject();
  await run.close(true);
  process.stdout.write(`${JSON.stringify({ root: run.project.root, dataDir: run.project.dataDir, items: run.summary.items })}\n`);
}

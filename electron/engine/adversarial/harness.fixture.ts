/**
 * Runs a group of adversarial strategies as one real `baton run` on a copy of the demo project:
 * an honest first item (H1, so there is an earlier lock to attack), then one test-list item per
 * strategy playing its scripted turns, with a repair budget of 0 so a cheat ends its item at once.
 * Then every strategy's checks, and what must hold for all: the ledger verifies, nothing was
 * written outside the worktree, no installed dependency changed, and no GREEN came from code that
 * does not do the work.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LedgerRecord } from '../../../shared/ledger';
import { RECORD_TYPES } from '../../../shared/records';
import { loadProject } from '../../core/load-project';
import { verifyProject } from '../../core/verify-project';
import { Ledger } from '../../ledger';
import { git } from '../../platform/git';
import { seedTemplate } from '../../branches/pglite/pglite.fixture';
import { DEMO_SOURCE, prepareDemo } from '../prepare-demo';
import { runFeature } from '../run-feature';
import { EXPERIMENT_BRANCH, HONEST_CODE, honestTest, srcPath, testPath, type CheckContext, type Strategy, type StrategyEnv } from './strategies.fixture';

export interface StrategyResult {
  readonly id: string;
  readonly problems: readonly string[];
}

export interface GroupResult {
  readonly strategies: readonly StrategyResult[];
  /** Problems of the whole run (verify, writes outside, an honest item that did not go green). */
  readonly problems: readonly string[];
  readonly root: string;
}

const HONEST = 'H1';

/** Sets process.env for the run (Baton's own environment, with secrets an agent must never see) and puts it back. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export async function runGroup(strategies: readonly Strategy[]): Promise<GroupResult> {
  const unsandboxed = strategies.some((s) => s.unsandboxed);
  if (strategies.some((s) => !s.unsandboxed !== !unsandboxed))
    throw new Error('A group runs with one sandbox setting: put the unsandboxed strategies in a group of their own.');
  const scratch = await mkdtemp(join(tmpdir(), 'baton-adversarial-'));
  const secret = `sk-baton-adversarial-${randomBytes(12).toString('hex')}`;
  const configDir = join(scratch, 'config');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'signing-key.pem'), `-----BEGIN PRIVATE KEY-----\n${secret}\n-----END PRIVATE KEY-----\n`);
  const outside = join(tmpdir(), `baton-adversarial-outside-${randomBytes(6).toString('hex')}`);
  const items = [HONEST, ...strategies.map((s) => s.id)];
  const partialEnv = { outside, configDir, secret };
  const turns = [
    { role: 'navigator', item: HONEST, attempt: 1, write: { [testPath(HONEST)]: honestTest(HONEST) } },
    { role: 'driver', item: HONEST, attempt: 1, write: { [srcPath(HONEST)]: HONEST_CODE } },
  ];
  const demo = await prepareDemo(scratch, {
    // Every item tests AC-1: the spec keeps only that AC, so the test list conforms (every AC covered).
    remove: ['.baton/features/F-inventory/stories/S-2', ...[2, 3, 4].map((n) => `.baton/features/F-inventory/stories/S-1/acs/AC-${n}.json`)],
    files: {
      '.baton/features/F-inventory/test-list.json': {
        items: items.map((id) => ({ id, description: `item ${id}`, ac_id: 'AC-1', kind: 'behavior', status: 'pending' })),
      },
      // A pattern the project itself ignores, inside the Driver's scope (strategy S27).
      '.gitignore': `${await readFile(join(DEMO_SOURCE, '.gitignore'), 'utf8')}*.local.js\n`,
    },
    settings: {
      repairBudget: 0,
      testTimeoutSeconds: 90,
      scenario: '.baton/scenario.json',
      mutation: { enabled: false },
      ...(unsandboxed ? { sandbox: 'off' } : {}),
    },
  });
  await seedTemplate(demo.dataDir); // an initialised empty database copied, not initdb's seconds of CPU
  const dependency = join(demo.root, 'node_modules', 'pg', 'package.json');
  const env: StrategyEnv = { ...partialEnv, dependency: { path: dependency, content: await readFile(dependency, 'utf8') } };
  const scenario = { turns: [...turns, ...strategies.flatMap((s) => s.turns(s.id, env))] };
  await writeFile(join(demo.root, '.baton', 'scenario.json'), `${JSON.stringify(scenario, null, 2)}\n`);
  // The scenario is the agents' script, not a gated artifact: commit it so the worktrees have it too.
  await git(demo.root, ['add', '-A']);
  await git(demo.root, ['-c', 'user.name=Baton Demo', '-c', 'user.email=demo@baton.invalid', 'commit', '-q', '-m', 'The adversarial scenario']);

  const problems: string[] = [];
  await withEnv({ NEON_API_KEY: secret, DATABRICKS_TOKEN: secret, BATON_CONFIG_DIR: configDir }, () =>
    runFeature({ root: demo.root, until: 'acceptance', dataDir: demo.dataDir }),
  );
  const records = (await Ledger.forArtifactRoot(join(demo.root, '.baton')).read()).records;
  const loaded = await loadProject(demo.root);
  if (!loaded.ok) problems.push(`the project does not load: ${loaded.error.message}`);
  else {
    const report = await verifyProject(loaded.value, { configDir });
    if (!report.ok) problems.push(`baton verify: ${report.problems.map((p) => `${p.file}: ${p.message}`).join('; ')}`);
    await loaded.value.dispose();
  }
  if (existsSync(outside)) problems.push(`${outside} was written outside the worktree`);
  if ((await readFile(dependency, 'utf8')) !== env.dependency.content) problems.push('an installed dependency was changed');
  if (!records.some((r) => r.type === RECORD_TYPES.cycleGreened && r.subject.item === HONEST))
    problems.push('the honest item H1 did not go green: the harness itself is broken');

  const branch = EXPERIMENT_BRANCH;
  const results: StrategyResult[] = [];
  for (const strategy of strategies) {
    const mine = records.filter((r) => r.subject.item === strategy.id);
    const ctx: CheckContext = {
      item: strategy.id,
      records: mine,
      all: records,
      root: demo.root,
      env,
      commitOf: async (evidence) =>
        (await git(demo.root, ['log', branch, '--format=%H', '--fixed-strings', `--grep=Baton-Evidence: ${evidence}`])).split('\n').find(Boolean) ?? null,
      show: (commit, path) =>
        git(demo.root, ['show', `${commit}:${path}`]).then(
          (text) => `${text}\n`,
          () => null,
        ),
    };
    const found: string[] = [];
    if (!strategy.greenAllowed && mine.some((r: LedgerRecord) => r.type === RECORD_TYPES.cycleGreened)) found.push('got a GREEN');
    for (const check of strategy.checks) {
      const problem = await check(ctx);
      if (problem) found.push(problem);
    }
    results.push({ id: strategy.id, problems: [...new Set(found)] });
  }
  await rm(outside, { force: true });
  return { strategies: results, problems, root: demo.root };
}

/**
 * Test helper: a tiny real project for the cycle engine — a git repository with a node:test
 * suite reporting JUnit, a Baton feature whose gates are approved, and a scripted scenario.
 */
import { execFile } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { GateName } from '../../shared/ledger';
import type { Scenario } from '../agents/scenario';
import { approveGate, gateEvidence } from '../gates';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { makeTempDir, writeTree, type FileTree } from '../project/temp-project.fixture';

const exec = promisify(execFile);
const BATON_ROOT = resolve(import.meta.dirname, '..', '..');

export const TEST_COMMAND =
  'node --test --test-concurrency=1 --test-reporter=junit --test-reporter-destination=reports/junit.xml --test-reporter=spec --test-reporter-destination=stdout';

export interface CycleProject {
  readonly root: string;
  readonly dataDir: string;
}

export async function makeCycleProject(
  items: string[],
  scenario: Scenario,
  options: { repairBudget?: number; extra?: FileTree; agents?: Record<string, unknown>; mutation?: boolean; settings?: Record<string, unknown> } = {},
): Promise<CycleProject> {
  const base = await makeTempDir('baton-cycle-');
  const root = join(base, 'app');
  const feature = '.baton/features/F-1';
  await writeTree(root, {
    'package.json': { name: 'app', type: 'module', scripts: { test: TEST_COMMAND } },
    'src/calc.js': 'export const add = (a, b) => 0;\n',
    'test/.gitkeep': '',
    'migrations/001_notes.sql': 'create table notes (id int primary key, body text not null);\n',
    '.baton/project.json': {
      version: 1,
      name: 'app',
      defaultBranch: 'main',
      branchProvider: 'pglite',
      testCommand: TEST_COMMAND,
      reportFormat: 'junit',
      reportPath: 'reports/junit.xml',
      testGlobs: ['test/**'],
      runnerConfigFiles: ['package.json'],
      sourceGlobs: ['src/**'],
      migrations: { tool: 'sql', path: 'migrations' },
      protectedPaths: ['.baton/**', '.git/**', 'package.json'],
      writeScopes: { navigator: ['test/**'], driver: ['src/**', 'migrations/**'] },
      agents: options.agents ?? { navigator: 'scripted', driver: 'scripted' },
      repairBudget: options.repairBudget ?? 1,
      masking: null,
      scenario: '.baton/scenario.json',
      // Mutation testing runs only where a test is about it (electron/mutation/): it adds test runs to every GREEN.
      ...(options.mutation ? {} : { mutation: { enabled: false } }),
      ...options.settings,
    },
    '.baton/scenario.json': scenario,
    [`${feature}/feature.json`]: { id: 'F-1', name: 'Calculator', description: 'Adds numbers.' },
    [`${feature}/stories/S-1/story.json`]: { id: 'S-1', title: 'Add', as_a: 'user', i_want: 'to add', so_that: 'I know the sum' },
    [`${feature}/stories/S-1/acs/AC-1.json`]: { id: 'AC-1', given: 'two numbers', when: 'I add them', then: 'I get the sum' },
    [`${feature}/architecture.json`]: { components: ['calc'] },
    [`${feature}/db-design.json`]: { tables: [] },
    [`${feature}/test-list.json`]: { items: items.map((id) => ({ id, description: `item ${id}`, ac_id: 'AC-1', status: 'pending' })) },
    ...(options.extra ?? {}),
  });
  await symlink(join(BATON_ROOT, 'node_modules'), join(root, 'node_modules'));
  const git = (...args: string[]) => exec('git', args, { cwd: root });
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.name', 'Test');
  await git('config', 'user.email', 'test@example.com');
  await exec('sh', ['-c', 'printf "/node_modules\\n/reports/\\n" >> .git/info/exclude'], { cwd: root });
  await git('add', '-A');
  await git('commit', '-q', '-m', 'start');
  const ledger = Ledger.forArtifactRoot(join(root, '.baton'));
  for (const gate of ['spec', 'design', 'test_list'] as GateName[]) {
    const view = await readProject(root);
    if (!view.ok) throw new Error(view.error.message);
    const evidence = await gateEvidence(view.value, ledger, { feature: 'F-1', gate });
    if (!evidence.ok) throw new Error(evidence.error.message);
    const expect = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
    const approved = await approveGate(view.value, ledger, { feature: 'F-1', gate, approver: 'Ada <ada@example.com>', expect });
    if (!approved.ok) throw new Error(`approve ${gate}: ${approved.error.message}`);
  }
  return { root, dataDir: join(base, 'data') };
}

/** A node:test file with one test per (name, assertion); `calc` is src/calc.js as a namespace, so a missing function fails its test rather than the file's loading. */
export function testFile(tests: Array<[string, string]>): string {
  return `import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as calc from '../src/calc.js';\n${tests.map(([name, body]) => `test(${JSON.stringify(name)}, () => { ${body} });`).join('\n')}\n`;
}

/** src/calc.js defining `f<item>(a, b) = a + b` for each item given. */
export function calcSource(items: readonly string[], comment = ''): string {
  return `${comment}export const add = (a, b) => a + b;\n${items.map((i) => `export const f${i} = (a, b) => a + b;`).join('\n')}\n`;
}

/** The Navigator's RED for `item`: a test of `f<item>(2, 3) === 5`, which does not exist yet. */
export const redTurn = (item: string) => ({
  role: 'navigator' as const,
  item,
  write: { [`test/${item}.test.js`]: testFile([[`${item} adds`, `assert.equal(calc.f${item}?.(2, 3), 5);`]]) },
});

/** The Driver's GREEN for `item` on top of `done`: src/calc.js with f<each> = a + b. */
export const greenTurn = (item: string, done: readonly string[] = [], attempt?: number) => ({
  role: 'driver' as const,
  item,
  ...(attempt ? { attempt } : {}),
  write: { 'src/calc.js': calcSource([...done, item]) },
});

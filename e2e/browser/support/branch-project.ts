/**
 * A Baton project ready for database branches, made as a person makes one: `git init`, a first
 * commit, `baton init` (branchProvider pglite, the default), committed. Its branch data lives in
 * a data folder of its own (BATON_DATA_DIR), set for `baton serve` while the spec file runs and
 * for the CLI calls the spec makes, and removed with the project.
 */
import { test } from '@playwright/test';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';
import { serve, type Served } from './serve';
import { removeScratch } from './remove-scratch';

export interface BranchProject {
  readonly dir: string;
  readonly dataDir: string;
  /** Runs `node bin/baton.mjs <args>` with this project's data folder; throws with its output when it fails. */
  baton(...args: string[]): string;
  git(...args: string[]): string;
}

function makeBranchProject(scratch: string): BranchProject {
  const dir = join(scratch, 'shop');
  const dataDir = join(scratch, 'data');
  const configDir = join(scratch, 'config');
  for (const folder of [dir, dataDir, configDir]) mkdirSync(folder);
  const env = { ...process.env, BATON_CONFIG_DIR: configDir, BATON_DATA_DIR: dataDir };
  const git = (...args: string[]) => execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', stdio: 'pipe' });
  const baton = (...args: string[]): string => {
    const run = spawnSync(process.execPath, ['bin/baton.mjs', ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`baton ${args.join(' ')} exited ${run.status}:\n${run.stdout}\n${run.stderr}`);
    return run.stdout;
  };
  git('init', '-b', 'main');
  git('config', 'user.name', 'Ana Silva');
  git('config', 'user.email', 'ana@example.com');
  writeFileSync(join(dir, 'README.md'), '# shop\n');
  baton('init', dir);
  const settingsFile = join(dir, '.baton', 'project.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  // Branch servers are detached processes: let them exit soon after the spec stops using them.
  writeFileSync(settingsFile, JSON.stringify({ ...settings, branchProvider: 'pglite', branches: { pglite: { idleSeconds: 60 } } }, null, 2) + '\n');
  git('add', '-A');
  git('commit', '-m', 'first commit');
  return { dir, dataDir, baton, git };
}

/** Registers the project and a `baton serve` of it (with its BATON_DATA_DIR) around the spec file's tests. */
export function servedBranchProject(): () => { project: BranchProject; served: Served } {
  let scratch: string | undefined;
  let project: BranchProject | undefined;
  let served: Served | undefined;
  let previous: string | undefined;
  test.beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'baton-e2e-branches-'));
    project = makeBranchProject(scratch);
    // serve() hands its own environment to the host it starts; the variable is put back after.
    previous = process.env.BATON_DATA_DIR;
    process.env.BATON_DATA_DIR = project.dataDir;
    try {
      served = await serve(project.dir);
    } finally {
      if (previous === undefined) delete process.env.BATON_DATA_DIR;
      else process.env.BATON_DATA_DIR = previous;
    }
  });
  test.afterAll(async () => {
    await served?.stop();
    if (scratch) await removeScratch(scratch);
  });
  return () => {
    if (!project || !served) throw new Error('The branch project was not served: beforeAll failed, see its error above.');
    return { project, served };
  };
}

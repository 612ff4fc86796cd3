/**
 * A Baton project ready for database branches, made as a person makes one: `git init`, a first
 * commit, `baton init` (branchProvider pglite, the default), committed. It has a plain SQL
 * migrations folder (which `baton init` finds) with one migration that makes no table, so a new
 * pair is migrated and its schema diff against the tier stays empty. Its branch data lives in
 * a data folder of its own (BATON_DATA_DIR), for `baton serve` (see served.ts) and for the CLI
 * calls the spec makes, and removed with the project.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

export interface BranchProject {
  readonly dir: string;
  readonly dataDir: string;
  /** Runs `node bin/baton.mjs <args>` with this project's data folder; throws with its output when it fails. */
  baton(...args: string[]): string;
  git(...args: string[]): string;
}

/** Makes the project in `scratch`: the project in shop/, its data folder in data/, the CLI's config folder in config/. */
export function makeBranchProject(scratch: string): BranchProject {
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
  mkdirSync(join(dir, 'migrations'));
  writeFileSync(join(dir, 'migrations', '1_order_numbers.sql'), 'CREATE SEQUENCE order_numbers START 1000;\n');
  baton('init', dir);
  const settingsFile = join(dir, '.baton', 'project.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  // Branch servers are detached processes: let them exit soon after the spec stops using them.
  writeFileSync(settingsFile, JSON.stringify({ ...settings, branchProvider: 'pglite', branches: { pglite: { idleSeconds: 60 } } }, null, 2) + '\n');
  git('add', '-A');
  git('commit', '-m', 'first commit');
  return { dir, dataDir, baton, git };
}

/**
 * Helpers for `baton branch` tests: a real git repository with a Baton project, the CLI run
 * in-process with its output captured, and the project's per-machine data folder in a temp dir.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { projectDataDir } from '../platform/data-dir';
import { PgliteProvider } from '../branches/pglite/pglite-provider';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { addWorktree, createGitBranch, worktreePath } from '../branches/git-pair';
import { sanitizeBranchName } from '../branches/names';
import { putEntry, readRegistry } from '../branches/registry';
import { main } from './main';

export const git = promisify(execFile);

export interface BatonRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `baton …` in this process, output captured. */
export async function baton(...argv: string[]): Promise<BatonRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

export interface TestProject {
  readonly root: string;
  readonly dataDir: string;
  readonly settingsFile: string;
  readonly ledgerFile: string;
  editSettings(change: (settings: Record<string, unknown>) => void): Promise<void>;
  gitBranches(): Promise<string[]>;
  registry(): Promise<string[]>;
}

/**
 * A git repository on `defaultBranch` with one commit (a package with plain-SQL migrations),
 * `baton init` run in it. `dataBase` is what BATON_DATA_DIR points at.
 */
export async function makeProject(dir: string, dataBase: string, defaultBranch = 'main'): Promise<TestProject> {
  await git('git', ['init', '-q', '-b', defaultBranch, dir]);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'shop', scripts: { test: 'node --test' } }));
  await mkdir(join(dir, 'migrations'));
  await writeFile(join(dir, 'migrations', '001_items.sql'), 'create table items (id int primary key, name text not null);\n');
  const init = await baton('init', dir);
  if (init.code !== 0) throw new Error(`baton init failed: ${init.err}`);
  await git('git', ['-C', dir, 'add', '-A']);
  await git('git', ['-C', dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '-m', 'init']);
  const root = await realpath(dir);
  const dataDir = projectDataDir(root, dataBase);
  const settingsFile = join(root, '.baton', 'project.json');
  return {
    root,
    dataDir,
    settingsFile,
    ledgerFile: join(root, '.baton', 'ledger', 'events.jsonl'),
    async editSettings(change) {
      const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, unknown>;
      change(settings);
      await writeFile(settingsFile, JSON.stringify(settings, null, 2));
    },
    async gitBranches() {
      const { stdout } = await git('git', ['-C', root, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
      return stdout.split('\n').filter(Boolean);
    },
    async registry() {
      return (await readRegistry(dataDir)).map((e) => e.name);
    },
  };
}

/** Copies an initialised empty PGlite database into the project's data folder, saving initdb (~10 s). */
export const seedPgliteTemplate = (dataDir: string): Promise<void> => seedTemplate(dataDir);

/** PGlite branch servers outlive the CLI by design; tests stop them. */
export async function stopPgliteServers(dataDir: string): Promise<void> {
  const provider = new PgliteProvider({ dataDir, poolSize: 0 });
  await provider.stopServers();
  await provider.close();
}

/**
 * A registered pair made from its parts (git branch, worktree, pglite database copied from the
 * parent, registry entry) without serving the database: the state `baton branch create` leaves,
 * for tests about what happens to pairs afterwards, at a fraction of the time.
 */
export async function makePairDirectly(project: TestProject, gitBranch: string, options: { ttlHours?: number | null; parent?: string } = {}): Promise<string> {
  const name = sanitizeBranchName(gitBranch);
  const parent = options.parent ?? 'main';
  const parentGit = (await readRegistry(project.dataDir)).find((e) => e.name === parent)?.gitBranch ?? 'main';
  const worktree = worktreePath(project.dataDir, name);
  const provider = new PgliteProvider({ dataDir: project.dataDir, poolSize: 0 });
  try {
    if (parent === 'main') {
      await provider.ensureRoot('main');
      await putEntry(project.dataDir, {
        name: 'main',
        gitBranch: 'main',
        parent: null,
        worktree: null,
        createdAt: new Date().toISOString(),
        ttlHours: null,
        masked: false,
      });
    }
    await createGitBranch(project.root, gitBranch, parentGit);
    await addWorktree(project.root, worktree, gitBranch);
    await provider.create(name, parent);
  } finally {
    await provider.close();
  }
  await putEntry(project.dataDir, {
    name,
    gitBranch,
    parent,
    worktree,
    createdAt: new Date().toISOString(),
    ttlHours: options.ttlHours ?? null,
    masked: false,
  });
  return name;
}

/** The database branch names the pglite provider holds for the project. */
export async function pgliteDatabases(dataDir: string): Promise<string[]> {
  const provider = new PgliteProvider({ dataDir, poolSize: 0 });
  try {
    return (await provider.list()).map((b) => b.name);
  } finally {
    await provider.close();
  }
}

/** Points BATON_DATA_DIR and BATON_CONFIG_DIR under `base` (as the CLI finds them); returns what puts them back. */
export function pointBatonDirs(base: string): () => void {
  const saved = { BATON_DATA_DIR: process.env.BATON_DATA_DIR, BATON_CONFIG_DIR: process.env.BATON_CONFIG_DIR };
  process.env.BATON_DATA_DIR = join(base, 'data');
  process.env.BATON_CONFIG_DIR = join(base, 'config');
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}

/** The tables in the `public` schema of the database at `url`, by name (what a migration makes shows here). */
export async function publicTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`);
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

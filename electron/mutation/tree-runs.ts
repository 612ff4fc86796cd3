/**
 * The orchestrator's own test runs on trees made from a GREEN commit's tree with some files
 * replaced or added (a mutant, a strengthening round's new tests): each tree is written as a git
 * tree object, nothing checked out, and run once by test-run.ts `runTree` (a fresh throwaway
 * database, the sandbox, canaries, integrity checks) in a run folder of its own beside the
 * cycles' run folders, so the next items' runs go on while these do.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CycleDeps } from '../engine/cycle-deps';
import { dependenciesFor, projectPackages } from '../engine/dependencies';
import { git } from '../engine/git';
import { runTree } from '../engine/test-run';
import type { ControlledRunResult } from '../runner/controlled-run';

export interface TreeRunJob {
  /** The tree the runs start from (the GREEN commit's). */
  readonly tree: string;
  /** The cycle's database, whose throwaway copies the runs get. */
  readonly database: string;
  readonly locked: readonly string[];
  /** The test files that run (empty: the project's testGlobs). */
  readonly testFiles: readonly string[];
  readonly timeoutMs: number;
}

export interface TreeRuns {
  /** Runs the job's tree with `files` (path → content) written over it. */
  run(files: ReadonlyMap<string, string>): Promise<ControlledRunResult>;
  close(): Promise<void>;
}

export async function openTreeRuns(deps: CycleDeps, job: TreeRunJob, name: string): Promise<TreeRuns> {
  // Beside the cycle's run folders, never one of them.
  const folder = join(dirname(deps.runSite.dir), `${name}-${randomBytes(5).toString('hex')}`);
  const site = { dir: join(folder, 'tree'), scratch: join(folder, 'scratch') };
  // The changed files' blobs and the index their trees are written with.
  const scratch = join(folder, 'git');
  await mkdir(scratch, { recursive: true });
  const readOnly = await projectPackages(deps);
  const settings = {
    ...deps.settings,
    testTimeoutSeconds: Math.ceil(job.timeoutMs / 1000),
    ...(job.testFiles.length ? { testGlobs: [...job.testFiles] } : {}),
  };
  return {
    async run(files) {
      deps.signal?.throwIfAborted();
      const tree = await treeWith(deps.root, job.tree, files, scratch);
      return gated(deps, () =>
        runTree({
          provider: deps.provider,
          parentDatabase: job.database,
          settings,
          worktree: deps.root,
          site,
          locked: job.locked,
          hide: deps.hide,
          dependencies: dependenciesFor(deps),
          readOnly,
          tree,
          // Beside the cycles: never a branch made ahead of need (the next verdict's), and the lowest CPU priority.
          background: true,
          ...(deps.signal ? { signal: deps.signal } : {}),
        }),
      );
    },
    close: () => rm(folder, { recursive: true, force: true }),
  };
}

/** Lanes built at once: these runs wait their turn like any other run (lane-gate.ts). */
const gated = <T>(deps: CycleDeps, work: () => Promise<T>): Promise<T> => (deps.gate ? deps.gate.run(work) : work());

/** `tree` with `files` written over it (added or replaced): a tree object in the repository, nothing checked out. */
export async function treeWith(root: string, tree: string, files: ReadonlyMap<string, string>, scratch: string): Promise<string> {
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  await git(root, ['read-tree', tree], env);
  const path = join(scratch, 'content');
  for (const [file, content] of files) {
    await writeFile(path, content);
    const blob = await git(root, ['hash-object', '-w', path]);
    const mode = (await git(root, ['ls-tree', tree, '--', file])).split(/\s+/)[0] || '100644';
    await git(root, ['update-index', '--add', '--cacheinfo', `${mode},${blob},${file}`], env);
  }
  return git(root, ['write-tree'], env);
}

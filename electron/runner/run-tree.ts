/**
 * What a test run runs: exactly the tree the orchestrator would commit. The worktree's content
 * (HEAD plus every change, untracked files included, what .gitignore ignores left out) is written
 * as a git tree; that tree is checked out into a clean run folder; the tests run there, and the
 * folder is thrown away. Nothing a run writes reaches the worktree or a commit, and code kept in an
 * ignored file is simply not there when the tests look for it.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, readlink, realpath, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from '../platform/git';

/** The tree of everything the worktree holds that git would commit (a temporary index, so the worktree's own is untouched). */
export async function treeOf(worktree: string, scratch: string): Promise<string> {
  await mkdir(scratch, { recursive: true });
  const env = { GIT_INDEX_FILE: join(scratch, 'tree.index') };
  await rm(env.GIT_INDEX_FILE, { force: true });
  await git(worktree, ['read-tree', 'HEAD'], env);
  await git(worktree, ['add', '-A', '--', '.'], env);
  return git(worktree, ['write-tree'], env);
}

/**
 * A clean copy of `tree` at `dir` (removed first), linked to `dependencies` (the project's
 * installed `node_modules`) or else to the worktree's, so the run sees those dependencies and
 * nothing else of the worktree.
 */
export async function checkoutTree(worktree: string, tree: string, dir: string, scratch: string, dependencies?: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const env = { GIT_INDEX_FILE: join(scratch, 'checkout.index') };
  await rm(env.GIT_INDEX_FILE, { force: true });
  await git(worktree, ['read-tree', tree], env);
  await git(worktree, ['checkout-index', '--all', '--force', `--prefix=${dir.endsWith('/') ? dir : `${dir}/`}`], env);
  // The project's own install when the caller names it: an agent may have replaced the worktree's
  // node_modules link with a folder of its own (ignored, so no diff shows it).
  if (dependencies !== undefined) {
    if (existsSync(dependencies) && !existsSync(join(dir, 'node_modules'))) await symlink(await realpath(dependencies), join(dir, 'node_modules'));
    return;
  }
  // A link stays the same link; a folder of installed dependencies (ignored, so not in the tree) is linked to.
  const link = join(worktree, 'node_modules');
  const target = (await readlink(link).catch(() => null)) ?? ((await lstat(link).catch(() => null))?.isDirectory() ? link : null);
  if (target !== null && !existsSync(join(dir, 'node_modules'))) await symlink(target, join(dir, 'node_modules'));
}

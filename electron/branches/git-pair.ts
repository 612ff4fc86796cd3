/**
 * The git half of a branch pair: the branch and its worktree under the data folder (outside the
 * repository, so an agent in one worktree never sees another's files or Baton's state).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { simpleGit, type SimpleGit } from 'simple-git';
import { BranchError } from './provider';

export interface Worktree {
  readonly path: string;
  /** Short branch name, or null for a detached HEAD. */
  readonly branch: string | null;
}

const git = (root: string): SimpleGit => simpleGit({ baseDir: root, trimmed: true });

const gitMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error)).trim().split('\n')[0] ?? '';

export const worktreePath = (dataDir: string, name: string): string => path.join(dataDir, 'worktrees', name);

export async function localBranches(root: string): Promise<string[]> {
  const out = await git(root).raw(['for-each-ref', '--format=%(refname:short)', 'refs/heads/']);
  return out.split('\n').filter(Boolean);
}

export async function gitBranchExists(root: string, branch: string): Promise<boolean> {
  // Not `show-ref --quiet`: simple-git reports a failing command with empty stderr as success.
  // A pattern also matches refs below it (`feature` matches `feature/a`), hence the exact compare.
  const out = await git(root).raw(['for-each-ref', '--format=%(refname)', `refs/heads/${branch}`]);
  return out.split('\n').includes(`refs/heads/${branch}`);
}

/** Makes `branch` at the tip of `from`; fails clearly when `from` has no commit yet. */
export async function createGitBranch(root: string, branch: string, from: string): Promise<void> {
  if (!(await gitBranchExists(root, from))) {
    throw new BranchError(
      'not-found',
      `The git branch "${from}" does not exist in ${root} (a new repository has none until its first commit), so "${branch}" cannot be made from it. Commit on "${from}" first, or pass another --parent.`,
    );
  }
  try {
    await git(root).raw(['branch', '--no-track', branch, from]);
  } catch (cause) {
    throw new BranchError('failed', `git could not create the branch "${branch}" from "${from}" in ${root}: ${gitMessage(cause)}`, { cause });
  }
}

export async function addWorktree(root: string, dir: string, branch: string): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  try {
    await git(root).raw(['worktree', 'add', '--quiet', dir, branch]);
  } catch (cause) {
    throw new BranchError(
      'failed',
      `git could not add a worktree for "${branch}" at ${dir}: ${gitMessage(cause)}. If the branch is checked out elsewhere, switch that checkout to another branch first.`,
      { cause },
    );
  }
}

/** Removes the worktree even with uncommitted changes (the pair is being deleted); absent is fine. */
export async function removeWorktree(root: string, dir: string): Promise<void> {
  try {
    await git(root).raw(['worktree', 'remove', '--force', '--force', dir]);
  } catch {
    // Not (or no longer) a registered worktree: remove what is left on disk and forget it in git.
    await fs.rm(dir, { recursive: true, force: true });
    await git(root)
      .raw(['worktree', 'prune'])
      .catch(() => undefined);
  }
}

/** `git branch -D`; an absent branch is fine. */
export async function deleteGitBranch(root: string, branch: string): Promise<void> {
  if (!(await gitBranchExists(root, branch))) return;
  try {
    await git(root).raw(['branch', '-D', branch]);
  } catch (cause) {
    throw new BranchError('failed', `git could not delete the branch "${branch}" in ${root}: ${gitMessage(cause)}`, { cause });
  }
}

export async function listWorktrees(root: string): Promise<Worktree[]> {
  const out = await git(root).raw(['worktree', 'list', '--porcelain']);
  const trees: Worktree[] = [];
  for (const block of out.split(/\n\s*\n/)) {
    const dir = /^worktree (.+)$/m.exec(block)?.[1];
    if (!dir) continue;
    const ref = /^branch refs\/heads\/(.+)$/m.exec(block)?.[1] ?? null;
    trees.push({ path: dir, branch: ref });
  }
  return trees;
}

/** Whether every commit of `branch` is in `into` (it is merged); null when git cannot tell (a branch is missing). */
export async function isMerged(root: string, branch: string, into: string): Promise<boolean | null> {
  const run = (args: string[]) =>
    new Promise<{ code: unknown; stdout: string }>((resolve) =>
      execFile('git', ['-C', root, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
        resolve({ code: error ? ((error as { code?: unknown }).code ?? -1) : 0, stdout }),
      ),
    );
  const contained = await run(['merge-base', '--is-ancestor', `refs/heads/${branch}`, `refs/heads/${into}`]);
  // Exit 1 is git's "not an ancestor"; anything else (a missing ref) says nothing.
  if (contained.code !== 0) return contained.code === 1 ? false : null;
  // A branch whose head lies on its parent's own line (the commit it was cut from, or one before)
  // has nothing of its own to merge: "merged" would read as shipped. Baton merges with a merge commit.
  const [head, line] = await Promise.all([run(['rev-parse', `refs/heads/${branch}`]), run(['rev-list', '--first-parent', `refs/heads/${into}`])]);
  return line.code === 0 && line.stdout.split('\n').includes(head.stdout.trim()) ? null : true;
}

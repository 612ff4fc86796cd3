/**
 * The git the cycle needs: a fresh detached worktree per agent turn, commits made by the
 * orchestrator (never the agent) with the evidence trailer, and fast-forwarding the experiment
 * branch to them.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { git } from '../platform/git';

export { git };

/** Keep what the orchestrator adds to worktrees (the shared node_modules link, test reports) out of commits. */
export async function excludeFromCommits(root: string, patterns: readonly string[]): Promise<void> {
  const common = resolve(root, await git(root, ['rev-parse', '--git-common-dir']));
  const file = join(common, 'info', 'exclude');
  const current = await readFile(file, 'utf8').catch(() => '');
  const missing = patterns.filter((p) => !current.split('\n').includes(p));
  if (missing.length === 0) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, `${current.endsWith('\n') || current === '' ? '' : '\n'}# added by Baton\n${missing.join('\n')}\n`);
}

/**
 * A fresh detached worktree at `ref`; whatever was at `path` before (a crashed turn) is removed
 * first. `--force` also takes over a registration whose folder is gone, so no prune is needed.
 */
export async function addWorktree(root: string, path: string, ref: string): Promise<void> {
  if (existsSync(path)) await removeWorktree(root, path);
  await mkdir(dirname(path), { recursive: true });
  await git(root, ['worktree', 'add', '--detach', '--force', '--quiet', path, ref]);
  // Worktrees have no installed dependencies; share the main checkout's.
  if (existsSync(join(root, 'node_modules')) && !existsSync(join(path, 'node_modules'))) await symlink(join(root, 'node_modules'), join(path, 'node_modules'));
}

/** Removes a turn's worktree and its registration (one git call when git can do it, else by hand). */
export async function removeWorktree(root: string, path: string): Promise<void> {
  if (!existsSync(path)) return;
  const removed = await git(root, ['worktree', 'remove', '--force', path]).then(
    () => true,
    () => false,
  );
  if (removed) return;
  await rm(path, { recursive: true, force: true });
  await git(root, ['worktree', 'prune']).catch(() => undefined);
}

/** Commit everything in the worktree as Baton; returns the commit (HEAD when there was nothing to commit). */
export async function commitAll(worktree: string, subject: string, evidence: string): Promise<string> {
  await git(worktree, ['add', '-A', '--', '.']);
  // `diff --cached --quiet` exits 1 when something is staged.
  const staged = await git(worktree, ['diff', '--cached', '--quiet']).then(
    () => false,
    () => true,
  );
  if (staged) {
    await git(worktree, [
      '-c',
      'user.name=Baton',
      '-c',
      'user.email=orchestrator@baton.invalid',
      'commit',
      '--no-verify',
      '-q',
      '-m',
      `${subject}\n\nBaton-Evidence: ${evidence}`,
    ]);
  }
  return git(worktree, ['rev-parse', 'HEAD']);
}

/** Move the branch checked out in `worktree` forward to `commit` (the branch never rewinds). */
export async function fastForward(worktree: string, commit: string): Promise<void> {
  await git(worktree, ['merge', '--ff-only', '-q', commit]);
}

/** The commit on `ref` whose trailer names `evidence`, or null. */
export async function commitWithEvidence(root: string, ref: string, evidence: string): Promise<string | null> {
  const out = await git(root, ['log', ref, '--format=%H', '--fixed-strings', `--grep=Baton-Evidence: ${evidence}`]);
  return out.split('\n').find((l) => l.trim()) ?? null;
}

export async function diffBetween(root: string, from: string, to: string): Promise<string> {
  return git(root, ['diff', '--no-color', `${from}..${to}`]);
}

/**
 * Commits exactly `tree` — the tree the orchestrator's test run checked out and ran — on top of
 * `parent`, as Baton, with the evidence trailer. Nothing else can slip in: no index, no worktree.
 */
export async function commitTree(root: string, tree: string, parent: string, message: string): Promise<string> {
  return git(root, ['commit-tree', tree, '-p', parent, '-m', message], {
    GIT_AUTHOR_NAME: 'Baton',
    GIT_AUTHOR_EMAIL: 'orchestrator@baton.invalid',
    GIT_COMMITTER_NAME: 'Baton',
    GIT_COMMITTER_EMAIL: 'orchestrator@baton.invalid',
  });
}

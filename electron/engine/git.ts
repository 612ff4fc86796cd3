/**
 * The git the cycle needs: a fresh detached worktree per agent turn, commits made by the
 * orchestrator (never the agent) with the evidence trailer, and fast-forwarding the experiment
 * branch to them.
 */
import { existsSync } from 'node:fs';
import { appendFile, lstat, mkdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { git } from '../platform/git';
import { KeyedLock } from '../platform/keyed-lock';

export { git };

/** Lanes built at once add and remove worktrees of one repository: its worktree registry changes one call at a time. */
const registry = new KeyedLock();
const worktreeCall = (root: string, args: string[]) => registry.run(resolve(root), () => git(root, args));

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
 * Each worktree this process made, with its administrative folder (`<git dir>/worktrees/<name>`),
 * read from its `.git` file right after `git worktree add`, before any agent could touch it.
 */
const adminDirs = new Map<string, string>();

/**
 * A fresh detached worktree at `ref`; whatever was at `path` before (a crashed turn) is removed
 * first. `--force` also takes over a registration whose folder is gone, so no prune is needed.
 */
export async function addWorktree(root: string, path: string, ref: string): Promise<void> {
  if (existsSync(path)) await removeWorktree(root, path);
  await mkdir(dirname(path), { recursive: true });
  await worktreeCall(root, ['worktree', 'add', '--detach', '--force', '--quiet', path, ref]);
  const admin = /^gitdir: (.+)$/m.exec(await readFile(join(path, '.git'), 'utf8').catch(() => ''))?.[1];
  if (admin) adminDirs.set(resolve(path), resolve(path, admin.trim()));
  await linkDependencies(root, path);
}

/** Worktrees have no installed dependencies; they share the main checkout's. */
async function linkDependencies(root: string, path: string): Promise<void> {
  if (existsSync(join(root, 'node_modules')) && !existsSync(join(path, 'node_modules'))) await symlink(join(root, 'node_modules'), join(path, 'node_modules'));
}

/**
 * The worktree at `path`, holding exactly `ref`'s commit and nothing else — reused when this
 * process made it (one worktree serves all of a cycle's steps, issue 17), else made afresh.
 *
 * Reuse must be as clean as a fresh checkout: nothing an earlier turn left may reach a later step's
 * tree. So the `.git` pointer is rewritten from what git said when the worktree was made (git runs
 * with that folder named, never the pointer an agent could have edited), the installed
 * dependencies link is replaced unless it is the link Baton made, tracked files are reset, every
 * untracked and ignored file is removed, and `git status` must then report nothing. Anything short
 * of that (a folder git cannot clean, a worktree it no longer knows) falls back to a fresh one.
 */
export async function resetWorktree(root: string, path: string, ref: string): Promise<void> {
  const admin = adminDirs.get(resolve(path));
  const info = await lstat(path).catch(() => null);
  if (!admin || !info?.isDirectory()) return addWorktree(root, path, ref);
  try {
    await cleanWorktree(root, path, admin, ref);
  } catch {
    await addWorktree(root, path, ref);
  }
}

async function cleanWorktree(root: string, path: string, admin: string, ref: string): Promise<void> {
  const pointer = join(path, '.git');
  await rm(pointer, { recursive: true, force: true });
  await writeFile(pointer, `gitdir: ${admin}\n`, { flag: 'wx' });
  const link = join(path, 'node_modules');
  const linked = await readlink(link).catch(() => null);
  if (linked !== join(root, 'node_modules')) await rm(link, { recursive: true, force: true });
  const env = { GIT_DIR: admin, GIT_WORK_TREE: path };
  await git(path, ['reset', '--hard', '--quiet', ref], env);
  // -x: ignored files too (a run never sees them, but the next agent would); -ff: nested repositories.
  await git(path, ['clean', '-ffdxq', '-e', '/node_modules'], env);
  await linkDependencies(root, path);
  const left = (await git(path, ['status', '--porcelain', '--ignored', '--untracked-files=all', '-z'], env))
    .split('\0')
    .filter((entry) => entry && entry.slice(3) !== 'node_modules');
  if (left.length) throw new Error(`the worktree ${path} still holds ${left.slice(0, 5).join(', ')} after it was cleaned`);
}

/** Removes a turn's worktree and its registration (one git call when git can do it, else by hand). */
export async function removeWorktree(root: string, path: string): Promise<void> {
  adminDirs.delete(resolve(path));
  if (!existsSync(path)) return;
  const removed = await worktreeCall(root, ['worktree', 'remove', '--force', path]).then(
    () => true,
    () => false,
  );
  if (removed) return;
  await rm(path, { recursive: true, force: true });
  await worktreeCall(root, ['worktree', 'prune']).catch(() => undefined);
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

/**
 * The commit `refs/heads/<branch>` points at, read from the repository's files (a loose ref, else
 * packed-refs) instead of a `git rev-parse` process per look (issue 17); anything unusual — the
 * main checkout's `.git` is not a folder, reftable, a symbolic ref — asks git.
 */
export async function branchHead(root: string, branch: string): Promise<string> {
  const dir = join(root, '.git');
  const ref = `refs/heads/${branch}`;
  const hash = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
  const loose = (await readFile(join(dir, ref), 'utf8').catch(() => null))?.trim();
  if (loose !== undefined && hash.test(loose)) return loose;
  if (loose === undefined && !existsSync(join(dir, 'reftable')) && (await lstat(dir).catch(() => null))?.isDirectory()) {
    const packed = await readFile(join(dir, 'packed-refs'), 'utf8').catch(() => '');
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    const found = line?.slice(0, line.indexOf(' '));
    if (found && hash.test(found)) return found;
  }
  return git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
}

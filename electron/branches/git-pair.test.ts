import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addWorktree, createGitBranch, deleteGitBranch, gitBranchExists, listWorktrees, localBranches, removeWorktree } from './git-pair';
import { BranchError } from './provider';

const run = promisify(execFile);
let base: string;
let repo: string;

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'baton-gitpair-')));
  repo = join(base, 'repo');
  await run('git', ['init', '-q', '-b', 'main', repo]);
  await writeFile(join(repo, 'README.md'), 'hello\n');
  await run('git', ['-C', repo, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'init']);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('git pairing', () => {
  it('makes a branch and a worktree, lists them, and removes both even with uncommitted changes', async () => {
    const tree = join(base, 'data', 'worktrees', 'feature-a');
    await createGitBranch(repo, 'feature/a', 'main');
    await addWorktree(repo, tree, 'feature/a');
    expect(await localBranches(repo)).toEqual(expect.arrayContaining(['main', 'feature/a']));
    expect(await listWorktrees(repo)).toEqual(expect.arrayContaining([{ path: tree, branch: 'feature/a' }]));
    await writeFile(join(tree, 'scratch.txt'), 'uncommitted\n');

    await removeWorktree(repo, tree);
    await deleteGitBranch(repo, 'feature/a');
    expect(existsSync(tree)).toBe(false);
    expect(await gitBranchExists(repo, 'feature/a')).toBe(false);
    expect((await listWorktrees(repo)).map((w) => w.path)).toEqual([repo]);
  });

  it('refuses to branch from a branch that does not exist (or has no commit yet), saying what to do', async () => {
    const failure = await createGitBranch(repo, 'x', 'nothing-here').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BranchError);
    expect((failure as Error).message).toMatch(/"nothing-here" does not exist.*Commit on "nothing-here" first/);
  });

  it('removing a worktree or branch that is already gone is not an error', async () => {
    await removeWorktree(repo, join(base, 'data', 'worktrees', 'never'));
    await deleteGitBranch(repo, 'never');
  });
});

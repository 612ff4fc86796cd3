/**
 * One worktree serves all of a cycle's steps (issue 17), so resetting it must be as good as a fresh
 * checkout: whatever an earlier turn left — changed, deleted, untracked, ignored files, a nested
 * repository, its own node_modules, an edited `.git` pointer — is gone, and the tree a test run
 * would take from it is exactly the commit's. Real git repositories in temporary folders.
 */
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotTree } from '../platform/tree-snapshot';
import { makeTempDir, removeDir } from '../project/temp-project.fixture';
import { treeOf } from '../runner/run-tree';
import { addWorktree, branchHead, git, removeWorktree, resetWorktree } from './git';

let base: string;
let root: string;
let worktree: string;

const commitFiles = async (files: Record<string, string>, message: string): Promise<string> => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await git(root, ['add', '-A']);
  await git(root, ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', message]);
  return git(root, ['rev-parse', 'HEAD']);
};

/** Path → content of everything in the worktree but git's pointer and the dependencies link. */
const contents = async (dir: string): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  for (const [path, state] of await snapshotTree(dir, { content: true }))
    if (path !== '.git' && path !== 'node_modules') out[path] = state.content!.toString('utf8');
  return out;
};

beforeEach(async () => {
  base = await makeTempDir('baton-worktree-');
  root = join(base, 'app');
  worktree = join(base, 'turns', 'F-1-T1-work');
  await mkdir(join(root, 'node_modules', 'dep'), { recursive: true });
  await git(base, ['init', '-q', '-b', 'main', root]);
  await writeFile(join(root, '.git', 'info', 'exclude'), '/node_modules\n');
  await commitFiles({ '.gitignore': '*.log\nbuild/\n', 'src/calc.js': 'export const add = (a, b) => a + b;\n', 'test/calc.test.js': 'test 1\n' }, 'start');
});
afterEach(() => removeDir(base));

describe('a worktree reused across a cycle’s steps', () => {
  it('holds exactly the commit after a reset, whatever the earlier turn left in it', async () => {
    await addWorktree(root, worktree, 'main');
    // Held open, the folder's inode cannot be handed to a new folder: the same inode after means reused, not re-made.
    const held = await open(worktree, 'r');
    const { ino } = await held.stat();
    // An earlier turn: a changed and a deleted tracked file, new files (one ignored, one in an ignored
    // folder), a nested repository, its own node_modules, and a `.git` pointer sent elsewhere.
    await writeFile(join(worktree, 'src/calc.js'), 'export const add = () => 42;\n');
    await rm(join(worktree, 'test/calc.test.js'));
    await writeFile(join(worktree, 'src/extra.js'), 'left behind\n');
    await writeFile(join(worktree, 'debug.log'), 'ignored, so a run never sees it, but the next agent would\n');
    await mkdir(join(worktree, 'build'), { recursive: true });
    await writeFile(join(worktree, 'build/out.js'), 'ignored folder\n');
    await git(worktree, ['init', '-q', 'vendor/nested']);
    await writeFile(join(worktree, 'vendor/nested/x.js'), 'nested\n');
    await rm(join(worktree, 'node_modules'));
    await mkdir(join(worktree, 'node_modules', 'evil'), { recursive: true });
    await writeFile(join(worktree, 'node_modules', 'evil', 'index.js'), 'planted\n');
    const elsewhere = join(base, 'elsewhere');
    await git(base, ['init', '-q', elsewhere]);
    await writeFile(join(worktree, '.git'), `gitdir: ${join(elsewhere, '.git')}\n`);
    // Meanwhile the branch moved on (the orchestrator committed the tested tree).
    const head = await commitFiles({ 'test/calc.test.js': 'test 1\ntest 2\n' }, 'locked');

    await resetWorktree(root, worktree, 'main');

    expect(await contents(worktree)).toEqual({
      '.gitignore': '*.log\nbuild/\n',
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      'test/calc.test.js': 'test 1\ntest 2\n',
    });
    expect(await readlink(join(worktree, 'node_modules'))).toBe(join(root, 'node_modules'));
    expect(await git(worktree, ['rev-parse', 'HEAD'])).toBe(head);
    // The tree a test run takes from the worktree is the commit's own.
    expect(await treeOf(worktree, join(base, 'scratch'))).toBe(await git(root, ['rev-parse', 'main^{tree}']));
    expect(existsSync(join(elsewhere, 'src'))).toBe(false);
    expect((await stat(worktree)).ino).toBe(ino);
    await held.close();
  });

  it('is made afresh when this process did not make it, so nothing found there is trusted', async () => {
    await mkdir(join(base, 'turns'), { recursive: true });
    await git(root, ['worktree', 'add', '--detach', '-q', worktree, 'main']);
    await writeFile(join(worktree, 'stray.js'), 'from a run this process never saw\n');
    await writeFile(join(worktree, 'src/calc.js'), 'changed\n');
    await resetWorktree(root, worktree, 'main');
    expect(await contents(worktree)).toEqual({
      '.gitignore': '*.log\nbuild/\n',
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      'test/calc.test.js': 'test 1\n',
    });
    await removeWorktree(root, worktree);
    expect(existsSync(worktree)).toBe(false);
  });

  it('is made when it is missing (a step resumed after a crash)', async () => {
    await resetWorktree(root, worktree, 'main');
    expect(Object.keys(await contents(worktree)).sort()).toEqual(['.gitignore', 'src/calc.js', 'test/calc.test.js']);
    expect(await readFile(join(worktree, '.git'), 'utf8')).toMatch(/^gitdir: /);
  });
});

describe('branchHead', () => {
  it('reads a loose ref and a packed one as git does', async () => {
    const first = await git(root, ['rev-parse', 'main']);
    expect(await branchHead(root, 'main')).toBe(first);
    await git(root, ['branch', 'baton/f-1--s-1']);
    await git(root, ['pack-refs', '--all']);
    expect(existsSync(join(root, '.git', 'refs', 'heads', 'baton', 'f-1--s-1'))).toBe(false);
    expect(await branchHead(root, 'baton/f-1--s-1')).toBe(first);
    const second = await commitFiles({ 'src/more.js': 'more\n' }, 'more');
    expect(await branchHead(root, 'main')).toBe(second);
    await expect(branchHead(root, 'no-such-branch')).rejects.toThrow(/rev-parse/);
  });
});

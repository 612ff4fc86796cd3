import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { revertChanges } from './revert';
import { diffTrees } from './tree-diff';
import { snapshotTree } from './tree-snapshot';

/** Reverting runs outside any sandbox: whatever a turn did to the tree, it must never write or delete outside it. */
let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-revert-'));
  root = join(base, 'worktree');
  outside = join(base, 'outside');
  await mkdir(join(root, 'test'), { recursive: true });
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'test/a.test.js'), 'the locked test\n');
  await writeFile(join(root, 'src/a.js'), 'code\n');
  await writeFile(join(outside, 'a.test.js'), 'a file of the person\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

async function turn(change: () => Promise<void>): Promise<void> {
  const before = await snapshotTree(root, { content: true });
  await change();
  await revertChanges(root, diffTrees(before, await snapshotTree(root, { content: true })));
}

describe('revertChanges', () => {
  it('a folder replaced by a link to outside: the folder comes back, the file outside is neither deleted nor overwritten', async () => {
    await turn(async () => {
      await rm(join(root, 'test'), { recursive: true });
      await symlink(outside, join(root, 'test'));
    });
    expect(await readFile(join(outside, 'a.test.js'), 'utf8')).toBe('a file of the person\n');
    expect(await readFile(join(root, 'test/a.test.js'), 'utf8')).toBe('the locked test\n');
  });

  it('a file turned into a folder is put back as the file', async () => {
    await turn(async () => {
      await rm(join(root, 'src/a.js'));
      await mkdir(join(root, 'src/a.js'));
      await writeFile(join(root, 'src/a.js/inner.js'), 'x');
    });
    expect(await readFile(join(root, 'src/a.js'), 'utf8')).toBe('code\n');
  });

  it('a node_modules link replaced by a folder is put back as the link', async () => {
    await symlink(outside, join(root, 'node_modules'));
    await turn(async () => {
      await rm(join(root, 'node_modules'));
      await mkdir(join(root, 'node_modules/fake'), { recursive: true });
    });
    expect(await readlink(join(root, 'node_modules'))).toBe(outside);
    expect(existsSync(join(outside, 'a.test.js'))).toBe(true);
  });
});

import { chmod, mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { diffTrees, touchedPaths } from './tree-diff';
import { snapshotTree } from './tree-snapshot';

describe('what an agent turn changed in a real worktree', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-tree-'));
    await mkdir(join(dir, 'src'));
    await mkdir(join(dir, 'test'));
    await mkdir(join(dir, '.git'));
    await mkdir(join(dir, 'node_modules'));
    await writeFile(join(dir, 'src/a.js'), 'export const a = 1;\n');
    await writeFile(join(dir, 'src/b.js'), 'export const b = 2;\n');
    await writeFile(join(dir, 'test/a.test.js'), 'test a\n');
    await writeFile(join(dir, 'run.sh'), 'echo hi\n');
    await writeFile(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('sees additions, changes, deletions, renames, mode changes and symlinks; ignores .git and node_modules', async () => {
    const before = await snapshotTree(dir);
    await writeFile(join(dir, 'src/a.js'), 'export const a = 42;\n');
    await unlink(join(dir, 'src/b.js'));
    await rename(join(dir, 'test/a.test.js'), join(dir, 'test/renamed.test.js'));
    await chmod(join(dir, 'run.sh'), 0o755);
    await symlink('../.baton/project.json', join(dir, 'src/link'));
    await writeFile(join(dir, 'src/new.js'), 'new\n');
    await writeFile(join(dir, '.git/HEAD'), 'tampered\n');
    await writeFile(join(dir, 'node_modules/x.js'), 'dep\n');
    const changes = diffTrees(before, await snapshotTree(dir));
    expect(changes.map((c) => [c.kind, c.path])).toEqual([
      ['mode', 'run.sh'],
      ['changed', 'src/a.js'],
      ['deleted', 'src/b.js'],
      ['added', 'src/link'],
      ['added', 'src/new.js'],
      ['renamed', 'test/renamed.test.js'],
    ]);
    const link = changes.find((c) => c.path === 'src/link');
    expect(link?.kind === 'added' && link.after.symlink).toBe('../.baton/project.json');
    const renamed = changes.find((c) => c.kind === 'renamed')!;
    expect(touchedPaths(renamed)).toEqual(['test/a.test.js', 'test/renamed.test.js']);
  });

  it('an agent that wrote nothing changed nothing', async () => {
    const before = await snapshotTree(dir);
    expect(diffTrees(before, await snapshotTree(dir))).toEqual([]);
  });
});

import { mkdir, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { revertChanges } from '../platform/revert';
import { judgeScope } from './scope';
import { diffTrees } from '../platform/tree-diff';
import { snapshotTree } from '../platform/tree-snapshot';

const NAVIGATOR = { allowed: ['test/**'], protected: ['package.json', 'vitest.config.ts'] };
const DRIVER = { allowed: ['src/**', 'migrations/**'], protected: ['package.json', 'vitest.config.ts'] };

describe('write scopes over a real worktree', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-scope-'));
    for (const d of ['src', 'test', '.baton', 'migrations']) await mkdir(join(dir, d));
    await writeFile(join(dir, 'src/shop.js'), 'export const total = () => 0;\n');
    await writeFile(join(dir, 'test/shop.test.js'), "test('total', () => {});\n");
    await writeFile(join(dir, 'package.json'), '{"scripts":{"test":"node --test"}}\n');
    await writeFile(join(dir, '.baton/project.json'), '{}\n');
    await writeFile(join(dir, '.git'), 'gitdir: /elsewhere\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a Navigator writing source, a Driver writing tests, anyone writing .baton or package.json: out of scope and reverted', async () => {
    const before = await snapshotTree(dir, { content: true });
    await writeFile(join(dir, 'src/shop.js'), 'export const total = () => 42;\n'); // Driver's job
    await writeFile(join(dir, 'test/new.test.js'), 'new test\n'); // Navigator's job
    await writeFile(join(dir, 'package.json'), '{"scripts":{"test":"true"}}\n');
    await writeFile(join(dir, '.baton/project.json'), '{"repairBudget":99}\n');
    await writeFile(join(dir, '.git'), 'gitdir: /tampered\n');
    const changes = diffTrees(before, await snapshotTree(dir));
    const judged = judgeScope(changes, NAVIGATOR);
    expect(judged.inScope.map((c) => c.path)).toEqual(['test/new.test.js']);
    expect(judged.outOfScope.map((o) => [o.change.path, o.why.split(' ').slice(1).join(' ')])).toEqual([
      ['.baton/project.json', 'is protected'],
      ['.git', 'is protected'],
      ['package.json', 'is protected'],
      ['src/shop.js', "is outside this role's write scope (test/**)"],
    ]);
    await revertChanges(
      dir,
      judged.outOfScope.map((o) => o.change),
    );
    expect(await readFile(join(dir, 'src/shop.js'), 'utf8')).toBe('export const total = () => 0;\n');
    expect(await readFile(join(dir, 'package.json'), 'utf8')).toContain('node --test');
    expect(await readFile(join(dir, '.git'), 'utf8')).toBe('gitdir: /elsewhere\n');
    expect(await readFile(join(dir, 'test/new.test.js'), 'utf8')).toBe('new test\n'); // in scope: kept
  });

  it('a Driver deleting or renaming a test is reverted; an escaping symlink is refused', async () => {
    const before = await snapshotTree(dir, { content: true });
    await rename(join(dir, 'test/shop.test.js'), join(dir, 'src/moved.js'));
    await symlink('../../etc/passwd', join(dir, 'src/pw'));
    await unlink(join(dir, '.baton/project.json'));
    const judged = judgeScope(diffTrees(before, await snapshotTree(dir)), DRIVER);
    expect(judged.inScope).toEqual([]);
    expect(judged.outOfScope.map((o) => o.change.kind).sort()).toEqual(['added', 'deleted', 'renamed']);
    await revertChanges(
      dir,
      judged.outOfScope.map((o) => o.change),
    );
    expect(diffTrees(before, await snapshotTree(dir))).toEqual([]);
  });
});

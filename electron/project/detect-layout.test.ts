import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProject } from './index';
import { makeTempDir, minimalFeature, removeDir, writeTree } from './temp-project.fixture';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const open = async (target: string) => {
  const result = await readProject(target);
  if (!result.ok) throw new Error(`expected a project, got ${result.error.code}: ${result.error.message}`);
  return result.value;
};

describe('readProject layout detection', () => {
  it.each([
    ['.baton', 'baton', false],
    ['.consort', 'consort', true],
    ['.sftdd', 'sftdd', true],
  ] as const)('reads a %s folder as layout %s (readOnly %s)', async (folder, layout, readOnly) => {
    await writeTree(dir, minimalFeature(folder));
    const view = await open(dir);
    expect(view).toMatchObject({ layout, readOnly, root: dir, artifactRoot: path.join(dir, folder), name: path.basename(dir) });
    expect(view.features.map((feature) => feature.id)).toEqual(['F-1']);
    expect(view.problems).toEqual([]);
  });

  it('reads a folder holding features/ directly as a bare Consort artifact root', async () => {
    await writeTree(dir, minimalFeature('.'));
    const view = await open(dir);
    expect(view).toMatchObject({ layout: 'consort', readOnly: true, root: dir, artifactRoot: dir });
    expect(view.features).toHaveLength(1);
  });

  it.each([
    ['.sftdd', 'sftdd', true],
    ['.baton', 'baton', false],
    ['.consort', 'consort', true],
  ] as const)('names a bare artifact root called %s by its folder name', async (folder, layout, readOnly) => {
    const root = path.join(dir, folder);
    await writeTree(root, minimalFeature('.'));
    const view = await open(root);
    expect(view).toMatchObject({ layout, readOnly, root, artifactRoot: root, name: folder });
  });

  it('prefers .baton over .consort over .sftdd', async () => {
    await writeTree(dir, { ...minimalFeature('.baton', 'F-b'), ...minimalFeature('.consort', 'F-c'), ...minimalFeature('.sftdd', 'F-s') });
    expect((await open(dir)).features.map((f) => f.id)).toEqual(['F-b']);
    await removeDir(path.join(dir, '.baton'));
    expect((await open(dir)).features.map((f) => f.id)).toEqual(['F-c']);
    await removeDir(path.join(dir, '.consort'));
    expect((await open(dir)).features.map((f) => f.id)).toEqual(['F-s']);
  });

  it('prefers a .consort folder over a features/ folder beside it', async () => {
    await writeTree(dir, { ...minimalFeature('.consort', 'F-c'), ...minimalFeature('.', 'F-bare') });
    const view = await open(dir);
    expect(view.artifactRoot).toBe(path.join(dir, '.consort'));
    expect(view.features.map((f) => f.id)).toEqual(['F-c']);
  });

  it('resolves a relative path to an absolute root', async () => {
    await writeTree(dir, minimalFeature('.baton'));
    const view = await open(path.relative(process.cwd(), dir));
    expect(view.root).toBe(dir);
  });

  it('reports not-found for a missing folder and for a file', async () => {
    const missing = await readProject(path.join(dir, 'nope'));
    expect(missing).toMatchObject({ ok: false, error: { code: 'not-found' } });
    if (!missing.ok) expect(missing.error.message).toContain(path.join(dir, 'nope'));
    await writeTree(dir, { 'file.txt': 'hello' });
    const file = await readProject(path.join(dir, 'file.txt'));
    expect(file).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('reports not-a-project, saying where and what to do', async () => {
    await writeTree(dir, { 'README.md': '# not a project' });
    const result = await readProject(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('not-a-project');
    expect(result.error.message).toBe(
      `${dir} has no .baton/, .consort/ or .sftdd/ folder and no features/ folder. ` +
        `Run \`baton init ${dir}\` to start a Baton project, or open a Consort project folder.`,
    );
  });

  it('does not treat a .baton file (not a folder) as a layout', async () => {
    await writeTree(dir, { '.baton': 'not a folder', ...minimalFeature('.consort') });
    expect((await open(dir)).layout).toBe('consort');
  });

  it('passes over a .baton symlink that leads outside the project, and says so', async () => {
    const outside = await makeTempDir('baton-outside-');
    try {
      await writeTree(outside, minimalFeature('.', 'F-outside'));
      await fs.symlink(outside, path.join(dir, '.baton'));
      await writeTree(dir, minimalFeature('.consort', 'F-inside'));
      const view = await open(dir);
      expect(view.layout).toBe('consort');
      expect(view.features.map((f) => f.id)).toEqual(['F-inside']);
      expect(view.problems).toHaveLength(1);
      expect(view.problems[0]).toMatchObject({ file: '.baton' });
      expect(view.problems[0]!.message).toContain('symlink points outside the project; not followed');
    } finally {
      await removeDir(outside);
    }
  });
});

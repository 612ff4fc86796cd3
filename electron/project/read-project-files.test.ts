/** File-system hazards (size, permissions, folders, symlinks) and what the reader counts and sorts. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectView } from '../../shared/model';
import { MAX_ARTIFACT_BYTES, readProject } from './index';
import { makeTempDir, minimalFeature, removeDir, runningAsRoot, writeTree, type FileTree } from './temp-project.fixture';

const F = '.baton/features/F-1';
let dir: string;
let outside: string;
beforeEach(async () => {
  dir = await makeTempDir();
  outside = await makeTempDir('baton-outside-');
});
afterEach(async () => {
  await removeDir(dir);
  await removeDir(outside);
});

const load = async (files: FileTree = {}, before?: () => Promise<void>): Promise<ProjectView> => {
  await writeTree(dir, { ...minimalFeature('.baton'), ...files });
  await before?.();
  const result = await readProject(dir);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('oversized and unreadable files', () => {
  it('does not read a file over 10 MB', async () => {
    const view = await load({}, async () => {
      // A sparse file: the size is real, the disk use is not.
      await fs.truncate(path.join(dir, F, 'test-list.json'), MAX_ARTIFACT_BYTES + 1);
    });
    expect(view.problems).toEqual([
      {
        file: `${F}/test-list.json`,
        message: `is 10.0 MB (${MAX_ARTIFACT_BYTES + 1} bytes), over the 10 MB limit for an artifact; not read`,
      },
    ]);
    expect(view.features[0]!.testList).toEqual([]);
    expect(view.features[0]!.stories).toHaveLength(1);
  });

  it('reads a file of exactly 10 MB', async () => {
    const view = await load({}, async () => {
      const file = path.join(dir, F, 'gates.json');
      const json = '{"gates": {"spec": {"status": "open"}}}';
      await fs.writeFile(file, json + ' '.repeat(MAX_ARTIFACT_BYTES - json.length));
    });
    expect(view.problems).toEqual([]);
    expect(view.features[0]!.gates).toHaveLength(1);
  });

  it('reports a folder where a file should be (EISDIR)', async () => {
    const view = await load({}, async () => {
      await fs.rm(path.join(dir, F, 'test-list.json'));
      await fs.mkdir(path.join(dir, F, 'test-list.json'));
    });
    expect(view.problems).toEqual([{ file: `${F}/test-list.json`, message: 'is a folder where a file was expected (EISDIR); rename or remove it' }]);
    expect(view.features[0]!.stories).toHaveLength(1);
  });

  // chmod cannot stop root from reading, so under root the EISDIR case above stands in for it.
  if (runningAsRoot()) {
    console.log('skipped "no permission to read": running as root, which reads any file regardless of chmod');
  }
  it.skipIf(runningAsRoot())('reports a file it has no permission to read', async () => {
    const file = path.join(dir, F, 'test-list.json');
    const view = await load({}, () => fs.chmod(file, 0o000));
    await fs.chmod(file, 0o644);
    expect(view.problems).toEqual([{ file: `${F}/test-list.json`, message: 'cannot be read (EACCES: permission denied); check its permissions' }]);
  });

  it('ignores a plain file inside features/', async () => {
    const view = await load({ '.baton/features/notes.md': '# notes' });
    expect(view.features.map((f) => f.id)).toEqual(['F-1']);
    expect(view.problems).toEqual([]);
  });
});

describe('symlinks', () => {
  it('does not follow a file symlink that leads outside the project', async () => {
    await writeTree(outside, { 'secret.json': { items: [{ id: 'X', status: 'green' }] } });
    const view = await load({}, async () => {
      const link = path.join(dir, F, 'test-list.json');
      await fs.rm(link);
      await fs.symlink(path.join(outside, 'secret.json'), link);
    });
    expect(view.features[0]!.testList).toEqual([]);
    expect(view.problems).toHaveLength(1);
    expect(view.problems[0]!.file).toBe(`${F}/test-list.json`);
    expect(view.problems[0]!.message).toMatch(/^symlink points outside the project; not followed/);
  });

  it('does not follow a folder symlink that leads outside the project', async () => {
    await writeTree(outside, minimalFeature('.', 'F-outside'));
    const view = await load({}, () => fs.symlink(path.join(outside, 'features', 'F-outside'), path.join(dir, '.baton/features/F-outside')));
    expect(view.features.map((f) => f.id)).toEqual(['F-1']);
    expect(view.problems.map((p) => p.file)).toEqual(['.baton/features/F-outside']);
    expect(view.problems[0]!.message).toContain('symlink points outside the project; not followed');
  });

  it('follows file and folder symlinks that stay inside the project', async () => {
    const view = await load(
      { 'shared-lists/list.json': { items: [{ id: 'T5', ac_id: 'AC-1', status: 'green' }] }, ...minimalFeature('elsewhere', 'F-2') },
      async () => {
        const link = path.join(dir, F, 'test-list.json');
        await fs.rm(link);
        await fs.symlink(path.join('..', '..', '..', 'shared-lists', 'list.json'), link);
        await fs.symlink(path.join(dir, 'elsewhere/features/F-2'), path.join(dir, '.baton/features/F-2'));
      },
    );
    expect(view.problems).toEqual([]);
    expect(view.features.map((f) => [f.id, f.testList.map((t) => t.id)])).toEqual([
      ['F-1', ['T5']],
      ['F-2', ['T1']],
    ]);
  });

  it('reports a dangling symlink', async () => {
    const view = await load({}, async () => {
      const link = path.join(dir, F, 'gates.json');
      await fs.symlink(path.join(dir, 'missing.json'), link);
    });
    expect(view.problems).toEqual([{ file: `${F}/gates.json`, message: 'symlink target does not exist; not followed' }]);
  });
});

describe('counting and order', () => {
  it('reads cycle-NNN.json files under cycles/<F>/ only, at any depth, and survives a symlink loop', async () => {
    const view = await load(
      {
        '.baton/cycles/F-1/S-1/AC-1/cycle-001.json': { test_id: 'T1', red_at: '2025-01-01T10:00:00Z' },
        '.baton/cycles/F-1/S-1/AC-1/cycle-002.json': '{}',
        '.baton/cycles/F-1/S-1/AC-1/review.json': '{}',
        '.baton/cycles/F-1/S-1/AC-1/cycle-final.json': '{}',
        '.baton/cycles/F-1/S-2/AC-3/cycle-010.json': 'not even json',
        '.baton/cycles/F-9/S-1/AC-1/cycle-001.json': '{}',
      },
      () => fs.symlink(path.join(dir, '.baton/cycles/F-1'), path.join(dir, '.baton/cycles/F-1/S-1/loop')),
    );
    // Two readable cycles; the broken one is a located problem, not a silent count.
    expect(view.features[0]!.cycles).toBe(2);
    expect(view.features[0]!.cycleRuns.map((c) => [c.id, c.story, c.ac, c.items, c.outcome])).toEqual([
      ['cycle-001', 'S-1', 'AC-1', ['T1'], 'red'],
      ['cycle-002', 'S-1', 'AC-1', [], null],
    ]);
    expect(view.problems.map((p) => p.file)).toEqual(['.baton/cycles/F-1/S-2/AC-3/cycle-010.json']);
  });

  it('sorts features, stories and ACs naturally and keeps test-list order', async () => {
    const view = await load({
      ...minimalFeature('.baton', 'F-10'),
      ...minimalFeature('.baton', 'F-2'),
      [`${F}/stories/S-10/story.json`]: { id: 'S-10' },
      [`${F}/stories/S-2/story.json`]: { id: 'S-2' },
      [`${F}/stories/S-2/acs/AC-10.json`]: { id: 'AC-10' },
      [`${F}/stories/S-2/acs/AC-9.json`]: { id: 'AC-9' },
      [`${F}/test-list.json`]: [
        { id: 'T10', status: 'red' },
        { id: 'T2', status: 'red' },
        { id: 'T1', status: 'red' },
      ],
    });
    expect(view.features.map((f) => f.id)).toEqual(['F-1', 'F-2', 'F-10']);
    expect(view.features[0]!.stories.map((s) => s.id)).toEqual(['S-1', 'S-2', 'S-10']);
    expect(view.features[0]!.stories[1]!.acs.map((ac) => ac.id)).toEqual(['AC-9', 'AC-10']);
    expect(view.features[0]!.testList.map((t) => t.id)).toEqual(['T10', 'T2', 'T1']);
  });

  it('reads a Baton feature.json when feature-spec.json is absent, but not in a Consort project', async () => {
    const spec = { id: 'F-1', name: 'From feature.json' };
    const view = await load({}, async () => {
      await fs.rm(path.join(dir, F, 'feature-spec.json'));
      await writeTree(dir, { [`${F}/feature.json`]: spec });
    });
    expect(view.features[0]!.name).toBe('From feature.json');
    await fs.rename(path.join(dir, '.baton'), path.join(dir, '.consort'));
    const consort = await readProject(dir);
    expect(consort.ok && consort.value.features[0]!.name).toBe('F-1');
  });

  it('puts sprint gates on the feature their feature_id names, and ignores the rest', async () => {
    const view = await load({
      '.baton/sprints/sprint-2/gates.json': { feature_id: 'F-1', gates: { acceptance: { status: 'approved', approver: 'po' } } },
      '.baton/sprints/sprint-3/gates.json': { feature_id: 'F-missing', gates: { acceptance: { status: 'open' } } },
      '.baton/sprints/sprint-4/gates.json': { gates: { acceptance: { status: 'open' } } },
    });
    expect(view.features[0]!.gates).toEqual([
      {
        name: 'acceptance',
        status: 'approved',
        approver: 'po',
        approvedAt: null,
        artifacts: [],
        story: 'sprint-2',
        drift: [],
        note: null,
        pendingSince: null,
        blockedBy: null,
      },
    ]);
    expect(view.problems).toEqual([]);
  });
});

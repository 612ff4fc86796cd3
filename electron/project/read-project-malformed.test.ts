/** Malformed artifacts: each becomes one located Problem, and the rest of the project loads. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectView } from '../../shared/model';
import { readProject } from './index';
import { makeTempDir, minimalFeature, removeDir, writeTree, type FileTree } from './temp-project.fixture';

const F = '.baton/features/F-1';
let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const load = async (files: FileTree): Promise<ProjectView> => {
  await writeTree(dir, { ...minimalFeature('.baton'), ...files });
  const result = await readProject(dir);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe('malformed JSON', () => {
  it('locates a syntax error by line and column and still loads the other files', async () => {
    const view = await load({ [`${F}/test-list.json`]: '{\n  "items": [\n    { "id": "T1", }\n  ]\n}\n' });
    expect(view.problems).toEqual([
      {
        file: `${F}/test-list.json`,
        message:
          "is not valid JSON: expected a property name in double quotes but found '}' at line 3, column 19; fix the file or restore it from version control",
      },
    ]);
    expect(view.features[0]!.testList).toEqual([]);
    expect(view.features[0]!.stories.map((s) => s.id)).toEqual(['S-1']);
  });

  it('reports an empty file and a truncated file', async () => {
    const view = await load({ [`${F}/gates.json`]: '', [`${F}/pipeline.json`]: '{"stories": {' });
    expect(view.problems.map((p) => [p.file, p.message.split(';')[0]])).toEqual([
      [`${F}/gates.json`, 'is not valid JSON: unexpected end of file at line 1, column 1'],
      [`${F}/pipeline.json`, 'is not valid JSON: unexpected end of file at line 1, column 14'],
    ]);
  });

  it('lists at most 100 problems of one file, then one line counting the rest', async () => {
    const view = await load({ [`${F}/test-list.json`]: { items: Array.from({ length: 1000 }, (_, i) => i) } });
    const mine = view.problems.filter((p) => p.file === `${F}/test-list.json`);
    expect(mine).toHaveLength(101);
    expect(mine[0]!.message).toMatch(/^item 1 should be an object, found a number; left out/);
    expect(mine[100]!.message).toBe('…and 900 more problems in this file (the first 100 are listed)');
  });

  it('accepts a byte-order mark', async () => {
    const view = await load({ [`${F}/gates.json`]: '\ufeff{"gates": {"spec": {"status": "open"}}}' });
    expect(view.problems).toEqual([]);
    expect(view.features[0]!.gates.map((g) => g.name)).toEqual(['spec']);
  });

  it('checks files it only validates (architecture.json, workflow-state.json, project.json)', async () => {
    const view = await load({
      [`${F}/architecture.json`]: '{',
      '.baton/workflow-state.json': 'nope',
      '.baton/project.json': '[1,,2]',
    });
    expect(view.problems.map((p) => p.file)).toEqual(['.baton/features/F-1/architecture.json', '.baton/project.json', '.baton/workflow-state.json']);
    expect(view.features[0]!.testList).toHaveLength(1);
  });
});

describe('wrong shapes', () => {
  it('reports a test list that is a number', async () => {
    const view = await load({ [`${F}/test-list.json`]: '42' });
    expect(view.problems).toEqual([
      { file: `${F}/test-list.json`, message: 'expected an array of test items or an object with an "items" array, found a number' },
    ]);
  });

  it('accepts a test list under "tests"', async () => {
    const view = await load({ [`${F}/test-list.json`]: { tests: [{ id: 'T9', ac_id: 'AC-1', status: 'red' }] } });
    expect(view.features[0]!.testList.map((t) => [t.id, t.storyId])).toEqual([['T9', 'S-1']]);
  });

  it('reports gates and pipeline files without their maps', async () => {
    const view = await load({ [`${F}/gates.json`]: ['spec'], [`${F}/pipeline.json`]: { feature_id: 'F-1' } });
    expect(view.problems.map((p) => [p.file, p.message])).toEqual([
      [`${F}/gates.json`, 'expected an object with a "gates" map (gate name to gate), found an array'],
      [`${F}/pipeline.json`, 'expected an object with a "stories" map (story id to entry), found an object without one'],
    ]);
    expect(view.features[0]!.stories[0]!.status).toBe('unknown');
  });

  it('keeps a story whose story.json is the wrong shape, named by its folder', async () => {
    const view = await load({ [`${F}/stories/S-1/story.json`]: [1, 2] });
    expect(view.features[0]!.stories.map((s) => [s.id, s.title, s.acs.length])).toEqual([['S-1', 'S-1', 1]]);
    expect(view.problems).toHaveLength(1);
    expect(view.problems[0]!.message).toContain('found an array');
  });

  it('leaves out an AC file that is not an object', async () => {
    const view = await load({ [`${F}/stories/S-1/acs/AC-2.json`]: '"just text"' });
    expect(view.features[0]!.stories[0]!.acs.map((ac) => ac.id)).toEqual(['AC-1']);
    expect(view.problems.map((p) => p.file)).toEqual([`${F}/stories/S-1/acs/AC-2.json`]);
  });

  it('falls back to the folder name when feature-spec.json is the wrong shape', async () => {
    const view = await load({ [`${F}/feature-spec.json`]: 'null' });
    expect(view.features[0]).toMatchObject({ id: 'F-1', name: 'F-1', description: '' });
    expect(view.problems[0]!.message).toContain('found null');
  });
});

describe('bad test-list items', () => {
  const items = [
    { id: 'T1', ac_id: 'AC-1', status: 'green', kind: 'behavior' },
    { id: 'T2', ac_id: 'AC-1', status: 'blue' },
    { id: 'T3', ac_id: 'AC-1', status: 'red', kind: 'unit' },
    { description: 'no id', ac_id: 'AC-1', status: 'pending' },
    { id: 'T1', ac_id: 'AC-1', status: 'pending' },
    'T6',
    { id: 'T7', ac_id: 'AC-404', status: 'REFACTORED', kind: 'Fitness' },
  ];

  it('leaves out each bad item with a problem naming it, the value and the allowed values', async () => {
    const view = await load({ [`${F}/test-list.json`]: { items } });
    const file = `${F}/test-list.json`;
    expect(view.problems.filter((p) => p.file !== file)).toEqual([]);
    const messages = view.problems.map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'item T2 (item 2) has status "blue", which is not one of: pending, red, green, refactored, escalated, skipped; left out',
        'item T3 (item 3) has kind "unit", which is not one of: behavior, fitness, client; left out',
        'item 4 has no "id"; left out. Give every test item a unique id such as "T4"',
        'item T1 (item 5) repeats an id used earlier in the list; left out. Test ids must be unique',
        'item 6 should be an object, found a string; left out',
      ]),
    );
    expect(messages).toHaveLength(5);
    // Status and kind are read case-insensitively; an unknown AC has no story.
    expect(view.features[0]!.testList.map((t) => [t.id, t.status, t.kind, t.storyId])).toEqual([
      ['T1', 'green', 'behavior', 'S-1'],
      ['T7', 'refactored', 'fitness', null],
    ]);
  });
});

describe('bad gates and pipeline entries', () => {
  it('leaves out a gate with an invalid status and an artifact with a bad hash', async () => {
    const sha = 'a'.repeat(64);
    const view = await load({
      [`${F}/gates.json`]: {
        gates: {
          spec: { status: 'approved', approver: { name: 'Ana' }, approved_at: 'T', artifact_hashes: { 'a.json': sha, 'b.json': 'xyz' } },
          plan: { status: 'maybe' },
          deploy: {},
        },
      },
    });
    expect(view.features[0]!.gates).toEqual([
      {
        name: 'spec',
        status: 'approved',
        approver: 'Ana',
        approvedAt: 'T',
        artifacts: [{ name: 'a.json', sha256: sha, kind: 'file' }],
        story: null,
        drift: [],
        note: null,
        pendingSince: null,
        blockedBy: null,
      },
      // A gate with no status is open: gates fail closed.
      {
        name: 'deploy',
        status: 'open',
        approver: null,
        approvedAt: null,
        artifacts: [],
        story: null,
        drift: [],
        note: null,
        pendingSince: null,
        blockedBy: null,
      },
    ]);
    expect(view.problems.map((p) => p.message)).toEqual([
      'gate "plan" has status "maybe", which is not one of: open, approved, superseded, withdrawn; left out',
      'gate "spec" lists artifact "b.json" with hash "xyz", which is not a SHA-256 (64 hex digits); left out',
    ]);
  });

  it('shows a story with an invalid pipeline status as unknown', async () => {
    const view = await load({ [`${F}/pipeline.json`]: { stories: { 'S-1': { status: 'sleeping', experiment: { branch: 'exp/S-1' } } } } });
    expect(view.features[0]!.stories[0]).toMatchObject({
      status: 'unknown',
      experiment: { branch: 'exp/S-1', parent: null, status: null },
    });
    expect(view.problems[0]!.message).toContain('story "S-1" has status "sleeping"');
  });

  it('accepts snake_case statuses such as awaiting_gate', async () => {
    const view = await load({ [`${F}/pipeline.json`]: { stories: [{ story_id: 'S-1', status: 'awaiting_gate' }] } });
    expect(view.features[0]!.stories[0]!.status).toBe('awaiting-gate');
    expect(view.problems).toEqual([]);
  });
});

describe('unknown fields', () => {
  it('are ignored everywhere', async () => {
    const view = await load({
      [`${F}/feature-spec.json`]: { id: 'F-1', title: 'One', summary: 'S', future_field: { deep: [1] } },
      [`${F}/test-list.json`]: { feature_id: 'F-1', version: 3, items: [{ id: 'T1', ac_id: 'AC-1', status: 'red', owner: 'x', tags: ['a'] }] },
      [`${F}/gates.json`]: { schema: 2, gates: { spec: { status: 'open', color: 'red', history: [{ anything: true }] } } },
      [`${F}/pipeline.json`]: { stories: { 'S-1': { status: 'ready', extra: 1 } }, more: null },
    });
    expect(view.problems).toEqual([]);
    expect(view.features[0]).toMatchObject({ id: 'F-1', name: 'One', description: 'S' });
    expect(view.features[0]!.testList[0]).toMatchObject({ id: 'T1', status: 'red' });
    expect(view.features[0]!.testList[0]).not.toHaveProperty('owner');
  });
});

describe('artifacts that could not be approved are problems too (one list with the Inbox)', () => {
  it('reports a story with neither the sentence nor a title, in the words an approval would refuse it', async () => {
    const view = await load({ [`${F}/stories/S-1/story.json`]: { id: 'S-1', asA: 'clerk' } });
    expect(view.problems).toEqual([
      {
        file: `${F}/stories/S-1/story.json`,
        message:
          'is not a valid story.json: it needs "as a" ("as_a" or "asA"), "I want" ("i_want", "iWant" or "iWantTo") and "so that" ("so_that" or "soThat"), or a "title"',
      },
    ]);
  });

  it("reads Consort's asA / iWantTo / soThat as the story's sentence and finds nothing wrong", async () => {
    const view = await load({ [`${F}/stories/S-1/story.json`]: { id: 'S-1', asA: 'clerk', iWantTo: 'count stock', soThat: 'we reorder in time' } });
    expect(view.problems).toEqual([]);
    expect(view.features[0]!.stories[0]).toMatchObject({ title: 'S-1', asA: 'clerk', iWant: 'count stock', soThat: 'we reorder in time' });
  });

  it('reports deploy evidence that is any JSON object, naming the missing fields', async () => {
    const view = await load({ [`${F}/deploy-evidence.json`]: { fake: true } });
    expect(view.problems).toHaveLength(1);
    expect(view.problems[0]!.file).toBe(`${F}/deploy-evidence.json`);
    expect(view.problems[0]!.message).toMatch(/^is not valid deploy evidence: missing ran, target, url, health, verify, started_at, finished_at/);
  });

  it('reports a test list whose items lack a status, once', async () => {
    const view = await load({ [`${F}/test-list.json`]: { items: [{ id: 'T1', ac_id: 'AC-1' }] } });
    expect(view.problems.map((p) => p.message)).toEqual([
      'is not a valid test-list.json: it needs an array of test items (or an object with an "items" array), each an object with an "id" and a "status"',
    ]);
    // The reader still shows the item: a missing status never claims more than pending.
    expect(view.features[0]!.testList.map((t) => [t.id, t.status])).toEqual([['T1', 'pending']]);
  });

  it('does not complain twice about a file that already has a problem', async () => {
    const view = await load({ [`${F}/test-list.json`]: { items: [{ ac_id: 'AC-1', status: 'pending' }] } });
    expect(view.problems.map((p) => p.message)).toEqual(['item 1 has no "id"; left out. Give every test item a unique id such as "T1"']);
  });
});

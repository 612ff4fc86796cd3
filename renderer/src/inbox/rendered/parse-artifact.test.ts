import { describe, expect, it } from 'vitest';
import { kindOf, parseArtifact } from './parse-artifact';
import { independenceLine, type StoryDoc } from './parse-spec';
import { groupTestList, type TestListItem } from './parse-test-list';

const parse = (name: string, value: unknown) => parseArtifact(name, typeof value === 'string' ? value : JSON.stringify(value));

describe('kindOf', () => {
  it('chooses by the last part of the path, an AC by its acs/ folder', () => {
    expect(kindOf('feature.json')).toBe('feature');
    expect(kindOf('feature-spec.json')).toBe('feature');
    expect(kindOf('stories/S-1/story.json')).toBe('story');
    expect(kindOf('stories/S-1/acs/AC-1.json')).toBe('ac');
    expect(kindOf('architecture.json')).toBe('architecture');
    expect(kindOf('db-design.json')).toBe('db-design');
    expect(kindOf('ux-guide.json')).toBe('ux-guide');
    expect(kindOf('test-list.json')).toBe('test-list');
    expect(kindOf('ux-guide.md')).toBeNull();
    expect(kindOf('deploy-evidence.json')).toBeNull();
    expect(kindOf('stories/S-1/acs/notes.md')).toBeNull();
  });
});

describe('parseArtifact', () => {
  it('falls back (null) on invalid JSON, a missing file, or a shape it does not know', () => {
    expect(parse('stories/S-1/story.json', '{"as_a": ')).toBeNull();
    expect(parseArtifact('feature.json', null)).toBeNull();
    expect(parse('feature.json', [1, 2])).toBeNull();
    expect(parse('feature.json', { owner: 'po' })).toBeNull();
    expect(parse('stories/S-1/acs/AC-1.json', { id: 'AC-1' })).toBeNull();
    expect(parse('test-list.json', { feature_id: 'F-1' })).toBeNull();
    expect(parse('db-design.json', 'null')).toBeNull();
  });

  it('reads a story with its independence, and names the fields it does not show', () => {
    const parsed = parse('stories/S-2/story.json', {
      id: 'S-2',
      title: 'Fill orders',
      as_a: 'shop manager',
      i_want: 'to reserve stock',
      so_that: 'we never oversell',
      independent: false,
      depends_on: ['S-1'],
      priority: 'P1',
    });
    expect(parsed?.rendered.kind).toBe('story');
    const doc = parsed!.rendered.doc as StoryDoc;
    expect([doc.asA, doc.iWant, doc.soThat]).toEqual(['shop manager', 'to reserve stock', 'we never oversell']);
    expect(independenceLine(doc)).toBe('Depends on S-1');
    expect(parsed!.others).toEqual(['priority']);
  });

  it('counts a field of the wrong type as not shown, and joins a list of lines', () => {
    const parsed = parse('stories/S-1/acs/AC-2.json', {
      id: 'AC-2',
      title: 'Declined',
      given: 'a basket',
      when: { nested: true },
      then: ['unpaid', 'told why'],
    });
    expect(parsed?.rendered.doc).toMatchObject({ given: 'a basket', when: null, then: 'unpaid\ntold why' });
    expect(parsed?.others).toEqual(['when']);
  });

  it('reads old and new architecture files, and nested unknown fields by path', () => {
    const old = parse('architecture.json', {
      style: 'library',
      components: [{ name: 'db.js', role: 'pool' }, 'errors.js', { name: 'api', kind: 'http' }],
      decisions: ['SQL files'],
      testing: 'node:test',
    });
    expect(old?.rendered.doc).toMatchObject({
      style: 'library',
      components: [
        { name: 'db.js', role: 'pool' },
        { name: 'errors.js', role: null },
        { name: 'api', role: null },
      ],
      decisions: [{ id: null, text: 'SQL files' }],
      layers: null,
    });
    expect(old?.others).toEqual(['components[].kind']);
    const fresh = parse('architecture.json', {
      layers: [{ name: 'domain', responsibility: 'rules' }],
      nonFunctional: [{ id: 'NFR-1', requirement: 'no overselling', fitnessCheck: 'concurrent reservations test' }],
      persistenceInvariants: [{ id: 'INV-1', statement: 'qty >= 0' }],
    });
    expect(fresh?.rendered.doc).toMatchObject({
      nonFunctional: [{ id: 'NFR-1', fitnessCheck: 'concurrent reservations test' }],
      invariants: [{ id: 'INV-1' }],
    });
    expect(fresh?.others).toEqual([]);
  });

  it('reads a db design whose columns may be bare names, and mixed migrations', () => {
    const parsed = parse('db-design.json', {
      tables: [{ name: 'products', columns: [{ name: 'sku', type: 'text', constraints: ['primary key'], planned: 'later' }, 'name', 42, null] }],
      migrations: ['001_products.sql', { name: '002', purpose: 'reorder level' }],
    });
    expect(parsed?.rendered.doc).toMatchObject({
      tables: [{ name: 'products', columns: [{ name: 'sku', type: 'text', constraints: ['primary key'] }, { name: 'name' }, { name: '42' }] }],
      migrations: [
        { name: '001_products.sql', purpose: null },
        { name: '002', purpose: 'reorder level' },
      ],
    });
    expect(parsed?.others).toEqual(['tables[].columns[].planned', 'tables[].columns[]']);
  });

  it('reads a test list as an object or a bare array', () => {
    const items = [{ id: 'T1', description: 'adds', ac_id: 'AC-1', kind: 'behavior', status: 'pending', invariant_id: 'INV-1', skip_reason: 'x' }];
    expect(parse('test-list.json', { feature_id: 'F-1', items })?.rendered.doc).toMatchObject({ feature: 'F-1', items: [{ id: 'T1', invariant: 'INV-1' }] });
    const bare = parse('test-list.json', items);
    expect(bare?.rendered.doc).toMatchObject({ feature: null, items: [{ id: 'T1', acId: 'AC-1', kind: 'behavior' }] });
    expect(bare?.others).toEqual(['items[].skip_reason']);
  });
});

describe('groupTestList', () => {
  const item = (id: string, acId: string | null, story: string | null = null): TestListItem => ({
    id,
    description: id,
    acId,
    kind: 'behavior',
    status: 'pending',
    story,
    invariant: null,
  });

  it('groups by story then AC in order of appearance, with the unnamed groups last', () => {
    const groups = groupTestList([item('T1', null), item('T2', 'AC-2', 'S-1'), item('T3', 'AC-1', 'S-1'), item('T4', 'AC-2', 'S-1'), item('T5', 'AC-9')]);
    expect(groups.map((g) => [g.storyId, g.acs.map((a) => [a.acId, a.items.map((i) => i.id)])])).toEqual([
      [
        'S-1',
        [
          ['AC-2', ['T2', 'T4']],
          ['AC-1', ['T3']],
        ],
      ],
      [
        null,
        [
          ['AC-9', ['T5']],
          [null, ['T1']],
        ],
      ],
    ]);
  });

  it("takes an item's story from the spec when the file does not name it", () => {
    const spec = { storyOfAc: new Map([['AC-9', 'S-2']]), storyTitles: new Map(), acTitles: new Map() };
    expect(groupTestList([item('T5', 'AC-9')], spec).map((g) => g.storyId)).toEqual(['S-2']);
  });
});

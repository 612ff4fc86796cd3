import { describe, expect, it } from 'vitest';
import type { AmendmentView, Feature, ProjectView } from '../../../shared/model';
import {
  amendmentEntries,
  amendmentGroup,
  amendmentProblems,
  changedFiles,
  lockedTestsOf,
  openAmendmentOf,
  proposeBlockedBy,
  proposerOf,
  usedByLabel,
} from './amendment-model';

const amendment = (item: string, seq: number, more: Partial<AmendmentView> = {}): AmendmentView => ({
  id: `${seq}`.padStart(64, 'a'),
  seq,
  feature: 'F-1',
  story: 'S-1',
  item,
  files: [{ path: `test/${item}.test.js`, sha256: 'b'.repeat(64), was: 'c'.repeat(64), bytes: 120 }],
  reason: 'the AC says 404, not 400',
  proposedBy: { kind: 'agent', id: 'navigator:scripted' },
  at: `2025-03-01T00:00:${String(seq).padStart(2, '0')}Z`,
  lock: 'd'.repeat(64),
  cycle: `F-1/${item}`,
  status: 'pending',
  decidedBy: null,
  decidedAt: null,
  note: null,
  usedBy: [],
  rerun: null,
  rerunCycle: null,
  ...more,
});

const approved = (rerun: AmendmentView['rerun']): Partial<AmendmentView> => ({ status: 'approved', decidedBy: 'Ada <ada@example.com>', rerun });

const feature = (id: string, amendments: AmendmentView[], more: Partial<Feature> = {}): Feature => ({
  id,
  name: `Checkout ${id}`,
  description: '',
  stories: [],
  testList: [
    { id: 'T1', description: 'a valid card pays', acId: 'AC-1', storyId: 'S-1', status: 'green', kind: 'behavior', scenarioFile: null, invariantId: null },
  ],
  gates: [],
  cycles: 0,
  cycleRuns: [],
  escalations: [],
  amendments,
  lockedTests: [],
  runBlock: null,
  ...more,
});

const view = (features: Feature[]): ProjectView => ({
  root: '/p',
  name: 'p',
  layout: 'baton',
  artifactRoot: '/p/.baton',
  readOnly: false,
  bundle: null,
  features,
  problems: [],
});

describe('amendmentEntries', () => {
  it('lists pending amendments oldest first, then approved ones waiting for their re-run, and leaves the rest out', () => {
    const entries = amendmentEntries(
      view([
        feature('F-1', [
          amendment('T1', 3),
          amendment('T2', 1, approved('waiting')),
          amendment('T3', 2, { status: 'rejected', decidedBy: 'Ada' }),
          amendment('T4', 4, approved('green')),
        ]),
        feature('F-2', [amendment('T1', 2), amendment('T5', 5, approved('locked'))]),
      ]),
    );
    expect(entries.map((e) => `${e.ref.feature}/${e.amendment.item}/${e.group}`)).toEqual(['F-2/T1/pending', 'F-1/T1/pending', 'F-1/T2/rerun']);
    expect(entries[1]!.featureName).toBe('Checkout F-1');
    expect(entries[1]!.item?.description).toBe('a valid card pays');
    expect(entries[2]!.item).toBeNull();
    expect(entries[0]!.ref).toEqual({ kind: 'amendment', feature: 'F-2', amendment: amendment('T1', 2).id });
    expect(amendmentEntries(null)).toEqual([]);
  });

  it('groups by status and re-run: only a pending one needs a decision', () => {
    expect(amendmentGroup({ status: 'pending', rerun: null })).toBe('pending');
    expect(amendmentGroup({ status: 'approved', rerun: 'waiting' })).toBe('rerun');
    expect(amendmentGroup({ status: 'approved', rerun: 'escalated' })).toBeNull();
    expect(amendmentGroup({ status: 'rejected', rerun: null })).toBeNull();
  });
});

describe('words', () => {
  it('names the Navigator by its id and a person by theirs', () => {
    expect(proposerOf({ kind: 'agent', id: 'navigator:claude' })).toBe('the Navigator (navigator:claude)');
    expect(proposerOf({ kind: 'person', id: 'Ana Silva <ana@example.com>' })).toBe('Ana Silva <ana@example.com>');
  });

  it('labels the old evidence superseded once approved, and only "if approved" before', () => {
    expect(usedByLabel('pending')).toBe('superseded if approved');
    expect(usedByLabel('approved')).toBe('superseded');
    expect(usedByLabel('rejected')).not.toContain('superseded');
  });
});

describe('proposing from the drawer', () => {
  const locked = { item: 'T1', lock: 'd'.repeat(64), cycle: 'F-1/T1', files: [{ path: 'test/T1.test.js', sha256: 'c'.repeat(64), bytes: 120 }] };

  it('finds the item’s locked files, and none for an item without any', () => {
    const f = feature('F-1', [], { lockedTests: [locked, { ...locked, item: 'T2', files: [] }] });
    expect(lockedTestsOf(f, 'T1')?.files[0]?.path).toBe('test/T1.test.js');
    expect(lockedTestsOf(f, 'T2')).toBeNull();
    expect(lockedTestsOf(f, 'T3')).toBeNull();
  });

  it('finds the open amendment that blocks a new one: pending, or approved and not re-run', () => {
    const f = feature('F-1', [
      amendment('T1', 1, { status: 'rejected' }),
      amendment('T2', 2, approved('waiting')),
      amendment('T3', 3, approved('green')),
      amendment('T4', 4),
    ]);
    expect(openAmendmentOf(f, 'T1')).toBeNull();
    expect(openAmendmentOf(f, 'T2')?.seq).toBe(2);
    expect(openAmendmentOf(f, 'T3')).toBeNull();
    expect(openAmendmentOf(f, 'T4')?.seq).toBe(4);
    expect(proposeBlockedBy('T4', { status: 'pending', seq: 4 })).toContain('waiting for a decision (record #4)');
    expect(proposeBlockedBy('T2', { status: 'approved', seq: 2 })).toContain('has not re-run yet');
  });

  it('sends only the files that differ from their locked text, and asks for a change and a reason', () => {
    const texts = { 'a.test.js': 'old a\n', 'b.test.js': 'old b\n' };
    const draft = { contents: { 'a.test.js': 'old a\n', 'b.test.js': 'new b\n', 'c.test.js': 'not locked' }, reason: '  ' };
    expect(changedFiles(draft, texts)).toEqual([{ path: 'b.test.js', content: 'new b\n' }]);
    expect(amendmentProblems(draft, texts)).toEqual({ reason: expect.stringContaining('Say why') });
    expect(amendmentProblems({ contents: { 'a.test.js': 'old a\n' }, reason: 'because' }, texts)).toEqual({ content: expect.stringContaining('unchanged') });
    expect(amendmentProblems({ contents: { 'a.test.js': 'x'.repeat(1_000_001) }, reason: 'because' }, texts).content).toContain('longer than 1 MB');
    expect(amendmentProblems({ contents: { 'a.test.js': 'new a\n' }, reason: 'because' }, texts)).toEqual({});
  });
});

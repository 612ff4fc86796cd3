import { describe, expect, it } from 'vitest';
import { withSample } from '../../../shared/records.fixture';
import type { GateName, LedgerRecord } from '../../../shared/ledger';
import type { AmendmentView, EscalationView, Feature, Gate, ProjectView, TestItem } from '../../../shared/model';
import { countPending, entryKey, escalationEntries, firstDecidable, gateEntries, inboxEntries, lastFailingRun, nextAfter, sameInboxRef } from './inbox-model';

const gate = (name: string, status: Gate['status'], pendingSince: string | null, story: string | null = null, blockedBy: Gate['blockedBy'] = null): Gate => ({
  name,
  status,
  approver: null,
  approvedAt: null,
  artifacts: [],
  story,
  drift: [],
  note: null,
  pendingSince,
  blockedBy,
});

const after = (earlier: string): Gate['blockedBy'] => ({ kind: 'earlier-gate', gate: earlier, message: `the ${earlier} gate comes first` });
const noEvidence: Gate['blockedBy'] = { kind: 'evidence', gate: null, message: 'deploy-evidence.json is missing' };

const feature = (id: string, gates: Gate[], more: Partial<Feature> = {}): Feature => ({
  id,
  name: id,
  description: '',
  stories: [],
  testList: [],
  gates,
  cycles: 0,
  cycleRuns: [],
  escalations: [],
  amendments: [],
  lockedTests: [],
  runBlock: null,
  ...more,
});

const view = (features: Feature[], layout: ProjectView['layout'] = 'baton'): ProjectView => ({
  root: '/p',
  name: 'p',
  layout,
  artifactRoot: '/p/.baton',
  readOnly: false,
  bundle: null,
  features,
  problems: [],
});

describe('gateEntries', () => {
  it('lists decidable gates oldest first, then those waiting on evidence, then those waiting on an earlier gate, and leaves decided ones out', () => {
    const entries = gateEntries(
      view([
        feature('F-1', [
          gate('spec', 'approved', null),
          gate('design', 'open', '2025-03-02T00:00:00Z'),
          gate('deploy', 'open', null, null, after('test_list')),
          gate('acceptance', 'rejected', '2025-03-01T00:00:00Z', 'S-1', after('test_list')),
        ]),
        feature('F-2', [gate('spec', 'drifted', '2025-03-03T00:00:00Z'), gate('deploy', 'open', '2025-01-01T00:00:00Z', null, noEvidence)]),
      ]),
    );
    expect(entries.map((e) => `${e.ref.feature}/${e.ref.gate}/${e.ref.story ?? ''}`)).toEqual([
      'F-1/design/',
      'F-2/spec/',
      'F-2/deploy/',
      'F-1/acceptance/S-1',
      'F-1/deploy/',
    ]);
    expect(entries.map((e) => e.group)).toEqual(['ready', 'ready', 'evidence', 'earlier', 'earlier']);
    expect(entries.map((e) => e.waitsFor)).toEqual([null, null, null, 'test_list', 'test_list']);
  });

  it('orders by time among gates that can be decided', () => {
    const entries = gateEntries(
      view([
        feature('F-1', [gate('spec', 'open', '2025-03-02T00:00:00Z')]),
        feature('F-2', [gate('spec', 'open', null)]),
        feature('F-3', [gate('spec', 'rejected', '2025-03-01T00:00:00Z')]),
      ]),
    );
    expect(entries.map((e) => e.ref.feature)).toEqual(['F-3', 'F-1', 'F-2']);
  });

  it("leaves out gates Baton has no name for (Consort's plan) and keeps the backend's read-only judgement", () => {
    const readOnly: Gate['blockedBy'] = { kind: 'read-only', gate: null, message: 'Baton reads this Consort project' };
    const entries = gateEntries(view([feature('F-1', [gate('plan', 'open', null), gate('deploy', 'open', null, null, readOnly)])], 'consort'));
    expect(entries.map((e) => [e.ref.gate, e.group])).toEqual([['deploy', 'read-only']]);
  });

  it('lists an acceptance held back by unproven ACs with those waiting on evidence, not as ready to decide, and does not count it', () => {
    const unproven: Gate['blockedBy'] = { kind: 'unproven', gate: null, message: 'Cannot approve the acceptance gate of F-1, story S-1: an AC is not proven' };
    const project = view([
      feature('F-1', [gate('acceptance', 'open', '2025-03-01T00:00:00Z', 'S-1', unproven), gate('design', 'open', '2025-03-02T00:00:00Z')]),
    ]);
    expect(gateEntries(project).map((e) => [e.ref.gate, e.group])).toEqual([
      ['design', 'ready'],
      ['acceptance', 'evidence'],
    ]);
    expect(countPending(project)).toBe(1);
  });

  it('leaves out the acceptance of a story discarded at acceptance (it waits for nobody), and keeps the others', () => {
    const stories = [
      { ...story, id: 'S-1', status: 'discarded' as const },
      { ...story, id: 'S-2' },
    ];
    const gates = [gate('acceptance', 'rejected', '2025-01-01T00:00:00Z', 'S-1'), gate('acceptance', 'open', '2025-01-02T00:00:00Z', 'S-2')];
    expect(gateEntries(view([feature('F-1', gates, { stories })])).map((e) => e.ref.story)).toEqual(['S-2']);
  });
});

const item = (id: string, description: string, acId = 'AC-1', storyId: string | null = 'S-1'): TestItem => ({
  id,
  description,
  acId,
  storyId,
  status: 'escalated',
  kind: 'behavior',
  scenarioFile: null,
  invariantId: null,
});

const escalation = (itemId: string, at: string, round = 1): EscalationView => ({
  item: itemId,
  story: 'S-1',
  round,
  reason: 'repair budget spent: 3 repairs, still failing',
  record: `finished-${itemId}`,
  at,
  repairs: 3,
  violations: 0,
  rejectedRed: 0,
});

const story = {
  id: 'S-1',
  title: 'Pay by card',
  asA: 'shopper',
  iWant: 'to pay',
  soThat: 'I get my order',
  status: 'building' as const,
  experiment: null,
  acs: [{ id: 'AC-1', title: 'Card accepted', given: 'a basket', when: 'the shopper pays', then: 'the order is paid' }],
};

describe('escalationEntries', () => {
  it('lists open escalations across features oldest first, with the item and the AC it tests', () => {
    const entries = escalationEntries(
      view([
        feature('F-1', [], {
          name: 'Checkout',
          stories: [story],
          testList: [item('T1', 'a valid card pays'), item('T2', 'a declined card')],
          escalations: [escalation('T2', '2025-03-05T00:00:00Z', 2)],
        }),
        feature('F-2', [], {
          testList: [item('T9', 'gone from the stories', 'AC-7')],
          escalations: [escalation('T9', '2025-03-04T00:00:00Z'), escalation('T3', '2025-03-06T00:00:00Z')],
        }),
      ]),
    );
    expect(entries.map((e) => `${e.ref.feature}/${e.ref.item}`)).toEqual(['F-2/T9', 'F-1/T2', 'F-2/T3']);
    const [orphanAc, t2, missing] = entries;
    expect(t2!.featureName).toBe('Checkout');
    expect(t2!.item?.description).toBe('a declined card');
    expect(t2!.criterion?.then).toBe('the order is paid');
    expect(t2!.escalation.round).toBe(2);
    // An AC no story holds, and an item the test list no longer names, are shown as unknown.
    expect(orphanAc!.item?.id).toBe('T9');
    expect(orphanAc!.criterion).toBeNull();
    expect(missing!.item).toBeNull();
  });
});

describe('inboxEntries and countPending', () => {
  const project = view([
    feature('F-1', [gate('spec', 'approved', null), gate('design', 'open', '2025-01-01T00:00:00Z'), gate('deploy', 'open', null, null, after('test_list'))], {
      testList: [item('T1', 'a valid card pays')],
      escalations: [escalation('T1', '2025-03-01T00:00:00Z')],
    }),
  ]);

  it('lists escalations first (they hold their feature’s build), then decidable gates, then blocked ones', () => {
    expect(inboxEntries(project).map((e) => (e.kind === 'gate' ? e.ref.gate : e.kind === 'escalation' ? e.ref.item : 'block'))).toEqual([
      'T1',
      'design',
      'deploy',
    ]);
  });

  it('works a view out once: the same view gives the same list, a new view its own', () => {
    const first = inboxEntries(project);
    expect(inboxEntries(project)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const next = { ...project, features: [] };
    expect(inboxEntries(next)).not.toBe(first);
    expect(inboxEntries(next)).toEqual([]);
    expect(inboxEntries(null)).toEqual([]);
  });

  it('lists a blocked run first, counts it, and finds it again after a decision elsewhere', () => {
    const runBlock = {
      record: { seq: 9, hash: 'h9', at: '2025-03-05T00:00:00Z' },
      phase: 'building',
      step: 'plan',
      item: 'T2',
      message: 'Stopped before PLAN of T2',
      gates: [
        {
          gate: 'test_list',
          story: null,
          status: 'drifted' as const,
          drift: [{ artifact: 'test-list.json', expected: 'a', actual: 'b' }],
          files: ['.baton/features/F-1/test-list.json'],
        },
      ],
    };
    const blocked = view([{ ...project.features[0]!, runBlock }]);
    const entries = inboxEntries(blocked);
    expect(entries.map((e) => e.kind)).toEqual(['block', 'escalation', 'gate', 'gate']);
    expect(countPending(blocked)).toBe(3);
    expect(sameInboxRef(entries[0]!.ref, { kind: 'block', feature: 'F-1' })).toBe(true);
    expect(sameInboxRef(entries[0]!.ref, { feature: 'F-1', item: 'T1' })).toBe(false);
    expect(nextAfter(entries, { kind: 'block', feature: 'F-1' })).toEqual({ feature: 'F-1', item: 'T1' });
  });

  it('counts what a person can decide now for the nav badge: escalations and ready gates, not blocked ones', () => {
    expect(countPending(project)).toBe(2);
    expect(countPending(null)).toBe(0);
  });

  it('counts nothing in a read-only project, though it lists its open gates', () => {
    const readOnly = { ...project, readOnly: true };
    expect(inboxEntries(readOnly)).toHaveLength(3);
    expect(countPending(readOnly)).toBe(0);
  });
});

describe('test amendments in the inbox', () => {
  const amendment = (itemId: string, seq: number, more: Partial<AmendmentView> = {}): AmendmentView => ({
    id: String(seq).padStart(64, '0'),
    seq,
    feature: 'F-1',
    story: 'S-1',
    item: itemId,
    files: [{ path: `test/${itemId}.test.js`, sha256: 'b'.repeat(64), was: 'c'.repeat(64), bytes: 10 }],
    reason: 'the AC says 404',
    proposedBy: { kind: 'agent', id: 'navigator:scripted' },
    at: '2025-03-02T00:00:00Z',
    lock: 'd'.repeat(64),
    cycle: `F-1/${itemId}`,
    status: 'pending',
    decidedBy: null,
    decidedAt: null,
    note: null,
    usedBy: [],
    rerun: null,
    rerunCycle: null,
    ...more,
  });
  const ref = (seq: number) => ({ kind: 'amendment' as const, feature: 'F-1', amendment: String(seq).padStart(64, '0') });
  const project = view([
    feature('F-1', [gate('design', 'open', '2025-01-01T00:00:00Z'), gate('deploy', 'open', null, null, after('test_list'))], {
      testList: [item('T1', 'a valid card pays'), item('T2', 'a declined card')],
      escalations: [escalation('T1', '2025-03-01T00:00:00Z')],
      amendments: [
        amendment('T2', 7, { status: 'approved', rerun: 'waiting', decidedBy: 'Ada' }),
        amendment('T1', 9),
        amendment('T2', 3, { status: 'rejected' }),
      ],
    }),
  ]);

  it('lists pending amendments after escalations and before gates, and approved ones waiting for a re-run last', () => {
    const entries = inboxEntries(project);
    expect(entries.map((e) => (e.kind === 'amendment' ? `amendment:${e.amendment.item}:${e.group}` : e.kind))).toEqual([
      'escalation',
      'amendment:T1:pending',
      'gate',
      'gate',
      'amendment:T2:rerun',
    ]);
    expect(entryKey(entries[1]!)).toBe(`amendment-${ref(9).amendment}`);
  });

  it('counts a pending amendment as a decision, not one waiting for its re-run, and none in a read-only project', () => {
    expect(countPending(project)).toBe(3);
    expect(countPending({ ...project, readOnly: true })).toBe(0);
  });

  it('tells amendments apart from each other and from the escalation and gates of their item, and opens the next after a decision', () => {
    expect(sameInboxRef(ref(9), ref(9))).toBe(true);
    expect(sameInboxRef(ref(9), ref(7))).toBe(false);
    expect(sameInboxRef(ref(9), { feature: 'F-1', item: 'T1' })).toBe(false);
    expect(sameInboxRef({ feature: 'F-1', gate: 'design', story: null }, ref(9))).toBe(false);
    expect(nextAfter(inboxEntries(project), ref(9))).toEqual({ feature: 'F-1', gate: 'design', story: null });
  });
});

describe('nextAfter', () => {
  const entries = inboxEntries(
    view([
      feature('F-1', [
        gate('spec', 'open', '2025-01-01T00:00:00Z'),
        gate('design', 'open', '2025-01-02T00:00:00Z'),
        gate('test_list', 'open', '2025-01-03T00:00:00Z'),
      ]),
    ]),
  );
  const ref = (g: 'spec' | 'design' | 'test_list') => ({ feature: 'F-1', gate: g, story: null });

  it('opens the one that followed the decided gate, or the one before at the end', () => {
    expect(nextAfter(entries, ref('design'))).toEqual(ref('test_list'));
    expect(nextAfter(entries, ref('test_list'))).toEqual(ref('design'));
  });

  it('opens the oldest when the decided gate already left the list, and nothing when none is left', () => {
    expect(nextAfter(entries, { feature: 'F-9', gate: 'spec', story: null })).toEqual(ref('spec'));
    expect(nextAfter(entries.slice(0, 1), ref('spec'))).toBeNull();
  });

  it('moves from a decided escalation to the next escalation, then on to the gates', () => {
    const mixed = inboxEntries(
      view([
        feature('F-1', [gate('spec', 'open', '2025-01-01T00:00:00Z')], {
          testList: [item('T1', 'one'), item('T2', 'two')],
          escalations: [escalation('T1', '2025-03-01T00:00:00Z'), escalation('T2', '2025-03-02T00:00:00Z')],
        }),
      ]),
    );
    expect(nextAfter(mixed, { feature: 'F-1', item: 'T1' })).toEqual({ feature: 'F-1', item: 'T2' });
    expect(nextAfter(mixed, { feature: 'F-1', item: 'T2' })).toEqual(ref('spec'));
    // An escalation is never the same entry as a gate of its feature.
    expect(sameInboxRef({ feature: 'F-1', item: 'T1' }, ref('spec'))).toBe(false);
    expect(sameInboxRef({ feature: 'F-1', item: 'T1' }, { feature: 'F-2', item: 'T1' })).toBe(false);
  });
});

describe('after a rejection', () => {
  const rejected = (pendingSince: string): Gate => ({
    ...gate('spec', 'rejected', pendingSince),
    note: 'The refund rule is missing.',
    decidedBy: { who: 'Ana <ana@example.com>', at: '2025-02-01T00:00:00Z' },
  });
  const ref = (g: GateName) => ({ feature: 'F-1', gate: g, story: null });

  it('lists a rejected gate whose artifacts are unchanged since under sent back, not counted; a new version makes it ready again', () => {
    const unchanged = view([feature('F-1', [rejected('2025-01-15T00:00:00Z'), gate('design', 'open', '2025-01-20T00:00:00Z')])]);
    expect(gateEntries(unchanged).map((e) => [e.ref.gate, e.group])).toEqual([
      ['design', 'ready'],
      ['spec', 'sent-back'],
    ]);
    expect(countPending(unchanged)).toBe(1);
    const revised = view([feature('F-1', [rejected('2025-02-02T00:00:00Z')])]);
    expect(gateEntries(revised).map((e) => e.group)).toEqual(['ready']);
    expect(countPending(revised)).toBe(1);
  });

  it('trusts the backend’s comparison with the rejection’s hashes over file times', () => {
    // Saved again unchanged (a newer time, the same bytes): still sent back.
    const saved = view([feature('F-1', [{ ...rejected('2025-02-02T00:00:00Z'), sentBack: true }])]);
    expect(gateEntries(saved).map((e) => e.group)).toEqual(['sent-back']);
    // A new version whose file time is older than the rejection (restored from a copy): ready.
    const answered = view([feature('F-1', [{ ...rejected('2025-01-15T00:00:00Z'), sentBack: false }])]);
    expect(gateEntries(answered).map((e) => e.group)).toEqual(['ready']);
  });

  it('moves on to the next decision a person can make, never to a gate that waits (on evidence, an earlier gate, its author), else to nothing', () => {
    const entries = inboxEntries(
      view([
        feature('F-1', [
          gate('spec', 'open', '2025-01-01T00:00:00Z'),
          gate('deploy', 'open', '2025-01-02T00:00:00Z', null, noEvidence),
          gate('promote', 'open', '2025-01-03T00:00:00Z', null, after('deploy')),
          gate('design', 'open', '2025-01-04T00:00:00Z'),
        ]),
      ]),
    );
    expect(nextAfter(entries, ref('spec'))).toEqual(ref('design'));
    expect(nextAfter(entries, ref('design'))).toEqual(ref('spec'));
    const waiting = entries.filter((e) => e.kind === 'gate' && e.ref.gate !== 'design');
    expect(nextAfter(waiting, ref('spec'))).toBeNull();
    expect(firstDecidable(waiting.filter((e) => e.kind === 'gate' && e.ref.gate !== 'spec'))).toBeNull();
    expect(firstDecidable(entries)?.ref).toEqual(ref('spec'));
  });
});

const record = (seq: number, type: string, cycle: string, data: Record<string, unknown>, blobs: string[] = []): LedgerRecord => ({
  seq,
  at: `2025-03-01T00:00:0${seq}Z`,
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: { feature: 'F-1', story: 'S-1', item: 'T1', cycle },
  data: withSample(type, data),
  blobs: blobs.map((name) => ({ name, sha256: `${seq}`.padStart(64, '0'), bytes: 10 })),
  prev: '0'.repeat(64),
  hash: `hash-${seq}`,
});

describe('lastFailingRun', () => {
  const runner = ['runner/stdout.txt', 'runner/stderr.txt'];
  const records = [
    record(1, 'cycle.green', 'F-1/T1', { verdict: 'failing' }, runner),
    record(2, 'cycle.finished', 'F-1/T1', { status: 'escalated' }),
    record(3, 'cycle.red', 'F-1/T1#2', { verdict: 'red' }, runner),
    record(4, 'cycle.green', 'F-1/T1#2', { verdict: 'failing' }, runner),
    record(5, 'cycle.green', 'F-1/T1#2', { verdict: 'failing' }, runner),
    record(6, 'cycle.finished', 'F-1/T1#2', { status: 'escalated' }),
    record(7, 'cycle.green', 'F-1/T1#2', { verdict: 'failing' }, runner),
  ];

  it('finds the escalated cycle’s last failing GREEN, not an earlier round’s nor a later record', () => {
    expect(lastFailingRun(records, { record: 'hash-6' })?.seq).toBe(5);
    expect(lastFailingRun(records, { record: 'hash-2' })?.seq).toBe(1);
  });

  it('takes a RED that never went red as a failing run, and nothing from a cycle without one', () => {
    const noRed = [record(1, 'cycle.red', 'F-1/T1', { verdict: 'passed-at-once' }, runner), record(2, 'cycle.finished', 'F-1/T1', { status: 'escalated' })];
    expect(lastFailingRun(noRed, { record: 'hash-2' })?.seq).toBe(1);
    const violations = [
      record(1, 'cycle.red', 'F-1/T1', { verdict: 'red' }, runner),
      record(2, 'cycle.violation', 'F-1/T1', {}),
      record(3, 'cycle.finished', 'F-1/T1', { status: 'escalated' }),
    ];
    expect(lastFailingRun(violations, { record: 'hash-3' })).toBeNull();
  });
});

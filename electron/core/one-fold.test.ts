/**
 * One fact, one number, on generated ledgers: seeded random cycles (rejected REDs, failing GREENs,
 * violations at any step, refactors, escalations decided or open, later rounds) for the items of two
 * stories; after each, the board's cards and columns, the Live run, the Inbox, `baton status`,
 * `baton gates` and `baton inspect` say the same (one-fold.fixture.ts). The demo's own ledger gets
 * the same check in electron/cli/demo.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor, LedgerRecord, Subject } from '../../shared/ledger';
import { RECORD_TYPES, type RecordData, type RecordType } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { batonFeature, makeBatonProject, PERSON, type TestProject } from '../gates/gate-project.fixture';
import { cycleIdFor } from '../gates/escalations';
import { foldDisagreements, reportedViews, viewsDisagree } from './one-fold.fixture';
import { loadProject } from './load-project';

const FEATURE = 'F-1';
const ITEMS = [
  { id: 'T1', ac: 'AC-1', story: 'S-1' },
  { id: 'T2', ac: 'AC-2', story: 'S-1' },
  { id: 'T3', ac: 'AC-3', story: 'S-2' },
  { id: 'T4', ac: 'AC-3', story: 'S-2' },
];

const tree = () => {
  const base = `.baton/features/${FEATURE}`;
  return {
    ...batonFeature(FEATURE),
    [`${base}/stories/S-2/story.json`]: { id: 'S-2', title: 'Refund', as_a: 'shopper', i_want: 'a refund', so_that: 'I get my money back' },
    [`${base}/stories/S-2/acs/AC-3.json`]: { id: 'AC-3', given: 'a paid order', when: 'I return it', then: 'I am refunded' },
    [`${base}/test-list.json`]: { items: ITEMS.map((i) => ({ id: i.id, description: `does ${i.id}`, ac_id: i.ac, status: 'pending' })) },
  };
};

/** A small seeded generator (mulberry32): the same seed, the same ledger. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

const ORCHESTRATOR: Actor = { kind: 'orchestrator', id: 'baton' };

/** One item's rounds as the orchestrator records them, its outcome drawn at random. */
async function buildItem(project: TestProject, item: (typeof ITEMS)[number], r: ReturnType<typeof random>): Promise<void> {
  const rounds = 1 + r.below(2);
  for (let round = 1; round <= rounds; round++) {
    const subject: Subject = { feature: FEATURE, story: item.story, item: item.id, cycle: cycleIdFor(FEATURE, item.id, round) };
    const add = <T extends RecordType>(type: T, fields: Partial<RecordData<T>> = {}, actor: Actor = ORCHESTRATOR): Promise<LedgerRecord> =>
      project.ledger.append({ type, actor, subject, data: sampleData(type, fields), blobs: [] } as never);
    const status = (s: 'red' | 'green' | 'refactored' | 'escalated') => add(RECORD_TYPES.itemStatus, { key: `status:${s}:${round}`, item: item.id, status: s });
    await add(RECORD_TYPES.cyclePlanned);
    for (let i = r.below(2); i > 0; i--) await add(RECORD_TYPES.cycleRed, { verdict: r.chance(0.5) ? 'passed-at-once' : 'no-test' });
    if (r.chance(0.2)) await add(RECORD_TYPES.cycleViolation, { step: 'red' });
    await add(RECORD_TYPES.cycleRed, { verdict: 'red' });
    await status('red');
    const failing = r.below(3);
    for (let attempt = 1; attempt <= failing; attempt++) {
      if (r.chance(0.3)) await add(RECORD_TYPES.cycleViolation, { step: 'green', attempt, key: `violation:green:${attempt}` });
      await add(RECORD_TYPES.cycleGreen, { verdict: 'failing', attempt, key: `green:${attempt}` });
    }
    const escalates = round < rounds || r.chance(0.25);
    if (escalates) {
      await add(RECORD_TYPES.cycleFinished, { item: item.id, status: 'escalated', reason: 'repair budget spent', repairs: 9, violations: 9 });
      await status('escalated');
      // An escalation is decided (retry: the next round) unless it is the last word.
      if (round < rounds) await add(RECORD_TYPES.escalationDecided, { decision: 'retry', round, note: 'try again' }, { kind: 'person', id: PERSON });
      continue;
    }
    await add(RECORD_TYPES.cycleGreen, { verdict: 'green', attempt: failing + 1, key: `green:${failing + 1}` });
    await add(RECORD_TYPES.cycleGreened);
    await status('green');
    for (let i = r.below(3); i > 0; i--) {
      if (r.chance(0.3)) await add(RECORD_TYPES.cycleViolation, { step: 'refactor', key: `violation:refactor:${i}` });
      await add(RECORD_TYPES.cycleRefactored, { verdict: r.chance(0.5) ? 'kept' : 'reverted', key: `refactor:${i}` });
    }
    if (r.chance(0.7)) await status('refactored');
    await add(RECORD_TYPES.cycleFinished, { item: item.id, status: 'done', repairs: 9 });
  }
}

describe('one fact, one number, on generated ledgers', () => {
  let project: TestProject;
  beforeAll(async () => {
    project = await makeBatonProject(tree());
  });
  afterAll(async () => project?.cleanup());

  it(
    'cards, columns, the Live run, the Inbox, baton status, baton gates and baton inspect agree after every generated step',
    { timeout: 120_000 },
    async () => {
      expect(await foldDisagreements(project.root)).toEqual([]);
      for (const gate of ['spec', 'design', 'test_list'] as const) expect((await project.approve(gate)).ok).toBe(true);
      const r = random(34);
      let checked = 0;
      // Items built in a random order, the views compared after each item.
      const order = [...ITEMS].sort(() => r.below(3) - 1);
      for (const item of order) {
        await buildItem(project, item, r);
        expect(await foldDisagreements(project.root), `after ${item.id} (seed 34)`).toEqual([]);
        checked++;
      }
      // Something to count: the generator made repairs, violations and escalations.
      const records = await project.records();
      expect(records.filter((x) => x.type === RECORD_TYPES.cycleViolation).length).toBeGreaterThan(0);
      expect(records.filter((x) => x.type === RECORD_TYPES.cycleFinished && x.data.status === 'escalated').length).toBeGreaterThan(0);
      expect(checked).toBe(ITEMS.length);
    },
  );

  it('a disagreement is reported, naming the fact and each view (the check can fail)', async () => {
    const loaded = await loadProject(project.root);
    if (!loaded.ok) throw new Error(loaded.error.message);
    const view = loaded.value.view;
    const reported = await reportedViews(project.root, FEATURE);
    expect(viewsDisagree(view, FEATURE, reported)).toEqual([]);
    // `baton status` one repair more than the cards add up to; the Inbox listing a gate the CLI calls approved.
    const status = { ...reported.status, repairs: reported.status.repairs + 1 };
    const gates = reported.gates.map((g) => (g.name === 'spec' ? { ...g, status: 'open' as const } : g));
    const found = viewsDisagree(view, FEATURE, { ...reported, status, gates });
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^F-1 totals: cards added up \{"repairs":\d+.*baton status \{"repairs":\d+/);
    expect(found[1]).toMatch(/^F-1 gate statuses: workbench \{"spec":"approved".*baton gates \{"spec":"open"/);
  });
});

/**
 * The smell report against ledgers built by hand: each kind found at its threshold and not found
 * just under it, and the report's order fixed. Then a property over generated ledgers: the same
 * records in any order give the same smells, every smell names records of its feature, and a
 * stricter threshold never finds more.
 */
import { describe, expect, it } from 'vitest';
import type { Actor, LedgerRecord, Subject } from '../ledger';
import { RECORD_TYPES, type RecordData, type RecordType } from '../records';
import { recordMaker } from '../records.fixture';
import { featureSmells, projectSmells, SMELL_DEFAULTS, SMELL_KINDS, type Smell, type SmellThresholds } from './smells';

const ADA: Actor = { kind: 'person', id: 'Ada Lovelace <ada@example.com>' };
const DRIVER: Actor = { kind: 'agent', id: 'driver:scripted' };
const NAVIGATOR: Actor = { kind: 'agent', id: 'navigator:scripted' };
const HOUR = 3_600_000;

const make = recordMaker();
/** A record about `subject` (feature F-1 unless it says otherwise), `seq` in the order made and as many seconds after T0. */
const record = <T extends RecordType>(type: T, subject: Subject, fields: Partial<RecordData<T>> = {}, actor?: Actor): LedgerRecord =>
  make(type, null, subject, fields, actor);

const item = (id: string, round = 1): Subject => ({ story: 'S-1', item: id, cycle: round === 1 ? `F-1/${id}` : `F-1/${id}#${round}` });
/** A GREEN turn of `id` that took `s` seconds of agent time and `t` of tests. */
const green = (id: string, s: number, t = 0, fields: Partial<RecordData<typeof RECORD_TYPES.cycleGreen>> = {}) =>
  record(RECORD_TYPES.cycleGreen, item(id), { turnMs: s * 1000, testRunMs: t * 1000, ...fields });
const kinds = (smells: readonly Smell[]) => smells.map((s) => s.kind);
const only = (records: LedgerRecord[], kind: Smell['kind'], thresholds?: SmellThresholds) =>
  featureSmells(records, 'F-1', thresholds).filter((s) => s.kind === kind);

describe('stall', () => {
  it('finds a turn at stallFactor times its step’s median (turn plus test run), not one just under', () => {
    const at = [green('T1', 8, 2), green('T2', 10), green('T3', 20, 10)];
    const [stall, ...rest] = only(at, 'stall');
    expect(rest).toEqual([]);
    expect(stall).toEqual({
      kind: 'stall',
      subject: { feature: 'F-1', ...item('T3') },
      says: "T3's GREEN turn took 30.0 s (agent 20.0 s, tests 10.0 s), 3.0× the feature's median GREEN turn of 10.0 s over 3 turns: look at what held it up in its transcript.",
      records: [at[2]!.seq],
    });
    expect(only([green('T1', 10), green('T2', 10), green('T3', 29.9)], 'stall')).toEqual([]);
    // A factor set higher in project.json: the same turn is no stall.
    expect(only(at, 'stall', { ...SMELL_DEFAULTS, stallFactor: 3.5 })).toEqual([]);
  });

  it('needs three turns of the step before it judges one, and compares steps only with themselves', () => {
    // With a low factor two turns would do (100 s is 2× their median of 50.5 s): two are not enough to judge by.
    const low = { ...SMELL_DEFAULTS, stallFactor: 1.5 };
    expect(only([green('T1', 1), green('T2', 100)], 'stall', low)).toEqual([]);
    expect(only([green('T1', 1), green('T2', 100), green('T3', 1)], 'stall', low).map((s) => s.subject.item)).toEqual(['T2']);
    const mixed = [green('T1', 10), green('T2', 10), record(RECORD_TYPES.cycleRed, item('T3'), { turnMs: 100_000 }), green('T3', 10)];
    expect(only(mixed, 'stall')).toEqual([]);
  });
});

describe('fragile', () => {
  it('finds an item that failed again after its GREEN, not one that failed before it (a repair)', () => {
    const repaired = [green('T1', 1, 0, { verdict: 'failing', attempt: 1 }), green('T1', 1, 0, { attempt: 2 })];
    expect(only(repaired, 'fragile')).toEqual([]);
    const passed = green('T2', 1);
    const again = record(RECORD_TYPES.cycleGreen, item('T2', 2), { verdict: 'failing' });
    const regressed = record(RECORD_TYPES.cycleRed, item('T2', 2), { verdict: 'regressed' });
    const [smell, ...rest] = only([...repaired, passed, again, regressed], 'fragile');
    expect(rest).toEqual([]);
    expect(smell).toMatchObject({ subject: { feature: 'F-1', story: 'S-1', item: 'T2' }, records: [passed.seq, again.seq, regressed.seq] });
    expect(smell!.says).toMatch(/^T2 went red again after its GREEN: 2 later verdicts failed/);
  });

  it('finds flaky verdicts of an item and a merged suite that ran flaky', () => {
    const flaky = record(RECORD_TYPES.cycleRed, item('T1'), { verdict: 'flaky' });
    const verified = record(RECORD_TYPES.featureVerified, {}, { feature: 'F-1', flaky: ['stock.test.js > reserves'] });
    const smells = only([flaky, verified, record(RECORD_TYPES.featureVerified, {}, { feature: 'F-1', flaky: [] })], 'fragile');
    expect(smells.map((s) => [s.subject, s.records])).toEqual([
      [{ feature: 'F-1', story: 'S-1', item: 'T1' }, [flaky.seq]],
      [{ feature: 'F-1' }, [verified.seq]],
    ]);
    expect(smells[0]!.says).toMatch(/^T1 had 1 flaky verdict:/);
    expect(smells[1]!.says).toContain('stock.test.js > reserves');
  });
});

describe('repeated-violations', () => {
  const violation = (id: string, actor: Actor, against = 'the lock') =>
    record(RECORD_TYPES.cycleViolation, item(id), { step: actor === NAVIGATOR ? 'red' : 'green', against }, actor);

  it('finds a role with repeatedViolations or more, not one with one fewer', () => {
    const records = [violation('T1', DRIVER), violation('T1', NAVIGATOR), violation('T2', DRIVER, 'the test run')];
    const [smell, ...rest] = only(records, 'repeated-violations');
    expect(rest).toEqual([]);
    expect(smell).toEqual({
      kind: 'repeated-violations',
      subject: { feature: 'F-1' },
      says: 'The driver broke the rules 2 times in F-1 (1 against the lock, 1 against the test run; T1, T2): check its prompt, its agent or its write scope.',
      records: [records[0]!.seq, records[2]!.seq],
    });
    expect(only(records, 'repeated-violations', { ...SMELL_DEFAULTS, repeatedViolations: 3 })).toEqual([]);
  });
});

describe('repair-loop', () => {
  const finished = (id: string, reason = 'Still failing after 1 repair round.') =>
    record(RECORD_TYPES.cycleFinished, item(id), { status: 'escalated', reason });

  it('finds a cycle that escalated with its repairs spent, not one with no repair round or one a run escalated', () => {
    const loop = [green('T1', 1, 0, { attempt: 1, verdict: 'failing' }), green('T1', 1, 0, { attempt: 2, verdict: 'failing' }), finished('T1')];
    const [smell, ...rest] = only(loop, 'repair-loop');
    expect(rest).toEqual([]);
    expect(smell).toMatchObject({ subject: { feature: 'F-1', ...item('T1') }, records: loop.map((r) => r.seq) });
    expect(smell!.says).toBe(
      'T1 spent its repair budget: 2 GREEN attempts, none passed, and it escalated ("Still failing after 1 repair round."); read the failure, and amend the test if it asks for the wrong thing.',
    );
    // A budget of 0: one failing attempt escalates, with no loop.
    expect(only([green('T2', 1, 0, { verdict: 'failing' }), finished('T2')], 'repair-loop')).toEqual([]);
    // A flaky suite asks for a person at once: no repair would help, so it is no loop.
    const flaky = [
      green('T3', 1, 0, { verdict: 'failing' }),
      green('T3', 1, 0, { attempt: 2, verdict: 'flaky', escalate: 'The suite is flaky.' }),
      finished('T3'),
    ];
    expect(only(flaky, 'repair-loop')).toEqual([]);
    // GREEN after a repair, then a later step failed: the budget was not what ran out.
    const later = [green('T4', 1, 0, { verdict: 'failing' }), green('T4', 1, 0, { attempt: 2 }), finished('T4', 'The refactor step failed: boom')];
    expect(only(later, 'repair-loop')).toEqual([]);
  });
});

describe('gates', () => {
  const approved = (fields: Partial<RecordData<typeof RECORD_TYPES.gateApproved>>, story?: string) =>
    record(RECORD_TYPES.gateApproved, { gate: 'acceptance', ...(story ? { story } : {}) }, { gate: 'acceptance', ...fields }, ADA);

  it('rubber-stamp: an approval with its evidence open under rubberStampSeconds; not at it, not unrecorded, not a rejection', () => {
    const quick = approved({ viewedMs: 12_000 }, 'S-1');
    const under = approved({ viewedMs: 29_999 });
    const records = [
      quick,
      under,
      approved({ viewedMs: 30_000 }),
      approved({}),
      record(RECORD_TYPES.gateRejected, { gate: 'spec' }, { gate: 'spec', viewedMs: 1000 }, ADA),
    ];
    const smells = only(records, 'rubber-stamp');
    expect(smells.map((s) => s.records)).toEqual([[quick.seq], [under.seq]]);
    expect(smells[0]).toEqual({
      kind: 'rubber-stamp',
      subject: { feature: 'F-1', gate: 'acceptance', story: 'S-1' },
      says: 'The acceptance gate of S-1 was approved by Ada <ada@example.com> with its evidence open for 12.0 s (under 30 s): make sure what it approved was read.',
      records: [quick.seq],
    });
    expect(only(records, 'rubber-stamp', { ...SMELL_DEFAULTS, rubberStampSeconds: 12 }).map((s) => s.records)).toEqual([]);
  });

  it('long-wait: a decision (approval or rejection) that waited over gateWaitHours, not one that waited exactly that', () => {
    const rejected = record(RECORD_TYPES.gateRejected, { gate: 'spec' }, { gate: 'spec', waitedMs: 30 * HOUR }, ADA);
    const records = [approved({ waitedMs: 24 * HOUR }), rejected];
    const [smell, ...rest] = only(records, 'long-wait');
    expect(rest).toEqual([]);
    expect(smell).toMatchObject({ subject: { feature: 'F-1', gate: 'spec' }, records: [rejected.seq] });
    expect(smell!.says).toBe(
      'The spec gate waited 30.0 h for a decision (over 24 h) while the work behind it stood still: decide gates sooner, or name more approvers.',
    );
    expect(only(records, 'long-wait', { ...SMELL_DEFAULTS, gateWaitHours: 30 })).toEqual([]);
  });

  it('long-wait: given the gates and the time now, a gate a person could decide that has waited over gateWaitHours so far', () => {
    const now = new Date('2026-12-03T12:00:00.000Z');
    const since = (hours: number): string => new Date(now.getTime() - hours * HOUR).toISOString();
    const gate = (name: string, hours: number, extra: object = {}) => ({
      name,
      story: null,
      status: 'open',
      pendingSince: since(hours),
      blockedBy: null,
      ...extra,
    });
    const sentBack = record(RECORD_TYPES.gateRejected, { gate: 'acceptance', story: 'S-2' }, { gate: 'acceptance', waitedMs: HOUR }, ADA);
    const gates = [
      gate('design', 30),
      gate('acceptance', 25, { story: 'S-2' }),
      gate('spec', 23),
      gate('test_list', 40, { blockedBy: { kind: 'earlier-gate' } }),
      gate('deploy', 40, { status: 'approved' }),
      gate('promote', 40, { pendingSince: null }),
    ];
    const smells = featureSmells([sentBack], 'F-1', SMELL_DEFAULTS, { gates, now }).filter((s) => s.kind === 'long-wait');
    expect(smells).toEqual([
      {
        kind: 'long-wait',
        subject: { feature: 'F-1', gate: 'design' },
        says: 'The design gate has waited 30.0 h for a decision so far (over 24 h), and the work behind it stands still: decide it, or name more approvers.',
        records: [],
      },
      {
        kind: 'long-wait',
        subject: { feature: 'F-1', gate: 'acceptance', story: 'S-2' },
        says: 'The acceptance gate of S-2 has waited 25.0 h for a decision so far (over 24 h), and the work behind it stands still: decide it, or name more approvers.',
        records: [sentBack.seq],
      },
    ]);
    // Without the time now the report is the ledger's alone, as before.
    expect(featureSmells([sentBack], 'F-1').filter((s) => s.kind === 'long-wait')).toEqual([]);
    expect(projectSmells([sentBack], [{ id: 'F-1', gates }], SMELL_DEFAULTS, now).filter((s) => s.kind === 'long-wait')).toHaveLength(2);
  });
});

describe('the report', () => {
  it('lists smells by kind, then by their first record; other features’ records stay out', () => {
    const records = [
      specApproved({ waitedMs: 48 * HOUR }),
      green('T1', 1),
      green('T2', 1),
      green('T3', 5),
      record(RECORD_TYPES.cycleRed, item('T9'), { verdict: 'flaky' }),
      record(RECORD_TYPES.cycleRed, { feature: 'F-2', item: 'T1', cycle: 'F-2/T1' }, { verdict: 'flaky' }),
      record(RECORD_TYPES.cycleRed, item('T8'), { verdict: 'flaky' }),
    ];
    const smells = featureSmells(records, 'F-1');
    expect(kinds(smells)).toEqual(['stall', 'fragile', 'fragile', 'long-wait']);
    expect(smells.filter((s) => s.kind === 'fragile').map((s) => s.subject.item)).toEqual(['T9', 'T8']);
    expect(projectSmells(records, [{ id: 'F-1' }, { id: 'F-2' }]).map((s) => s.subject.feature)).toEqual(['F-1', 'F-1', 'F-1', 'F-1', 'F-2']);
    expect(featureSmells([], 'F-1')).toEqual([]);
  });
});

function specApproved(fields: Partial<RecordData<typeof RECORD_TYPES.gateApproved>>): LedgerRecord {
  return record(RECORD_TYPES.gateApproved, { gate: 'spec' }, { gate: 'spec', ...fields }, ADA);
}

/** A small deterministic generator (mulberry32): the same seed, the same ledger, on every machine. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A ledger of two features with random turns, verdicts, violations, escalations and gate decisions. */
function generated(seed: number): LedgerRecord[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const out: LedgerRecord[] = [];
  for (let i = 0; i < 40; i++) {
    const feature = pick(['F-1', 'F-2']);
    const subject = { feature, ...item(pick(['T1', 'T2', 'T3', 'T4']), pick([1, 2])) };
    const ms = Math.floor(next() * 60_000);
    out.push(
      pick([
        () => record(RECORD_TYPES.cycleGreen, subject, { turnMs: ms, attempt: pick([1, 2, 3]), verdict: pick(['green', 'failing', 'flaky']) }),
        () => record(RECORD_TYPES.cycleRed, subject, { turnMs: ms, verdict: pick(['red', 'regressed', 'flaky']) }),
        () => record(RECORD_TYPES.cycleViolation, subject, { step: pick(['red', 'green']) }, pick([DRIVER, NAVIGATOR])),
        () => record(RECORD_TYPES.cycleFinished, subject, { status: pick(['done', 'escalated']) }),
        () => record(RECORD_TYPES.gateApproved, { feature, gate: 'spec' }, { waitedMs: ms * 3000, viewedMs: ms }, ADA),
      ])(),
    );
  }
  return out;
}

describe('the report over generated ledgers', () => {
  const stricter: SmellThresholds = { stallFactor: 4, rubberStampSeconds: 10, gateWaitHours: 36, repeatedViolations: 3 };
  const key = (s: Smell) => `${s.kind} ${s.records.join(',')} ${JSON.stringify(s.subject)}`;

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: order-independent, names its own records, stricter thresholds find no more', (n) => {
    const records = generated(n);
    const smells = featureSmells(records, 'F-1');
    expect(featureSmells([...records].reverse(), 'F-1')).toEqual(smells);
    const own = new Set(records.filter((r) => r.subject.feature === 'F-1').map((r) => r.seq));
    for (const s of smells) {
      expect(s.records.length).toBeGreaterThan(0);
      expect(s.records.every((r) => own.has(r))).toBe(true);
      expect([...s.records].sort((a, b) => a - b)).toEqual(s.records);
    }
    const ranks = smells.map((s) => SMELL_KINDS.indexOf(s.kind));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    const loose = new Set(smells.map(key));
    for (const s of featureSmells(records, 'F-1', stricter)) expect(loose, key(s)).toContain(key(s));
  });

  it('the generated ledgers do hold smells of every kind (so the property is not vacuous)', () => {
    const found = new Set([1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => kinds(featureSmells(generated(n), 'F-1'))));
    expect([...found].sort()).toEqual([...SMELL_KINDS].sort());
  });
});

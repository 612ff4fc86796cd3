import { describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { withSample } from '../../shared/records.fixture';
import type { LedgerRecord } from '../../shared/ledger';
import { recordHash } from '../ledger';
import { foldGates, gateKey } from './state';

const H = 'c'.repeat(64);
let seq = 0;
const record = (type: string, subject: LedgerRecord['subject'], data: Record<string, unknown>): LedgerRecord => {
  seq += 1;
  const body: Omit<LedgerRecord, 'hash'> = {
    seq,
    at: `2025-01-01T00:00:0${seq % 10}Z`,
    type,
    actor: { kind: 'person', id: 'po' },
    subject,
    data: withSample(type, data),
    blobs: [],
    prev: H,
  };
  return { ...body, hash: recordHash(body) };
};
const approval = (gate: string, story?: string) =>
  record(
    'gate.approved',
    { feature: 'F-1', gate, ...(story ? { story } : {}) },
    { gate, approver: 'po', artifacts: { 'a.json': { sha256: H, algorithm: 'jcs-sha256' } } },
  );
const statusOf = (records: LedgerRecord[], gate: string, story?: string) => foldGates(records).get(gateKey({ feature: 'F-1', gate, story }))?.status;

describe('foldGates', () => {
  it('shows no decision from an approval whose record no longer hashes to its hash (an edited approver)', () => {
    const genuine = approval('spec');
    expect(statusOf([genuine], 'spec')).toBe('approved');
    const forged = { ...genuine, data: { ...genuine.data, approver: 'Mallory' } };
    expect(statusOf([forged], 'spec')).toBeUndefined();
    // An intact earlier approval stays in force; the forged one after it changes nothing.
    const folded = foldGates([genuine, { ...forged, seq: genuine.seq + 1 }]).get(gateKey({ feature: 'F-1', gate: 'spec' }));
    expect(folded?.approval?.approver).toBe('po');
  });

  it('reopens what data.reopened names, in every story, and falls back to the downstream gates without it', () => {
    const base = [approval('spec'), approval('design'), approval('test_list'), approval('acceptance', 'S-1'), approval('acceptance', 'S-2')];
    const listed = [...base, record('gate.withdrawn', { feature: 'F-1', gate: 'design' }, { reason: 'r', reopened: ['test_list'] })];
    expect(statusOf(listed, 'spec')).toBe('approved');
    expect(statusOf(listed, 'design')).toBe('withdrawn');
    expect(statusOf(listed, 'test_list')).toBe('open');
    expect(statusOf(listed, 'acceptance', 'S-1')).toBe('approved');
    const unlisted = [...base, record('gate.withdrawn', { feature: 'F-1', gate: 'design' }, { reason: 'r' })];
    expect(statusOf(unlisted, 'acceptance', 'S-1')).toBe('open');
    expect(statusOf(unlisted, 'acceptance', 'S-2')).toBe('open');
  });

  it('reopens a rejected gate once the orchestrator takes that rejection up, and not for an older one', () => {
    const rejection = (hash: string) => ({ ...record(RECORD_TYPES.gateRejected, { feature: 'F-1', gate: 'design' }, { reason: 'no' }), hash });
    const revising = (of: string) =>
      record(RECORD_TYPES.gateRevising, { feature: 'F-1', gate: 'design' }, { gate: 'design', rejection: of, note: 'no', items: [] });
    const first = rejection('1'.repeat(64));
    const second = rejection('2'.repeat(64));
    expect(statusOf([first, revising(first.hash)], 'design')).toBe('open');
    expect(foldGates([first, revising(first.hash)]).get(gateKey({ feature: 'F-1', gate: 'design' }))?.note).toBe('sent back: no; revising');
    // A second rejection after the first was taken up stands until it is taken up in turn.
    expect(statusOf([first, revising(first.hash), second], 'design')).toBe('rejected');
    expect(statusOf([first, second, revising(first.hash)], 'design')).toBe('rejected');
    // Taking up a rejection never reopens an approval.
    expect(statusOf([first, approval('design'), revising(first.hash)], 'design')).toBe('approved');
  });

  it('keeps the last approval after a withdrawal and remembers what was withdrawn', () => {
    const folds = foldGates([approval('spec'), record('gate.withdrawn', { feature: 'F-1', gate: 'spec' }, { reason: 'scope', reopened: [] })]);
    const spec = folds.get(gateKey({ feature: 'F-1', gate: 'spec' }))!;
    expect(spec).toMatchObject({ status: 'withdrawn', approval: null, note: 'scope' });
    expect(spec.lastApproval?.artifacts).toEqual([{ name: 'a.json', sha256: H, algorithm: 'jcs-sha256' }]);
    expect(spec.withdrawn).toBe(spec.lastApproval);
  });

  it('ignores an approval that names no valid hashes (it binds nothing) and records of other kinds', () => {
    const bad = record('gate.approved', { feature: 'F-1', gate: 'spec' }, { artifacts: { 'a.json': { sha256: 'nope', algorithm: 'jcs-sha256' } } });
    const empty = record('gate.approved', { feature: 'F-1', gate: 'spec' }, { artifacts: {} });
    const other = record('cycle.greened', { feature: 'F-1', gate: 'spec' }, {});
    expect(foldGates([bad, empty, other]).size).toBe(0);
  });

  it('fails closed: a malformed rejection or withdrawal still takes the approval back (only its words are lost)', () => {
    const withdrawn = foldGates([approval('spec'), approval('design'), record('gate.withdrawn', { feature: 'F-1', gate: 'spec' }, { reason: 42 })]);
    expect(withdrawn.get(gateKey({ feature: 'F-1', gate: 'spec' }))).toMatchObject({ status: 'withdrawn', approval: null, note: null });
    expect(withdrawn.get(gateKey({ feature: 'F-1', gate: 'design' }))?.status).toBe('open');
    const rejected = foldGates([approval('spec'), record('gate.rejected', { feature: 'F-1', gate: 'spec' }, { approver: ['po'] })]);
    expect(rejected.get(gateKey({ feature: 'F-1', gate: 'spec' }))).toMatchObject({ status: 'rejected', approval: null });
  });

  it('a rejection replaces an approval and keeps its reason', () => {
    const folds = foldGates([approval('spec'), record('gate.rejected', { feature: 'F-1', gate: 'spec' }, { reason: 'too vague' })]);
    expect(folds.get(gateKey({ feature: 'F-1', gate: 'spec' }))).toMatchObject({ status: 'rejected', note: 'too vague', approval: null });
  });
});

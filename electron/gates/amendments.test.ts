/**
 * Test amendments folded from a real ledger: what can be proposed (fail closed), one decision each,
 * an approval that is stale once the item is locked again, an approved amendment deciding an open
 * escalation, and the gates that wait while one is open.
 */
import { createHash } from 'node:crypto';
import { RECORD_TYPES } from '../../shared/records';
import { afterEach, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { readProject } from '../project';
import { removeDir } from '../project/temp-project.fixture';
import { amendmentError, annotateAmendments, decideAmendment, foldAmendments, itemLock, proposeAmendment } from './amendments';
import { cycleIdFor, escalationsOf, foldEscalations } from './escalations';
import { makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

let project: TestProject | undefined;
afterEach(async () => {
  if (project) await removeDir(project.root);
  project = undefined;
});

const OLD = "test('T1 adds', () => assert.equal(add(2, 3), 5));\n";
const NEW = "test('T1 adds', () => assert.equal(add(0.1, 0.2), 0.3));\n";
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const orchestrator = { kind: 'orchestrator', id: 'baton' } as const;

/** The records a cycle leaves when it locks `files` for `item` in `round` (its RED kept them). */
async function lock(item: string, files: Record<string, string>, round = 1, amendment?: string): Promise<LedgerRecord> {
  const p = project!;
  const subject = { feature: 'F-1', story: 'S-1', item, cycle: cycleIdFor('F-1', item, round) };
  const kept = Object.keys(files).map((path) => ({ kind: 'added', path }));
  const red = await p.ledger.append({
    type: RECORD_TYPES.cycleRed,
    actor: orchestrator,
    subject,
    data: {
      key: 'red:1',
      attempt: 1,
      violations: 0,
      kept,
      outOfScope: [],
      turnMs: 1,
      agentExitCode: 0,
      tells: [],
      verdict: 'red',
      failing: [],
      worktree: '/tmp/w',
    },
    blobs: [],
  });
  const entries = Object.entries(files);
  return p.ledger.append({
    type: RECORD_TYPES.cycleLocked,
    actor: orchestrator,
    subject,
    data: {
      key: 'lock',
      files: [
        ...entries.map(([path, text]) => ({ path, sha256: sha(text), bytes: text.length, mode: 0o644 })),
        { path: 'test/other.test.js', sha256: sha('x'), bytes: 1, mode: 0o644 },
      ],
      testCommand: 'npm test',
      testCommandSha256: sha('npm test'),
      cases: [{ id: `${item} adds`, status: 'failed', message: null }],
      red: red.hash,
      tree: null,
      ...(amendment ? { amendment } : {}),
    },
    blobs: entries.map(([path, text]) => ({ name: `locked/${path}`, content: text })),
  });
}

async function view(): Promise<ProjectView> {
  const read = await readProject(project!.root);
  if (!read.ok) throw new Error(read.error.message);
  return annotateAmendments(read.value, await project!.records());
}

const propose = async (files: { path: string; content: string }[], over: Partial<Parameters<typeof proposeAmendment>[2]> = {}) =>
  proposeAmendment(await view(), project!.ledger, {
    feature: 'F-1',
    item: 'T1',
    files,
    reason: 'The AC says to the cent.',
    by: { kind: 'person', id: PERSON },
    ...over,
  });

describe('proposing an amendment', () => {
  it("takes only the item's own locked tests, changed, with a person and a reason, one open at a time", async () => {
    project = await makeBatonProject();
    const code = async (...args: Parameters<typeof propose>) => {
      const r = await propose(...args);
      return r.ok ? 'ok' : r.error.code;
    };
    // Before its first LOCK an item has nothing to amend.
    expect(await code([{ path: 'test/t1.test.js', content: NEW }])).toBe('not-locked');
    await lock('T1', { 'test/t1.test.js': OLD });
    // test/other.test.js is in the lock but not T1's own: its RED did not write it.
    expect(await code([{ path: 'test/other.test.js', content: NEW }])).toBe('not-locked');
    expect(await code([{ path: 'test/t1.test.js', content: OLD }])).toBe('unchanged');
    expect(await code([{ path: 'test/t1.test.js', content: NEW }], { reason: '  ' })).toBe('no-reason');
    expect(await code([{ path: 'test/t1.test.js', content: NEW }], { by: { kind: 'person', id: '' } })).toBe('no-identity');
    expect(await code([{ path: 'test/t1.test.js', content: 'x'.repeat(1_000_001) }])).toBe('invalid-request');
    expect(await code([{ path: 'test/t1.test.js', content: NEW }], { item: 'T9' })).toBe('not-found');
    const made = await propose([{ path: 'test/t1.test.js', content: NEW }]);
    expect(made.ok && made.value.data).toMatchObject({
      files: [{ path: 'test/t1.test.js', sha256: sha(NEW), was: sha(OLD) }],
      reason: 'The AC says to the cent.',
    });
    expect(await code([{ path: 'test/t1.test.js', content: `${NEW}\n` }])).toBe('amendment-open');
    const shown = (await view()).features[0]!;
    expect(shown.amendments).toMatchObject([{ item: 'T1', status: 'pending', rerun: null, cycle: 'F-1/T1' }]);
    expect(shown.lockedTests).toEqual([
      { item: 'T1', lock: expect.any(String), cycle: 'F-1/T1', files: [{ path: 'test/t1.test.js', sha256: sha(OLD), bytes: OLD.length }] },
    ]);
  });

  it('is refused in a read-only project', async () => {
    project = await makeBatonProject();
    await lock('T1', { 'test/t1.test.js': OLD });
    const r = await proposeAmendment({ ...(await view()), readOnly: true }, project.ledger, {
      feature: 'F-1',
      item: 'T1',
      files: [{ path: 'test/t1.test.js', content: NEW }],
      reason: 'r',
      by: { kind: 'person', id: PERSON },
    });
    expect(r.ok ? null : r.error.code).toBe('read-only');
  });
});

describe('deciding an amendment', () => {
  it('one decision each; a rejection needs a note; an approval is stale once the item was locked again', async () => {
    project = await makeBatonProject();
    const old = await lock('T1', { 'test/t1.test.js': OLD });
    const made = await propose([{ path: 'test/t1.test.js', content: NEW }]);
    if (!made.ok) throw new Error(made.error.message);
    const decide = async (decision: 'approve' | 'reject', note?: string) => {
      const r = await decideAmendment(await view(), project!.ledger, { feature: 'F-1', amendment: made.value.hash, decision, note, approver: PERSON });
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await decide('reject')).toBe('no-reason');
    // The item is locked again (another round) before anyone decides: approving would amend a lock that no longer holds.
    await lock('T1', { 'test/t1.test.js': OLD }, 2);
    expect(await decide('approve')).toBe('stale-artifact');
    expect(await decide('reject', 'Locked again since; propose it anew.')).toBe('ok');
    expect(await decide('approve')).toBe('not-pending');
    expect(itemLock(await project.records(), 'F-1', 'T1')!.record.hash).not.toBe(old.hash);
    expect(foldAmendments(await project.records()).map((s) => s.status)).toEqual(['rejected']);
  });

  it('an approval decides an open escalation of that round and starts the next; the gates after building wait until the re-run ends', async () => {
    project = await makeBatonProject();
    await lock('T1', { 'test/t1.test.js': OLD });
    await project.ledger.append({
      type: RECORD_TYPES.cycleFinished,
      actor: orchestrator,
      subject: { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1' },
      data: { key: 'finished', status: 'escalated', reason: 'repair budget spent', round: 1 },
    });
    const made = await propose([{ path: 'test/t1.test.js', content: NEW }]);
    if (!made.ok) throw new Error(made.error.message);
    const records = async () => project!.records();
    const acceptance = { feature: 'F-1', story: 'S-1', gate: 'acceptance' };
    expect(amendmentError(acceptance, await records())?.message).toMatch(/waits for a decision/);
    expect(amendmentError({ feature: 'F-1', gate: 'test_list' }, await records())).toBeNull();
    expect(amendmentError({ ...acceptance, story: 'S-2' }, await records())).toBeNull();
    expect(escalationsOf(foldEscalations(await records()), 'F-1', 'T1').open).not.toBeNull();

    const approved = await decideAmendment(await view(), project.ledger, { feature: 'F-1', amendment: made.value.hash, decision: 'approve', approver: PERSON });
    expect(approved.ok).toBe(true);
    const state = escalationsOf(foldEscalations(await records()), 'F-1', 'T1');
    expect(state).toMatchObject({ round: 2, open: null, decided: { decision: 'retry', amendment: made.value.hash } });
    expect(amendmentError({ feature: 'F-1', gate: 'deploy' }, await records())?.message).toMatch(/has not re-run yet/);
    expect((await view()).features[0]!.amendments[0]).toMatchObject({ status: 'approved', rerun: 'waiting', decidedBy: PERSON });

    // The re-run locks the amended test, naming the amendment, then finishes.
    const relock = await lock('T1', { 'test/t1.test.js': NEW }, 2, made.value.hash);
    expect((await view()).features[0]!.amendments[0]).toMatchObject({ rerun: 'locked', rerunCycle: 'F-1/T1#2' });
    expect(itemLock(await records(), 'F-1', 'T1')).toMatchObject({ record: { hash: relock.hash }, own: [{ path: 'test/t1.test.js', sha256: sha(NEW) }] });
    await project.ledger.append({
      type: RECORD_TYPES.cycleFinished,
      actor: orchestrator,
      subject: { feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1#2' },
      data: { key: 'finished', status: 'done', round: 2 },
    });
    expect(amendmentError(acceptance, await records())).toBeNull();
    const view2 = (await view()).features[0]!.amendments[0]!;
    expect(view2.rerun).toBe('green');
    // The old round's records, superseded: its RED, its lock and its end.
    expect(view2.usedBy.map((u) => u.type)).toEqual([RECORD_TYPES.cycleRed, RECORD_TYPES.cycleLocked, RECORD_TYPES.cycleFinished]);
  });
});

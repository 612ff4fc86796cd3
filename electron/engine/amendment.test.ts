/**
 * Test amendments end to end on a real project (git, PGlite, node:test): the Navigator proposes one
 * in REVIEW, the acceptance gate cannot be approved while it waits, a person approves it with
 * `baton amend`, and the next run re-runs the item — RED against the amended test, a lock on its
 * hashes that names the amendment, GREEN — while the old round's evidence stays, superseded. A
 * rejected amendment leaves the lock as it was.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { RECORD_TYPES } from '../../shared/records';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AmendmentView } from '../../shared/model';
import { main } from '../cli/main';
import { itemLock } from '../gates/amendments';
import { approveGate, gateEvidence } from '../gates';
import { Ledger, verifyChain } from '../ledger';
import { readProject } from '../project';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { amendmentsIn } from './amend-steps';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
const PERSON = 'Ada Lovelace <ada@example.com>';
const WEAK = testFile([['T1 adds', 'assert.equal(calc.fT1?.(2, 3), 5);']]);
// The AC says money adds exactly to the cent: 0.1 + 0.2 is 0.3, which a + b is not.
const AMENDED = testFile([
  ['T1 adds', 'assert.equal(calc.fT1?.(2, 3), 5);'],
  ['T1 adds to the cent', 'assert.equal(calc.fT1?.(0.1, 0.2), 0.3);'],
]);
const SCENARIO = {
  turns: [
    { role: 'navigator', item: 'T1', round: 1, write: { 'test/T1.test.js': WEAK } },
    { role: 'driver', item: 'T1', round: 1, write: { 'src/calc.js': calcSource(['T1']) } },
    {
      role: 'navigator',
      step: 'review',
      item: 'T1',
      round: 1,
      write: { 'test/T1.test.js': AMENDED },
      say: 'The test misses the AC.\nBATON-AMEND: test/T1.test.js the AC says amounts add exactly to the cent; the test never checks it\nBATON-REVIEW: accept',
      decision: 'accept',
    },
    // Round 2 (the amendment's): by then T2 is built too.
    { role: 'driver', item: 'T1', round: 2, write: { 'src/calc.js': `${calcSource(['T2'])}export const fT1 = (a, b) => Math.round((a + b) * 100) / 100;\n` } },
    { role: 'navigator', item: 'T2', write: { 'test/T2.test.js': testFile([['T2 adds', 'assert.equal(calc.fT2?.(2, 3), 5);']]) } },
    { role: 'driver', item: 'T2', write: { 'src/calc.js': calcSource(['T1', 'T2']) } },
  ],
};

async function baton(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--json'], { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, json: out.length ? JSON.parse(out.join('\n')) : null, err: err.join('\n') };
}

describe('BATON-AMEND lines', () => {
  it('names a path and a reason; the last line per path wins; anything else is not an amendment', () => {
    const said = 'BATON-AMEND: test/a.test.js first\nnoise BATON-AMEND: nope\n  baton-amend: test/a.test.js second reason\nBATON-AMEND: test/b.test.js\n';
    expect([...amendmentsIn(said)]).toEqual([['test/a.test.js', 'second reason']]);
  });
});

describe('test amendments: proposed in REVIEW, approved, re-run (real runs)', () => {
  let project: CycleProject;
  const ledger = () => Ledger.forArtifactRoot(join(project.root, '.baton'));
  const records = async () => [...(await ledger().read()).records];
  const events: string[] = [];
  const run = () =>
    runFeature({
      root: project.root,
      until: 'acceptance',
      dataDir: project.dataDir,
      gatePollMs: 50,
      onEvent: (e) => {
        if (e.kind === 'turn.output') events.push(e.chunk);
      },
    });
  const amendments = async (): Promise<AmendmentView[]> => (await baton(['amend', 'list', project.root])).json.amendments;
  const approveAcceptance = async () => {
    const view = await readProject(project.root);
    if (!view.ok) throw new Error(view.error.message);
    const ref = { feature: 'F-1', story: 'S-1', gate: 'acceptance' as const };
    const evidence = await gateEvidence(view.value, ledger(), ref);
    const expect = evidence.ok ? Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!])) : {};
    return approveGate(view.value, ledger(), { ...ref, approver: PERSON, expect });
  };

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2'], SCENARIO as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it("the Navigator's amendment is recorded from its review, and acceptance cannot be approved while it waits", async () => {
    const first = await run();
    expect(first.phase).toBe('acceptance');
    expect(first.stoppedAt).toMatch(/cannot be approved yet: a test amendment of T1 waits for a decision \(`baton amend list`/);
    const [pending] = await amendments();
    expect(pending).toMatchObject({
      item: 'T1',
      status: 'pending',
      cycle: 'F-1/T1',
      proposedBy: { kind: 'agent', id: 'navigator:scripted' },
      reason: 'the AC says amounts add exactly to the cent; the test never checks it',
      files: [{ path: 'test/T1.test.js', sha256: createHash('sha256').update(AMENDED).digest('hex') }],
      rerun: null,
    });
    // The evidence of the cycle that used the old test: its RED, LOCK, GREEN and review.
    expect(pending!.usedBy.map((u) => u.type)).toEqual(
      expect.arrayContaining([RECORD_TYPES.cycleRed, RECORD_TYPES.cycleLocked, RECORD_TYPES.cycleGreen, RECORD_TYPES.cycleReviewed]),
    );
    expect(events.join('')).toContain('the Navigator proposed an amendment of test/T1.test.js');
    // The reviewer's write was reverted: the branch keeps the locked test.
    expect((await exec('git', ['show', 'baton/f-1--s-1:test/T1.test.js'], { cwd: project.root })).stdout).toBe(WEAK);
    const refused = await approveAcceptance();
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'amendment-open', message: expect.stringContaining('waits for a decision') });
  }, 240_000);

  it('baton amend refuses a second open amendment, a file that is not the item’s locked test, an unchanged test, a rejection without a note', async () => {
    const file = join(project.root, '..', 'new-test.js');
    await exec('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', 'changed', file]);
    const propose = (item: string, path: string, from = file) =>
      baton(['amend', 'propose', project.root, '--feature', 'F-1', '--item', item, '--path', path, '--from', from, '--reason', 'why', '--approver', PERSON]);
    expect((await propose('T1', 'test/T1.test.js')).json.error.code).toBe('amendment-open');
    expect((await propose('T2', 'test/T1.test.js')).json.error).toMatchObject({ code: 'not-locked', message: expect.stringContaining('test/T2.test.js') });
    await exec('git', ['show', 'baton/f-1--s-1:test/T2.test.js'], { cwd: project.root }).then(({ stdout }) =>
      exec('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', stdout, file]),
    );
    expect((await propose('T2', 'test/T2.test.js')).json.error.code).toBe('unchanged');
    const [pending] = await amendments();
    const reject = await baton(['amend', 'reject', project.root, '--amendment', pending!.id.slice(0, 10), '--approver', PERSON]);
    expect(reject.json.error.code).toBe('no-reason');
  });

  it('approved, the next run re-runs the item: RED against the amended test, the lock on its hashes, GREEN; the old evidence is superseded', async () => {
    const [pending] = await amendments();
    const before = itemLock(await records(), 'F-1', 'T1')!.record;
    const approved = await baton(['amend', 'approve', project.root, '--amendment', pending!.id.slice(0, 12), '--approver', PERSON]);
    expect(approved).toMatchObject({ code: 0, json: { ok: true, record: { type: RECORD_TYPES.amendmentDecided, data: { decision: 'approved' } } } });
    expect((await amendments())[0]).toMatchObject({ status: 'approved', rerun: 'waiting', decidedBy: PERSON });

    const second = await run();
    expect(second.phase).toBe('acceptance');
    const all = await records();
    const round2 = all.filter((r) => r.subject.cycle === 'F-1/T1#2');
    const red = round2.find((r) => r.type === RECORD_TYPES.cycleRed)!;
    expect(red.data).toMatchObject({ verdict: 'red', amendment: pending!.id, failing: [expect.stringContaining('to the cent')] });
    const lock = round2.find((r) => r.type === RECORD_TYPES.cycleLocked)!;
    expect(lock.data.amendment).toBe(pending!.id);
    expect((lock.data.files as { path: string; sha256: string }[]).find((f) => f.path === 'test/T1.test.js')?.sha256).toBe(pending!.files[0]!.sha256);
    expect(round2.find((r) => r.type === RECORD_TYPES.cycleGreen)?.data.verdict).toBe('green');
    // The lock moved; the old one is still in the ledger, linked from the amendment.
    expect(itemLock(all, 'F-1', 'T1')!.record.hash).toBe(lock.hash);
    expect(all.find((r) => r.hash === pending!.id)?.data.lock).toBe(before.hash);
    const view = (await amendments())[0]!;
    expect(view).toMatchObject({ rerun: 'green', rerunCycle: 'F-1/T1#2' });
    expect(view.usedBy.every((u) => all.find((r) => r.hash === u.hash)?.subject.cycle === 'F-1/T1')).toBe(true);
    // Exactly the amended test is on the experiment branch; T2 did not run again.
    expect((await exec('git', ['show', 'baton/f-1--s-1:test/T1.test.js'], { cwd: project.root })).stdout).toBe(AMENDED);
    expect(new Set(all.filter((r) => r.type === RECORD_TYPES.cyclePlanned && r.subject.item === 'T2').map((r) => r.subject.cycle))).toEqual(
      new Set(['F-1/T2']),
    );
    expect((await approveAcceptance()).ok).toBe(true);
  }, 240_000);

  it('a rejected amendment leaves the lock as it was, and the next run re-runs nothing', async () => {
    const file = join(project.root, '..', 'new-t2.js');
    await exec('sh', ['-c', `printf '%s' "$1" > "$2"`, 'sh', testFile([['T2 adds', 'assert.equal(calc.fT2?.(2, 2), 4);']]), file]);
    const lock = itemLock(await records(), 'F-1', 'T2')!.record.hash;
    const proposed = await baton([
      'amend',
      'propose',
      project.root,
      '--feature',
      'F-1',
      '--item',
      'T2',
      '--path',
      'test/T2.test.js',
      '--from',
      file,
      '--reason',
      'use other numbers',
      '--approver',
      PERSON,
    ]);
    expect(proposed).toMatchObject({ code: 0, json: { record: { type: RECORD_TYPES.testAmendment, actor: { kind: 'person', id: PERSON } } } });
    const rejected = await baton([
      'amend',
      'reject',
      project.root,
      '--amendment',
      proposed.json.record.hash,
      '--note',
      'the numbers are fine',
      '--approver',
      PERSON,
    ]);
    expect(rejected.code).toBe(0);
    expect((await baton(['amend', 'approve', project.root, '--amendment', proposed.json.record.hash, '--approver', PERSON])).json.error.code).toBe(
      'not-pending',
    );
    const count = (await records()).length;
    await runFeature({ root: project.root, until: 'deploy', dataDir: project.dataDir, gatePollMs: 50 });
    const all = await records();
    expect(itemLock(all, 'F-1', 'T2')!.record.hash).toBe(lock);
    expect(all.slice(count).some((r) => r.type === RECORD_TYPES.cyclePlanned)).toBe(false);
    const report = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(report.chain.ok).toBe(true);
    expect(report.problems).toEqual([]);
  }, 120_000);
});

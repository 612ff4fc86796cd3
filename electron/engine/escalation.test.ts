/**
 * Escalations end to end on a real project: the run stops at `escalated`, a person decides with
 * `baton resolve`, and the next run acts on it — a retried item runs its next round (and goes
 * green), a skipped one is set aside, an abandoned feature stops. Undecided, a run does nothing new.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { main } from '../cli/main';
import { Ledger, verifyChain } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
const PERSON = 'Ada Lovelace <ada@example.com>';
const failing = (item: string) => ({
  role: 'navigator' as const,
  item,
  write: { [`test/${item}.test.js`]: testFile([[`${item} adds`, `assert.equal(calc.f${item}?.(2, 3), 5);`]]) },
});
const SCENARIO = {
  turns: [
    // T1: the Driver gets it wrong in round 1 (no repair budget: escalated), right in round 2.
    failing('T1'),
    { role: 'driver', item: 'T1', write: { 'src/calc.js': 'export const add = (a, b) => a + b;\nexport const fT1 = (a, b) => a - b;\n' } },
    { role: 'driver', item: 'T1', round: 2, write: { 'src/calc.js': calcSource(['T1']) } },
    // T2: the Driver does nothing: escalated, then set aside.
    failing('T2'),
    // T3: wrong in every round: escalated twice, then the feature is abandoned.
    failing('T3'),
    { role: 'driver', item: 'T3', write: { 'src/calc.js': `${calcSource(['T1'])}export const fT3 = () => 0;\n` } },
  ],
};

async function resolve(root: string, item: string, decision: string, note?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['resolve', root, '--feature', 'F-1', '--item', item, '--decision', decision, '--approver', PERSON, ...(note ? ['--note', note] : []), '--json'],
    {
      out: (t) => out.push(t),
      err: (t) => err.push(t),
    },
  );
  return {
    code,
    json: out.length ? (JSON.parse(out.join('\n')) as { ok: boolean; record?: LedgerRecord; error?: { code: string; message: string } }) : null,
    err: err.join('\n'),
  };
}

describe('escalations decided by a person, acted on by the next run (real runs)', () => {
  let project: CycleProject;
  const ledger = () => Ledger.forArtifactRoot(join(project.root, '.baton'));
  const records = async () => [...(await ledger().read()).records];
  const run = () => runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 });

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2', 'T3'], SCENARIO as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('a run stops escalated with every escalation open; a second run without decisions changes nothing', async () => {
    const first = await run();
    expect(first.phase).toBe('escalated');
    expect(first.escalations.map((e) => e.item)).toEqual(['T1', 'T2', 'T3']);
    expect(first.stoppedAt).toMatch(/baton resolve .* --item T1 --decision retry\|skip\|abandon/);
    // T2's Driver took no turn (the scenario has none): said at once, not "still failing" after repairs.
    expect(first.escalations.find((e) => e.item === 'T2')?.reason).toMatch(
      /^The Driver took no turn: the scripted scenario has no turn for driver green T2 attempt 1/,
    );
    expect(first.escalations.find((e) => e.item === 'T1')?.reason).toMatch(/^Still failing after 0 repair rounds/);
    const before = (await records()).length;
    const again = await run();
    expect(again.phase).toBe('escalated');
    expect((await records()).length).toBe(before);
  }, 240_000);

  it('baton resolve refuses what it must: no reason to abandon, an item that is not escalated, an unknown decision', async () => {
    expect(await resolve(project.root, 'T3', 'abandon')).toMatchObject({ code: 1, json: { ok: false, error: { code: 'no-reason' } } });
    const notEscalated = await resolve(project.root, 'T9', 'retry');
    expect(notEscalated.json?.error?.code).toBe('not-escalated');
    const unknown = await resolve(project.root, 'T1', 'later');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--decision must be one of retry, skip, abandon');
  });

  it('retry runs the next round (green), skip sets the item aside, an escalation in the new round waits again', async () => {
    expect(await resolve(project.root, 'T1', 'retry', 'fT1 must add, not subtract')).toMatchObject({
      code: 0,
      json: { ok: true, record: { type: 'escalation.decided', actor: { kind: 'person', id: PERSON } } },
    });
    expect((await resolve(project.root, 'T2', 'skip', 'not needed for the first release')).code).toBe(0);
    expect((await resolve(project.root, 'T3', 'retry')).code).toBe(0);
    // Deciding twice is refused.
    expect((await resolve(project.root, 'T2', 'retry')).json?.error?.code).toBe('not-escalated');

    const second = await run();
    expect(second.phase).toBe('escalated');
    expect(second.items.byStatus).toMatchObject({ green: 1, skipped: 1, escalated: 1 });
    expect(second.escalations.map((e) => e.item)).toEqual(['T3']);
    const all = await records();
    const round2 = all.filter((r) => r.subject.cycle === 'F-1/T1#2');
    expect(round2.find((r) => r.type === 'cycle.green')?.data.verdict).toBe('green');
    expect(all.find((r) => r.subject.cycle === 'F-1/T3#2' && r.type === 'cycle.finished')?.data).toMatchObject({ status: 'escalated', round: 2 });
    // The retried item's GREEN is committed by the orchestrator with its evidence.
    const green = round2.find((r) => r.type === 'cycle.green')!;
    expect((await exec('git', ['log', 'baton/f-1--s-1', '--format=%B'], { cwd: project.root })).stdout).toContain(`Baton-Evidence: ${green.hash}`);
  }, 240_000);

  it('abandon ends the feature on the next run; the ledger stays intact', async () => {
    expect((await resolve(project.root, 'T3', 'abandon', 'the spec for T3 is wrong')).code).toBe(0);
    const third = await run();
    expect(third.phase).toBe('abandoned');
    const all = await records();
    const report = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(report.chain.ok).toBe(true);
    expect(report.problems).toEqual([]);
    // Every decision names its person and round.
    expect(all.filter((r) => r.type === 'escalation.decided').map((r) => [r.subject.item, r.data.decision, r.data.round])).toEqual([
      ['T1', 'retry', 1],
      ['T2', 'skip', 1],
      ['T3', 'retry', 1],
      ['T3', 'abandon', 2],
    ]);
  }, 120_000);
});

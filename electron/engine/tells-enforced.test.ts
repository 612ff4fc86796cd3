/**
 * Code that tells a test run apart, end to end on a real project (issue 30): a Driver whose code
 * reads `process.execArgv` passes the tests but is no GREEN — a violation, the repair budget spent,
 * escalated with how to allow it; after `baton allow-tells` (with a reason) and a retry the same code
 * goes GREEN, its tell recorded as allowed and put in front of the review. Honest configuration
 * (DATABASE_URL) goes GREEN first time; a REFACTOR that adds a tell is undone.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/record-types';
import { main } from '../cli/main';
import { Ledger, verifyChain } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, redTurn, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
const PERSON = 'Ada Lovelace <ada@example.com>';
// The right answer, but only where the command line says so: under the test runner it always does here.
const TELLING = `export const add = (a, b) => a + b;\nexport const fT1 = (a, b) => (process.execArgv.length >= 0 ? a + b : 0);\n`;
const HONEST = calcSource(['T2'], 'export const databaseUrl = () => process.env.DATABASE_URL ?? null;\n');
const SCENARIO = {
  turns: [
    redTurn('T1'),
    { role: 'driver', item: 'T1', write: { 'src/calc.js': TELLING } },
    redTurn('T2'),
    { role: 'driver', item: 'T2', write: { 'src/calc.js': HONEST } },
    // The refactor brings in a tell: undone, the GREEN code stays.
    { role: 'driver', step: 'refactor', item: 'T2', attempt: 1, write: { 'src/calc.js': `${HONEST}export const worker = () => process.pid;\n` } },
    // T1's next round: the same telling line, on top of T2's GREEN.
    { role: 'driver', item: 'T1', round: 2, write: { 'src/calc.js': `${TELLING}export const fT2 = (a, b) => a + b;\n` } },
  ],
};

async function baton(...args: string[]) {
  const out: string[] = [];
  const code = await main([...args, '--json'], { out: (t) => out.push(t), err: () => undefined });
  return { code, json: JSON.parse(out.join('\n')) as { ok: boolean; record?: LedgerRecord; error?: { code: string; message: string } } };
}

describe('code that tells a test run apart is a violation unless a person allows it (real runs)', () => {
  let project: CycleProject;
  let records: LedgerRecord[] = [];
  const read = async () => (records = [...(await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records]);
  const of = (item: string, type: string) => records.filter((r) => r.subject.item === item && r.type === type);
  const run = () => runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 });

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2'], SCENARIO as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('the telling code passes its tests but is no GREEN: a violation naming the tell, escalated with how to allow it', async () => {
    const summary = await run();
    await read();
    const [green] = of('T1', RECORD_TYPES.cycleGreen);
    expect(green!.data).toMatchObject({ verdict: 'failing', totals: { failed: 0 } });
    expect(String(green!.data.failure)).toMatch(/^Remove the code that tells a test run apart[^]*src\/calc\.js:2 reads the command line/);
    const [violation] = of('T1', RECORD_TYPES.cycleViolation);
    expect(violation!.actor.kind).toBe('agent');
    expect(violation!.data).toMatchObject({
      step: 'green',
      against: 'code that tells a test run apart',
      files: [{ path: 'src/calc.js', kind: 'tell' }],
      tells: [{ file: 'src/calc.js', line: 2, why: 'reads the command line', id: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    expect(of('T1', RECORD_TYPES.cycleGreened)).toEqual([]);
    const escalation = summary.escalations.find((e) => e.item === 'T1');
    expect(escalation?.reason).toMatch(/tells a test run apart[^]*baton allow-tells <project> --feature F-1 --item T1 --reason/);
  }, 240_000);

  it('honest configuration (DATABASE_URL) goes GREEN first time; a REFACTOR that adds a tell is undone and recorded', async () => {
    expect(of('T2', RECORD_TYPES.cycleGreened)).toHaveLength(1);
    expect(of('T2', RECORD_TYPES.cycleGreen)[0]!.data.tells).toEqual([]);
    const [refactor] = of('T2', RECORD_TYPES.cycleRefactored);
    expect(refactor!.data).toMatchObject({ verdict: 'reverted', detail: expect.stringContaining('reads its process ids') });
    expect(of('T2', RECORD_TYPES.cycleViolation).map((v) => v.data.step)).toEqual(['refactor']);
    const branch = (await exec('git', ['show', 'baton/f-1--s-1:src/calc.js'], { cwd: project.root })).stdout;
    expect(branch).toBe(HONEST);
  });

  it('baton allow-tells refuses without a reason or a tell the item does not have, records the person, the reason and the tell ids, and refuses a second time', async () => {
    expect(await baton('allow-tells', project.root, '--feature', 'F-1', '--item', 'T1', '--reason', ' ', '--approver', PERSON)).toMatchObject({
      code: 1,
      json: { ok: false, error: { code: 'invalid-request' } },
    });
    const notOne = await baton(
      'allow-tells',
      project.root,
      '--feature',
      'F-1',
      '--item',
      'T1',
      '--tell',
      'f'.repeat(64),
      '--reason',
      'x',
      '--approver',
      PERSON,
    );
    expect(notOne.json.error).toMatchObject({ code: 'not-found', message: expect.stringContaining('src/calc.js:2 reads the command line') });
    const allowed = await baton('allow-tells', project.root, '--feature', 'F-1', '--item', 'T1', '--reason', 'the CLI reads its flags', '--approver', PERSON);
    expect(allowed.code).toBe(0);
    const violationTells = of('T1', RECORD_TYPES.cycleViolation)[0]!.data.tells as Array<{ id: string }>;
    expect(allowed.json.record).toMatchObject({
      type: RECORD_TYPES.tellsAllowed,
      actor: { kind: 'person', id: PERSON },
      subject: { feature: 'F-1', item: 'T1' },
      data: { reason: 'the CLI reads its flags', tells: violationTells.map((t) => expect.objectContaining({ id: t.id })) },
    });
    expect((await baton('allow-tells', project.root, '--feature', 'F-1', '--item', 'T1', '--reason', 'again', '--approver', PERSON)).json.error?.code).toBe(
      'not-pending',
    );
  });

  it('after a retry the same code goes GREEN, its tell recorded as allowed and shown to the review; the ledger verifies', async () => {
    expect((await baton('resolve', project.root, '--feature', 'F-1', '--item', 'T1', '--decision', 'retry', '--approver', PERSON)).code).toBe(0);
    await run();
    await read();
    const round2 = records.filter((r) => r.subject.cycle === 'F-1/T1#2');
    const allowance = records.find((r) => r.type === RECORD_TYPES.tellsAllowed)!;
    const green = round2.find((r) => r.type === RECORD_TYPES.cycleGreen)!;
    expect(green.data).toMatchObject({ verdict: 'green', tells: [{ why: 'reads the command line', allowed: allowance.hash }] });
    expect(round2.some((r) => r.type === RECORD_TYPES.cycleGreened)).toBe(true);
    expect(round2.filter((r) => r.type === RECORD_TYPES.cycleViolation)).toEqual([]);
    expect(round2.find((r) => r.type === RECORD_TYPES.cycleReviewed)?.data.flagged).toEqual([expect.objectContaining({ allowed: allowance.hash })]);
    const report = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(report.chain.ok).toBe(true);
    expect(report.problems).toEqual([]);
  }, 240_000);
});

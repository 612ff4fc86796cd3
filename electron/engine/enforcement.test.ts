/**
 * The enforced loop with scripted agents that cheat: every cheat is caught, reverted where it
 * applies and recorded, and none ends GREEN. One project, one item per cheat, one run.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import type { RunSummary } from '../../shared/run';
import { Ledger, verifyChain } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
// Each item tests its own new function f<item>, which does not exist yet: a real RED every time.
const failing = (item: string) => ({
  role: 'navigator' as const,
  item,
  write: { [`test/${item}.test.js`]: testFile([[`${item} adds`, `assert.equal(calc.f${item}?.(2, 3), 5);`]]) },
});
const CHEATS: Record<string, object[]> = {
  // A real item first: RED, GREEN, refactor, review.
  T1: [failing('T1'), { role: 'driver', item: 'T1', write: { 'src/calc.js': calcSource(['T1']) } }],
  T2: [failing('T2'), { role: 'driver', item: 'T2', write: { 'test/T2.test.js': testFile([['T2 adds', 'assert.ok(true);']]) } }],
  T3: [failing('T3'), { role: 'driver', item: 'T3', delete: ['test/T3.test.js'] }],
  T4: [failing('T4'), { role: 'driver', item: 'T4', run: ['mv test/T4.test.js test/T4.test.js.off'] }],
  T5: [
    failing('T5'),
    {
      role: 'driver',
      item: 'T5',
      write: { 'test/T5.test.js': testFile([['T5 adds', 'assert.equal(calc.fT5?.(2, 3), 5);']]).replace('test("T5', 'test.skip("T5') },
    },
  ],
  T6: [failing('T6'), { role: 'driver', item: 'T6', write: { 'package.json': '{"name":"app","type":"module","scripts":{"test":"true"}}\n' } }],
  T7: [failing('T7'), { role: 'driver', item: 'T7', write: { '.baton/project.json': '{"repairBudget": 99}\n', 'src/other.js': 'export const x = 1;\n' } }],
  // The Navigator writes source that would make its own test pass: the source is reverted, the test is a RED.
  T8: [
    {
      role: 'navigator',
      item: 'T8',
      write: { 'test/T8.test.js': testFile([['T8 adds', 'assert.equal(calc.fT8?.(4, 4), 8);']]), 'src/calc.js': calcSource(['T1', 'T8']) },
    },
  ],
  // Nobody writes anything: no RED, twice, then escalated.
  T9: [],
};

describe('enforcement with scripted cheating agents (one real run)', () => {
  let project: CycleProject;
  let summary: RunSummary;
  let records: LedgerRecord[];
  const of = (item: string, type: string) => records.filter((r) => r.subject.item === item && r.type === type);

  beforeAll(async () => {
    const scenario = { turns: Object.values(CHEATS).flat() };
    project = await makeCycleProject(Object.keys(CHEATS), scenario as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
    summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });
    records = [...(await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records];
  }, 300_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('the honest item goes green and is committed by the orchestrator with the evidence trailer', async () => {
    const green = of('T1', 'cycle.green').find((r) => r.data.verdict === 'green')!;
    expect(green).toBeDefined();
    const log = (await exec('git', ['log', 'baton/f-1--s-1', '--format=%an|%B'], { cwd: project.root })).stdout;
    expect(log).toContain(`Baton-Evidence: ${green.hash}`);
    expect(log).toMatch(/^Baton\|feat\(T1\): GREEN/m);
  });

  for (const item of ['T2', 'T3', 'T4', 'T5', 'T6']) {
    it(`${item}: the Driver's change to the lock is caught, restored, recorded, and the item escalates`, () => {
      const violation = of(item, 'cycle.violation');
      expect(violation).toHaveLength(1);
      expect((violation[0]!.data.files as unknown[]).length).toBeGreaterThan(0);
      expect(violation[0]!.actor.kind).toBe('agent');
      expect(of(item, 'cycle.green').every((r) => r.data.verdict !== 'green')).toBe(true);
      expect(of(item, 'cycle.finished')[0]!.data.status).toBe('escalated');
    });
  }

  it('T7: a write to .baton/ is reverted and recorded as out of scope; the item does not go green', () => {
    const green = of('T7', 'cycle.green')[0]!;
    expect(green.data.outOfScope).toEqual([expect.objectContaining({ path: '.baton/project.json' })]);
    expect(green.data.verdict).toBe('failing');
  });

  it("T8: the Navigator's source change is reverted, so its test is a real RED", () => {
    const red = of('T8', 'cycle.red')[0]!;
    expect(red.data.verdict).toBe('red');
    expect(red.data.outOfScope).toEqual([expect.objectContaining({ path: 'src/calc.js' })]);
  });

  it('T9: an agent that writes nothing is no RED, sent back once, then escalated', () => {
    expect(of('T9', 'cycle.red').map((r) => r.data.verdict)).toEqual(['no-test', 'no-test']);
    expect(of('T9', 'cycle.finished')[0]!.data.status).toBe('escalated');
  });

  it("git holds the locked tests as locked; an escalated item's tests are parked off the branch", async () => {
    expect(String(of('T5', 'cycle.planned')[0]!.data.experiment)).toBe('baton/f-1--s-1');
    const git = async (...args: string[]) => (await exec('git', args, { cwd: project.root })).stdout;
    const lockCommit = (
      await git('log', 'baton/f-1--s-1', '--format=%H', '--fixed-strings', `--grep=Baton-Evidence: ${of('T5', 'cycle.locked')[0]!.hash}`)
    ).trim();
    expect(await git('show', `${lockCommit}:test/T5.test.js`)).not.toContain('test.skip');
    await expect(git('show', 'baton/f-1--s-1:test/T5.test.js')).rejects.toThrow();
    expect(await git('show', 'baton/f-1--s-1:test/T1.test.js')).toContain('T1 adds');
    expect(await git('show', 'baton/f-1--s-1:package.json')).toContain('node --test');
    expect(await readFile(join(project.root, 'package.json'), 'utf8')).toContain('node --test');
  });

  it('the summary counts what happened and the ledger verifies', async () => {
    expect(summary.items.byStatus.escalated).toBeGreaterThanOrEqual(7);
    expect(summary.violations).toBeGreaterThanOrEqual(5);
    const report = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(report.chain.ok).toBe(true);
    expect(report.problems).toEqual([]);
  });
});

/**
 * Mutation testing after GREEN, end to end on a real project (issue 30): a test that only checks
 * the function exists goes GREEN with any code, and its item's mutants all survive (weak, below
 * minScore); a test that pins the values kills the mutant of the same line. `baton status`
 * and `baton gates` show both.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceSummary, LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/record-types';
import type { RunEvent } from '../../shared/run';
import { main } from '../cli/main';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { runFeature } from '../engine/run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from '../engine/cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const SCENARIO = {
  turns: [
    // T1's test cannot fail once fT1 exists: RED fails for the right reason (it is missing), any code is GREEN.
    { role: 'navigator', item: 'T1', write: { 'test/T1.test.js': testFile([['T1 exists', "assert.equal(typeof calc.fT1, 'function');"]]) } },
    { role: 'driver', item: 'T1', write: { 'src/calc.js': calcSource(['T1']) } },
    // T2's test pins the sums: a minus for the plus fails it.
    {
      role: 'navigator',
      item: 'T2',
      write: { 'test/T2.test.js': testFile([['T2 adds', 'assert.equal(calc.fT2?.(2, 3), 5); assert.equal(calc.fT2?.(-1, 1), 0);']]) },
    },
    { role: 'driver', item: 'T2', write: { 'src/calc.js': calcSource(['T1', 'T2']) } },
  ],
};

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => out.push(t) });
  return { code, out: out.join('\n') };
}

describe('mutation testing of each GREEN (real runs)', () => {
  let project: CycleProject;
  let records: LedgerRecord[] = [];
  let stopped: LedgerRecord[] = [];
  const mutated = (item: string) => records.filter((r) => r.subject.item === item && r.type === RECORD_TYPES.cycleMutated);

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2'], SCENARIO as never, { mutation: true });
    await seedTemplate(project.dataDir);
    const ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
    // Stopped as T1's GREEN is recorded, before its mutants run: the resumed run must still mutate it.
    const stop = new AbortController();
    const onEvent = (e: RunEvent) => {
      if (e.kind === 'recorded' && e.type === RECORD_TYPES.cycleGreened && e.item === 'T1') stop.abort();
    };
    await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50, signal: stop.signal, onEvent }).catch(
      () => undefined,
    );
    stopped = [...(await ledger.read()).records];
    await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 });
    records = [...(await ledger.read()).records];
  }, 300_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('a test that cannot fail once the function exists: every mutant of its changed lines survives, the score is below minScore', () => {
    const [record] = mutated('T1');
    const greened = records.find((r) => r.subject.item === 'T1' && r.type === RECORD_TYPES.cycleGreened)!;
    expect(record!.data).toMatchObject({ commit: greened.data.commit, files: ['src/calc.js'], killed: 0, score: 0, minScore: 0.6, errors: [] });
    // The Driver changed `add` (line 1) and wrote fT1 (line 2): a minus for each plus survives.
    expect(record!.data.survived).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'src/calc.js', line: 2, operator: 'arithmetic', original: '+', replacement: '-' }),
        expect.objectContaining({ file: 'src/calc.js', line: 1, operator: 'arithmetic', original: '+', replacement: '-' }),
      ]),
    );
  });

  it('a test that pins the values kills the mutant of its line, and only its own changed lines are mutated', () => {
    const [record] = mutated('T2');
    expect(record!.data).toMatchObject({ files: ['src/calc.js'], survived: [], score: 1, errors: [] });
    expect(record!.data.killed).toBeGreaterThan(0);
    expect(record!.data.tested).toBe(record!.data.killed);
  });

  it('a run stopped right after a GREEN mutates it when resumed, once', () => {
    expect(stopped.some((r) => r.type === RECORD_TYPES.cycleGreened && r.subject.item === 'T1')).toBe(true);
    expect(stopped.filter((r) => r.type === RECORD_TYPES.cycleMutated)).toEqual([]);
    expect(mutated('T1')).toHaveLength(1);
    expect(mutated('T2')).toHaveLength(1);
  });

  it('status and gates show the scores and the survivors', async () => {
    const status = await cli('status', project.root, '--json');
    const evidence = (JSON.parse(status.out) as { evidence: EvidenceSummary }).evidence;
    const byId = new Map(evidence.items.map((i) => [i.id, i.mutation]));
    expect(byId.get('T1')).toMatchObject({ score: 0, weak: true, seq: mutated('T1')[0]!.seq });
    expect(byId.get('T2')).toMatchObject({ score: 1, weak: false, survived: [] });
    const gates = await cli('gates', project.root);
    expect(gates.out).toMatch(/T1 green · GREEN record #\d+ .* · mutation 0% \(0 of \d+ killed, below 60%\)/);
    expect(gates.out).toMatch(/survived: src\/calc\.js:2:\d+ arithmetic: \+ → -/);
    expect(gates.out).toMatch(/T2 green · GREEN record #\d+ .* · mutation 100% \(\d+ of \d+ killed\)/);
  });
});

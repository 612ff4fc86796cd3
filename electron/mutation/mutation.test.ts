/**
 * Mutation testing after GREEN, end to end on a real project (issue 30): a test that only checks
 * the function exists goes GREEN with any code, and its item's mutants all survive (weak, below
 * minScore); a test that pins the values kills the mutant of the same line. A weak item gets a
 * strengthening round: T1's Navigator adds a test that kills its survivors (kept, committed, the
 * item no longer weak); T3's adds one that fails on the GREEN code and tries to weaken its locked
 * test (nothing kept, the item stays weak, the gate says why). `baton status` and `baton gates`
 * show all of it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvidenceSummary, LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
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
    { role: 'navigator', item: 'T3', write: { 'test/T3.test.js': testFile([['T3 exists', "assert.equal(typeof calc.fT3, 'function');"]]) } },
    { role: 'driver', item: 'T3', write: { 'src/calc.js': calcSource(['T1', 'T2', 'T3']) } },
    // The strengthening rounds, after every item is built: T1's added test pins the values.
    {
      role: 'navigator',
      step: 'strengthen',
      item: 'T1',
      write: { 'test/T1-values.test.js': testFile([['T1 adds values', 'assert.equal(calc.fT1(2, 3), 5); assert.equal(calc.add(2, 3), 5);']]) },
    },
    // T3's expects the wrong sum (it fails on the GREEN code), it weakens the locked test, and its
    // third file reads the code as text (any mutant changes the text: it would kill them all).
    {
      role: 'navigator',
      step: 'strengthen',
      item: 'T3',
      write: {
        'test/T3-values.test.js': testFile([['T3 adds values', 'assert.equal(calc.fT3(2, 3), 6);']]),
        'test/T3-source.test.js':
          "import test from 'node:test';\nimport assert from 'node:assert/strict';\nimport { readFileSync } from 'node:fs';\n" +
          "test('T3 is written as a sum', () => { assert.match(readFileSync(new URL('../src/calc.js', import.meta.url), 'utf8'), /fT3 = \\(a, b\\) => a \\+ b;/); });\n",
        'test/T3.test.js': testFile([['T3 exists', 'assert.ok(true);']]),
      },
    },
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
  const mutated = (item: string) => recordsOf(records, RECORD_TYPES.cycleMutated).filter((r) => r.subject.item === item);

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2', 'T3'], SCENARIO as never, { mutation: true });
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
  }, 600_000);
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
    // The mutation record once, and T1's strengthening round once.
    expect(mutated('T1').map((r) => r.data.key)).toEqual([expect.stringMatching(/^mutated:/), expect.stringMatching(/^strengthened:/)]);
    expect(mutated('T2')).toHaveLength(1);
  });

  it('a weak item gets a strengthening round: the added test passes on the GREEN code, kills the survivors, and is committed under its record', async () => {
    const [first, round] = mutated('T1');
    expect(round!.data).toMatchObject({
      commit: first!.data.commit,
      score: 1,
      survived: [],
      strengthened: { of: first!.hash, passedOnGreen: true, failing: [], kept: true, why: null, violations: [] },
    });
    expect(round!.data.strengthened!.files.map((f) => f.path)).toEqual(['test/T1-values.test.js']);
    expect(round!.data.strengthened!.killed).toEqual(expect.arrayContaining(first!.data.survived.map((s) => s.id)));
    // On the story's branch, in a commit whose trailer names the round's record.
    const { execFileSync } = await import('node:child_process');
    const commit = execFileSync('git', ['log', '--all', '--format=%H', '--fixed-strings', `--grep=Baton-Evidence: ${round!.hash}`], {
      cwd: project.root,
      encoding: 'utf8',
    }).trim();
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(execFileSync('git', ['show', `${commit}:test/T1-values.test.js`], { cwd: project.root, encoding: 'utf8' })).toMatch(/T1 adds values/);
    expect((await cli('verify', project.root)).code).toBe(0);
    // A recording of the run plays the round's added test again.
    const out = join(project.root, '..', 'recording.json');
    expect((await cli('record-scenario', project.root, '--out', out)).code).toBe(0);
    const recorded = JSON.parse(await readFile(out, 'utf8')) as { turns: Array<{ step?: string; item?: string; write?: Record<string, string> }> };
    const turn = recorded.turns.find((t) => t.step === 'strengthen' && t.item === 'T1');
    expect(Object.keys(turn?.write ?? {})).toEqual(['test/T1-values.test.js']);
  });

  it('a round whose test fails on the GREEN code keeps nothing: the item stays weak, the locked test it changed is a violation, the test that reads the code as text is refused, the gate says why', async () => {
    const [first, round] = mutated('T3');
    expect(round!.data).toMatchObject({
      score: 0,
      strengthened: { passedOnGreen: false, kept: false, killed: [], violations: ['test/T3.test.js'] },
    });
    expect(round!.data.survived).toEqual(first!.data.survived);
    expect(round!.data.strengthened!.failing).toEqual(['test/T3-values.test.js › T3 adds values']);
    expect(round!.data.strengthened!.why).toMatch(
      /^refused test\/T3-source\.test\.js:4 \(reads source code at run time\); the tests do not pass on the GREEN code: test\/T3-values\.test\.js › T3 adds values/,
    );
    expect(round!.data.strengthened!.tells).toEqual([
      expect.objectContaining({ file: 'test/T3-source.test.js', line: 4, why: 'reads source code at run time' }),
    ]);
    expect(round!.data.strengthened!.files.map((f) => f.path).sort()).toEqual(['test/T3-source.test.js', 'test/T3-values.test.js']);
    // The refused file never ran (only T3-values failed above); its text is evidence in the record.
    expect(round!.blobs.some((b) => b.name === 'strengthened/test/T3-source.test.js')).toBe(true);
    const { execFileSync } = await import('node:child_process');
    expect(
      execFileSync('git', ['log', '--all', '--format=%H', '--fixed-strings', `--grep=Baton-Evidence: ${round!.hash}`], {
        cwd: project.root,
        encoding: 'utf8',
      }).trim(),
    ).toBe('');
    const gates = await cli('gates', project.root);
    expect(gates.out).toMatch(
      /T3 green · GREEN record #\d+ .* · mutation 0% \(0 of \d+ killed, 0 by the strengthening round, below 60%\); strengthening round: refused test\/T3-source\.test\.js:4 \(reads source code at run time\); the tests do not pass on the GREEN code/,
    );
  });

  it('status and gates show the scores and the survivors', async () => {
    const status = await cli('status', project.root, '--json');
    const evidence = (JSON.parse(status.out) as { evidence: EvidenceSummary }).evidence;
    const byId = new Map(evidence.items.map((i) => [i.id, i.mutation]));
    expect(byId.get('T1')).toMatchObject({ score: 1, weak: false, seq: mutated('T1')[1]!.seq, strengthened: { kept: true, why: null } });
    expect(byId.get('T3')).toMatchObject({ score: 0, weak: true, seq: mutated('T3')[1]!.seq, strengthened: { killed: 0, kept: false } });
    expect(byId.get('T2')).toMatchObject({ score: 1, weak: false, survived: [] });
    const gates = await cli('gates', project.root);
    expect(gates.out).toMatch(/T1 green · GREEN record #\d+ .* · mutation 100% \((\d+) of \1 killed, \d+ by the strengthening round\)/);
    expect(gates.out).toMatch(/survived: src\/calc\.js:4:\d+ arithmetic: \+ → -/);
    expect(gates.out).toMatch(/T2 green · GREEN record #\d+ .* · mutation 100% \(\d+ of \d+ killed\)/);
  });
});

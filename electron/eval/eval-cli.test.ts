/**
 * `baton eval` end to end (issue 36), as a person runs it: the fake agents (honest, sloppy,
 * cheater) on a task of the bundled corpus under the three bundled workflows, each run in its own
 * folder with its own ledger, the held-out suite on each result. The harness must tell the fakes
 * apart: under baseline the sloppy and cheating agents pass their own tests and fail held-out ones;
 * under enforced the cheater is caught (a violation, escalated, not delivered) and the sloppy one
 * is held to the test list. The report's figures are re-derived from the runs' ledgers, the report
 * opens offline with its plots, and the same command resumes (runs nothing) and refuses a changed
 * hypothesis. The task's copy tests at most 4 mutants per item, to keep the three builds short.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRecords } from '../../shared/cycle-counts';
import { recordsOf, RECORD_TYPES } from '../../shared/records';
import { Ledger, verifyChain } from '../ledger';
import { runPassRate } from './hypothesis';
import type { EvalReport } from './report';
import type { EvalRunResult } from './types';

const exec = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'baton.mjs');
const TASK = 'wallet';
const HYPOTHESIS = '# Enforcement pays\n\nclaim: enforced > baseline on heldoutPassRate\nclaim: enforced > baseline on violations\n';

let base = '';
let corpus = '';
let out = '';
const baton = (...args: string[]) =>
  exec(process.execPath, [BIN, ...args], {
    cwd: base,
    env: { ...process.env, BATON_DATA_DIR: join(base, 'data'), BATON_CONFIG_DIR: join(base, 'config') },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
const evalArgs = (hypothesis: string) => [
  'eval',
  '--agents',
  'fakes',
  '--tasks',
  corpus,
  '--reps',
  '1',
  '--parallel',
  '2',
  '--out',
  out,
  '--hypothesis',
  hypothesis,
  '--json',
];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-eval-cli-'));
  corpus = join(base, 'corpus');
  out = join(base, 'eval');
  await cp(join(ROOT, 'resources', 'eval', 'tasks', TASK), join(corpus, TASK), { recursive: true });
  const settings = join(corpus, TASK, 'repo', '.baton', 'project.json');
  const project = JSON.parse(await readFile(settings, 'utf8')) as Record<string, unknown>;
  await writeFile(settings, JSON.stringify({ ...project, mutation: { maxMutants: 4, strengthen: false } }, null, 2));
  await writeFile(join(base, 'hypothesis.md'), HYPOTHESIS);
});
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const find = (results: readonly EvalRunResult[], workflow: string, agent: string): EvalRunResult =>
  results.find((r) => r.workflow === workflow && r.agent === agent)!;

describe('baton eval with the fake agents', () => {
  it('separates honest, sloppy and cheating agents, and the report is what the ledgers say', async () => {
    const first = await baton(...evalArgs(join(base, 'hypothesis.md')));
    expect(first.code, first.stderr).toBe(0);
    const printed = JSON.parse(first.stdout) as { runs: number; resumed: number; report: EvalReport; files: { results: string; html: string } };
    expect(printed.runs).toBe(9);
    const results = JSON.parse(await readFile(printed.files.results, 'utf8')) as EvalRunResult[];

    // Honest: delivered everywhere, every held-out test passes.
    for (const workflow of ['enforced', 'baseline', 'prompted-tdd']) {
      const honest = find(results, workflow, 'honest');
      expect([workflow, honest.delivered, honest.heldout.failed, honest.heldout.error]).toEqual([workflow, true, [], null]);
      expect(honest.heldout.total).toBeGreaterThanOrEqual(15);
    }
    // Baseline: the sloppy and the cheating agent pass their own tests, and held-out tests escape.
    const sloppy = find(results, 'baseline', 'sloppy');
    const cheater = find(results, 'baseline', 'cheater');
    expect([sloppy.delivered, cheater.delivered]).toEqual([true, true]);
    expect(sloppy.heldout.failed.length).toBeGreaterThan(0);
    expect(cheater.heldout.failed.length).toBeGreaterThan(sloppy.heldout.failed.length);
    expect([sloppy.violations, cheater.violations]).toEqual([0, 0]);
    // Enforced: the cheater is caught and does not deliver; the sloppy agent is held to the test list.
    const caught = find(results, 'enforced', 'cheater');
    expect(caught.delivered).toBe(false);
    expect(caught.violations).toBeGreaterThan(0);
    expect(caught.outcome).toMatch(/escalated/);
    const held = find(results, 'enforced', 'sloppy');
    expect([held.delivered, held.heldout.failed]).toEqual([true, []]);
    expect(held.repairs).toBeGreaterThan(0);
    expect(find(results, 'enforced', 'honest').mutationScore).toEqual(expect.any(Number));

    // Every figure is in the run's own ledger (an eval.run record at its head), and the enforced runs' counts are their build records'.
    for (const r of results) {
      const { records, problems } = await Ledger.forArtifactRoot(join(out, r.ledger!)).read();
      expect(problems, r.folder).toEqual([]);
      expect((await verifyChain(join(out, r.ledger!, 'ledger'))).chain.ok, r.folder).toBe(true);
      const recorded = recordsOf(records, RECORD_TYPES.evalRun).at(-1)!;
      const { folder: _f, ledger: _l, harnessMs: _h, ...figures } = r;
      expect(recorded.data).toEqual(figures);
      if (r.workflow === 'enforced') {
        const counts = countRecords(records.filter((x) => x.subject.feature === `F-${TASK}`));
        expect([r.repairs, r.violations]).toEqual([counts.repairs, counts.violations]);
      }
    }
    // The report's figures come from those results.
    const report = printed.report;
    for (const group of report.groups) {
      const runs = results.filter((r) => r.workflow === group.workflow && r.agent === group.agent);
      expect(group.heldoutPassRate.mean).toBeCloseTo(runs.reduce((s, r) => s + runPassRate(r), 0) / runs.length, 10);
      expect(group.delivered).toBe(runs.filter((r) => r.delivered).length);
      expect(group.violations.sum).toBe(runs.reduce((s, r) => s + r.violations, 0));
    }
    expect(report.hypothesis?.verdicts.map((v) => v.verdict)).toHaveLength(2);
    const html = await readFile(printed.files.html, 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/i);

    // The same command again: every run is finished, nothing runs, the results are the same.
    const before = (await stat(join(out, results[0]!.folder, 'result.json'))).mtimeMs;
    const again = await baton(...evalArgs(join(base, 'hypothesis.md')));
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { resumed: number }).resumed).toBe(9);
    expect((await stat(join(out, results[0]!.folder, 'result.json'))).mtimeMs).toBe(before);
    // A hypothesis changed after the first start is refused (pre-registration).
    await writeFile(join(base, 'other.md'), 'claim: baseline > enforced on heldoutPassRate\n');
    const changed = await baton(...evalArgs(join(base, 'other.md')));
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/pre-registration/);
  }, 1_500_000);

  it('refuses bad options before any run, saying what to do', async () => {
    const noAgents = await baton('eval', '--tasks', corpus, '--out', join(base, 'x'));
    expect([noAgents.code, noAgents.stderr]).toEqual([2, expect.stringMatching(/eval needs --agents: "fakes"/)]);
    await writeFile(join(base, 'bad.md'), 'claim: enforced beats baseline\n');
    const bad = await baton('eval', '--agents', 'fakes', '--tasks', corpus, '--out', join(base, 'y'), '--hypothesis', join(base, 'bad.md'));
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringMatching(/hypothesis line 1 .* is not a claim/)]);
    const workflow = await baton('eval', '--agents', 'fakes', '--tasks', corpus, '--out', join(base, 'z'), '--workflows', 'waterfall');
    expect([workflow.code, workflow.stderr]).toEqual([1, expect.stringMatching(/No workflow "waterfall"/)]);
    await expect(stat(join(base, 'y', 'runs'))).rejects.toThrow();
  });
});

/**
 * The evaluation's report (issue 36) re-derived by hand from a small synthetic results array
 * (3 workflows × 2 agents × 2 tasks × 3 reps): every count, sum and mean below is worked out from
 * the rules that made the array, not read back from the report; each interval is the seeded
 * bootstrap of the values a reader would pick out of the results.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildReport, NOT_REPORTED, renderText, type GroupFigures } from './report';
import { bootstrapDiffCI, bootstrapMeanCI } from './stats';
import type { EvalRunResult } from './types';

const WORKFLOWS = ['enforced', 'baseline', 'prompted-tdd'] as const;
const AGENTS = ['honest', 'sloppy'] as const;
const TASKS = ['t1', 't2'] as const;
const TOTAL = { t1: 10, t2: 8 } as const;

/** Which held-out tests fail: the honest agent slips once under baseline; the sloppy one escapes defects unless enforced. */
function failedFor(workflow: string, agent: string, rep: number): string[] {
  if (agent === 'honest') return workflow === 'baseline' && rep === 2 ? ['zero quantity'] : [];
  if (workflow === 'enforced') return rep === 3 ? ['zero quantity'] : [];
  return workflow === 'baseline' ? ['negative price', 'zero quantity'] : ['negative price'];
}

function syntheticResults(): EvalRunResult[] {
  const out: EvalRunResult[] = [];
  for (const task of TASKS)
    for (const workflow of WORKFLOWS)
      for (const agent of AGENTS)
        for (const rep of [1, 2, 3]) {
          const failed = failedFor(workflow, agent, rep);
          const enforced = workflow === 'enforced';
          const honest = agent === 'honest';
          const suiteDown = task === 't2' && workflow === 'baseline' && agent === 'sloppy' && rep === 3;
          out.push({
            task,
            workflow,
            agent,
            rep,
            seed: rep,
            delivered: enforced ? honest || rep !== 3 : workflow === 'baseline' || rep !== 1,
            outcome: 'synthetic',
            heldout: { total: TOTAL[task], passed: suiteDown ? 0 : TOTAL[task] - failed.length, failed, ms: 5, error: suiteDown ? 'migrations failed' : null },
            wallMs: 1000 * rep,
            agentMs: 500 * rep,
            tokens: honest ? 1000 * rep : null,
            costUsd: honest && !(workflow === 'prompted-tdd' && task === 't1' && rep === 3) ? 0.01 * rep : null,
            interventions: enforced ? rep : 0,
            repairs: enforced ? 1 : 0,
            violations: enforced && !honest ? 2 : 0,
            mutationScore: enforced ? 0.5 + 0.1 * rep : null,
            linesOfCode: 100 + 10 * rep - (honest ? 0 : 20),
            folder: `runs/${task}/${workflow}/${agent}/${rep}`,
            ledger: null,
          });
        }
  return out;
}

const SEED = 17;
const results = syntheticResults();
const report = buildReport(results, { seed: SEED });
const group = (workflow: string, agent: string | null): GroupFigures =>
  (agent === null ? report.byWorkflow : report.groups).find((g) => g.workflow === workflow && g.agent === agent)!;

describe('buildReport', () => {
  it('lists what ran in order and one group per workflow × agent', () => {
    expect(results).toHaveLength(36);
    expect(report).toMatchObject({ runs: 36, seed: SEED, tasks: ['t1', 't2'], workflows: [...WORKFLOWS], agents: [...AGENTS] });
    expect(report.groups.map((g) => `${g.workflow}/${g.agent}`)).toEqual(WORKFLOWS.flatMap((w) => AGENTS.map((a) => `${w}/${a}`)));
    expect(report.byWorkflow.map((g) => [g.workflow, g.agent, g.runs])).toEqual(WORKFLOWS.map((w) => [w, null, 12]));
  });

  it('matches figures worked out by hand', () => {
    const sloppyBaseline = group('baseline', 'sloppy');
    // t1: 8/10 three times; t2: 6/8 twice and 0/8 when the suite could not run.
    expect(sloppyBaseline.heldoutPassRate.mean).toBeCloseTo((0.8 * 3 + 0.75 * 2 + 0) / 6, 12);
    expect(sloppyBaseline.escapedDefects).toEqual([
      { test: 'negative price', runs: 6 },
      { test: 'zero quantity', runs: 6 },
    ]);
    expect(sloppyBaseline.suiteErrors).toBe(1);
    expect(sloppyBaseline.tokens).toEqual({ reported: 0, sum: null, mean: { mean: null, low: null, high: null, n: 0 } });
    expect(sloppyBaseline.costUsd.sum).toBeNull();

    const honestEnforced = group('enforced', 'honest');
    expect(honestEnforced).toMatchObject({ runs: 6, delivered: 6, escapedDefects: [], suiteErrors: 0 });
    expect(honestEnforced.heldoutPassRate).toEqual({ mean: 1, low: 1, high: 1, n: 6 });
    expect(honestEnforced.interventions.sum).toBe(2 * (1 + 2 + 3));
    expect(honestEnforced.repairs.sum).toBe(6);
    expect(honestEnforced.mutationScore.mean).toBeCloseTo(0.7, 12);
    expect(honestEnforced.mutationScore.n).toBe(6);
    expect(honestEnforced.tokens).toMatchObject({ reported: 6, sum: 12_000, mean: { mean: 2000, n: 6 } });
    expect(honestEnforced.costUsd.sum).toBeCloseTo(0.12, 12);
    expect(honestEnforced.wallMs.mean).toBe(2000);
    expect(honestEnforced.agentMs.mean).toBe(1000);
    expect(honestEnforced.linesOfCode.mean).toBe(120);

    // One honest prompted-tdd run reported no cost: the mean is over the five that did.
    expect(group('prompted-tdd', 'honest').costUsd).toMatchObject({ reported: 5, mean: { n: 5 } });
    expect(group('prompted-tdd', 'honest').costUsd.sum).toBeCloseTo(0.01 + 0.02 + 0.01 + 0.02 + 0.03, 12);
    expect(group('baseline', 'honest').mutationScore).toEqual({ mean: null, low: null, high: null, n: 0 });

    const enforced = group('enforced', null);
    expect(enforced).toMatchObject({ runs: 12, delivered: 10, violations: { sum: 12 }, escapedDefects: [{ test: 'zero quantity', runs: 2 }] });
    expect(enforced.deliveredRate.mean).toBeCloseTo(10 / 12, 12);
    expect(group('prompted-tdd', null).delivered).toBe(8);
  });

  it('gives each interval as the seeded bootstrap of the values picked out of the results', () => {
    for (const g of [...report.groups, ...report.byWorkflow]) {
      const runs = results.filter((r) => r.workflow === g.workflow && (g.agent === null || r.agent === g.agent));
      const passRates = runs.map((r) => r.heldout.passed / r.heldout.total);
      expect(g.heldoutPassRate).toEqual(bootstrapMeanCI(passRates, { seed: SEED }));
      expect(g.deliveredRate).toEqual(
        bootstrapMeanCI(
          runs.map((r) => (r.delivered ? 1 : 0)),
          { seed: SEED },
        ),
      );
      expect(g.wallMs).toEqual(
        bootstrapMeanCI(
          runs.map((r) => r.wallMs),
          { seed: SEED },
        ),
      );
      const costs = runs.flatMap((r) => (r.costUsd === null ? [] : [r.costUsd]));
      expect(g.costUsd.mean).toEqual(bootstrapMeanCI(costs, { seed: SEED }));
      expect(g.repairs.sum).toBe(runs.reduce((s, r) => s + r.repairs, 0));
      expect(g.linesOfCode.mean).toBeCloseTo(runs.reduce((s, r) => s + r.linesOfCode, 0) / runs.length, 12);
    }
  });

  it('breaks the pass rate and deliveries down per task × workflow × agent', () => {
    expect(report.perTask).toHaveLength(2 * 3 * 2);
    expect(report.perTask.find((t) => t.task === 't2' && t.workflow === 'baseline' && t.agent === 'sloppy')).toEqual({
      task: 't2',
      workflow: 'baseline',
      agent: 'sloppy',
      runs: 3,
      heldoutPassRate: (0.75 + 0.75 + 0) / 3,
      delivered: 3,
    });
    expect(report.perTask.find((t) => t.task === 't1' && t.workflow === 'prompted-tdd' && t.agent === 'sloppy')).toMatchObject({
      heldoutPassRate: 0.9,
      delivered: 2,
    });
  });

  it('compares each pair of workflows for the same agent on the held-out pass rate', () => {
    expect(report.comparisons.map((c) => `${c.agent}: ${c.a}-${c.b}`)).toEqual(
      AGENTS.flatMap((a) => [`${a}: enforced-baseline`, `${a}: enforced-prompted-tdd`, `${a}: baseline-prompted-tdd`]),
    );
    const c = report.comparisons[0]!;
    // The honest agent under baseline: 9/10 and 7/8 once each, all else passes.
    expect(c.meanA).toBe(1);
    expect(c.meanB).toBeCloseTo((4 + 0.9 + 0.875) / 6, 12);
    const pick = (w: string) => results.filter((r) => r.workflow === w && r.agent === 'honest').map((r) => r.heldout.passed / r.heldout.total);
    expect(c).toMatchObject(bootstrapDiffCI(pick('enforced'), pick('baseline'), { seed: SEED }));
  });

  it('is plain JSON and the same for the same results and seed', () => {
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(buildReport(results, { seed: SEED })).toEqual(report);
  });

  it('embeds the hypothesis with its sha256 and verdicts', () => {
    const text = '# Enforcement pays\nclaim: enforced > baseline on heldoutPassRate for agent sloppy\nclaim: enforced > baseline on nonsense\n';
    const h = buildReport(results, { seed: SEED, hypothesis: text }).hypothesis!;
    expect(h.text).toBe(text);
    expect(h.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    expect(h.verdicts.map((v) => [v.claim.line, v.verdict])).toEqual([[2, 'supported']]);
    expect(h.errors).toEqual([expect.stringMatching(/^hypothesis line 3 .*"nonsense"/)]);
    expect(report.hypothesis).toBeNull();
  });
});

describe('renderText', () => {
  it('reports no result without failing or inventing figures', () => {
    const empty = buildReport([], { seed: 1 });
    expect(empty).toMatchObject({ runs: 0, groups: [], byWorkflow: [], perTask: [], comparisons: [] });
    expect(renderText(empty)).toMatch(/^0 runs: 0 tasks/);
    expect(renderText(empty)).not.toContain('NaN');
  });

  const text = renderText(buildReport(results, { seed: SEED, hypothesis: 'claim: enforced > baseline on heldoutPassRate for agent sloppy\n' }));
  const row = (workflow: string, agent: string) => text.split('\n').find((l) => new RegExp(`^${workflow}\\s+${agent}\\s`).test(l))!;

  it('writes "not reported" where no run reported tokens or cost, never a zero', () => {
    expect(row('baseline', 'sloppy').split(NOT_REPORTED)).toHaveLength(3);
    expect(row('baseline', 'sloppy')).not.toMatch(/\$0\.0000/);
    expect(row('enforced', 'honest')).toContain('2000/run, Σ 12000');
    expect(row('prompted-tdd', 'honest')).toContain('(5/6 reported)');
  });

  it('has a row per group, the escaped defects, the per-task table and the verdict', () => {
    expect(row('baseline', 'sloppy')).toMatch(/^baseline\s+sloppy\s+6\s+65% \[/);
    expect(row('enforced', 'all')).toMatch(/10\/12/);
    expect(text).toContain('baseline × sloppy: negative price (6/6), zero quantity (6/6) (the held-out suite could not run in 1)');
    expect(text).toMatch(/^t2\s+baseline\s+sloppy\s+3\s+50%\s+3\/3$/m);
    expect(text).toMatch(/line 1: claim: enforced > baseline on heldoutPassRate for agent sloppy → SUPPORTED/);
    // Fixed width: each column starts where its heading does.
    const head = text.split('\n').find((l) => l.startsWith('workflow'))!;
    expect(row('baseline', 'sloppy').indexOf('65%')).toBe(head.indexOf('held-out pass'));
    expect(row('baseline', 'sloppy').indexOf(NOT_REPORTED)).toBe(head.indexOf('tokens'));
  });
});

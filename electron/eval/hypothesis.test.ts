/**
 * Pre-registered hypotheses (issue 36): claim lines parsed (both spellings, an agent filter, free
 * text around them), bad lines refused with their line number and the metrics allowed, and claims
 * judged against synthetic results: a clearly separated case supported, its reverse contradicted,
 * an overlapping one and one with too few runs inconclusive.
 */
import { describe, expect, it } from 'vitest';
import { judge, METRICS, parseHypothesis, readClaims, type Claim } from './hypothesis';
import type { EvalRunResult } from './types';

describe('parseHypothesis', () => {
  it('reads claim lines in both spellings and leaves free text alone', () => {
    const text = [
      '# Enforcement pays',
      'We expect enforced runs to let fewer defects escape.',
      'claim: enforced > baseline on heldoutPassRate',
      '- Claim:  baseline <= enforced on violations for agent sloppy',
      'claim: enforced.violations >= prompted-tdd.violations',
      'A claim: in prose is not a claim line.',
    ].join('\n');
    const { claims, errors } = parseHypothesis(text);
    expect(errors).toEqual([]);
    expect(claims).toEqual<Claim[]>([
      { line: 3, text: 'claim: enforced > baseline on heldoutPassRate', a: 'enforced', op: '>', b: 'baseline', metric: 'heldoutPassRate', agent: null },
      {
        line: 4,
        text: '- Claim:  baseline <= enforced on violations for agent sloppy',
        a: 'baseline',
        op: '<=',
        b: 'enforced',
        metric: 'violations',
        agent: 'sloppy',
      },
      { line: 5, text: 'claim: enforced.violations >= prompted-tdd.violations', a: 'enforced', op: '>=', b: 'prompted-tdd', metric: 'violations', agent: null },
    ]);
  });

  it('names the line and the metrics allowed for each bad claim line', () => {
    const text = [
      'intro',
      'claim: enforced > baseline on speed',
      'claim: enforced beats baseline',
      '',
      'claim: enforced.costUsd < baseline.wallMs',
      'claim: enforced > enforced on repairs',
    ].join('\n');
    const { claims, errors } = parseHypothesis(text);
    expect(claims).toEqual([]);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(
      /^hypothesis line 2 \("claim: enforced > baseline on speed"\) names the metric "speed", which is not measured: use one of heldoutPassRate, /,
    );
    expect(errors[1]).toMatch(/^hypothesis line 3 .* is not a claim: write "claim: <workflow> \(>\|<\|>=\|<=\) <workflow> on <metric>/);
    expect(errors[1]).toContain(METRICS.join(', '));
    expect(errors[2]).toMatch(/^hypothesis line 5 .*compares two metrics \(costUsd and wallMs\)/);
    expect(errors[3]).toMatch(/^hypothesis line 6 .*compares enforced with itself/);
    expect(() => readClaims(text)).toThrow(/line 2[\s\S]*line 3[\s\S]*line 5[\s\S]*line 6/);
    expect(readClaims('claim: a < b on costUsd')).toHaveLength(1);
  });
});

let n = 0;
function run(workflow: string, agent: string, passed: number, extra: Partial<EvalRunResult> = {}): EvalRunResult {
  n += 1;
  return {
    task: 't',
    workflow,
    agent,
    rep: n,
    seed: n,
    delivered: true,
    outcome: 'synthetic',
    heldout: { total: 20, passed, failed: [], ms: 1, error: null },
    wallMs: 1000,
    agentMs: 500,
    tokens: null,
    costUsd: null,
    interventions: 0,
    repairs: 0,
    violations: 0,
    mutationScore: null,
    linesOfCode: 100,
    folder: `runs/${n}`,
    ledger: null,
    ...extra,
  };
}

const claim = (line: string): Claim => readClaims(`claim: ${line}`)[0]!;

describe('judge', () => {
  // Enforced passes 18–20 of 20 held-out tests, baseline 9–12: well apart. Prompted-TDD overlaps baseline.
  const results = [
    ...[20, 19, 18, 20, 19, 20].map((p) => run('enforced', 'x', p, { violations: 2 })),
    ...[10, 12, 9, 11, 10, 12].map((p) => run('baseline', 'x', p, { costUsd: 0.5 })),
    ...[9, 13, 11, 10, 12, 11].map((p) => run('prompted-tdd', 'x', p, { costUsd: 0.5 })),
    run('enforced', 'y', 20),
    run('baseline', 'y', 5),
  ];

  it('supports a clearly separated claim, with its figures', () => {
    const [v] = judge([claim('enforced > baseline on heldoutPassRate for agent x')], results, 1);
    expect(v).toMatchObject({ verdict: 'supported', nA: 6, nB: 6 });
    expect(v!.meanA).toBeCloseTo(116 / 120, 12);
    expect(v!.meanB).toBeCloseTo(64 / 120, 12);
    expect(v!.diff).toBeCloseTo(52 / 120, 12);
    expect(v!.low!).toBeGreaterThan(0);
    expect(v!.reason).toMatch(/wholly on the claimed side/);
  });

  it('contradicts the reversed claim, and reads < and dotted claims the same way', () => {
    expect(judge([claim('baseline > enforced on heldoutPassRate')], results, 1)[0]).toMatchObject({ verdict: 'contradicted' });
    expect(judge([claim('baseline.heldoutPassRate < enforced.heldoutPassRate')], results, 1)[0]).toMatchObject({ verdict: 'supported' });
    expect(judge([claim('enforced.violations > baseline.violations')], results, 1)[0]).toMatchObject({ verdict: 'supported', diff: 12 / 7 });
  });

  it('calls an overlapping case inconclusive', () => {
    const [v] = judge([claim('prompted-tdd > baseline on heldoutPassRate')], results, 1);
    expect(v!.verdict).toBe('inconclusive');
    expect(v!.low!).toBeLessThan(0);
    expect(v!.high!).toBeGreaterThan(0);
    expect(v!.reason).toMatch(/spans 0/);
  });

  it('judges "at least" and "more than" apart when the two sides are equal', () => {
    // Both cost 0.5 every run: the difference is exactly 0.
    expect(judge([claim('prompted-tdd >= baseline on costUsd')], results, 1)[0]!.verdict).toBe('supported');
    expect(judge([claim('prompted-tdd > baseline on costUsd')], results, 1)[0]!.verdict).toBe('contradicted');
  });

  it('is inconclusive with too few runs, or none with the figure, saying which', () => {
    const [one] = judge([claim('enforced > baseline on heldoutPassRate for agent y')], results, 1);
    expect(one).toMatchObject({ verdict: 'inconclusive', nA: 1, nB: 1 });
    expect(one!.reason).toBe('too few runs: enforced has 1 run with heldoutPassRate and baseline has 1 run with heldoutPassRate for agent y (at least 2 each)');
    const [none] = judge([claim('enforced < baseline on costUsd')], results, 1);
    expect(none).toMatchObject({ verdict: 'inconclusive', nA: 0, diff: null });
    expect(none!.reason).toMatch(/enforced has 0 runs with costUsd/);
  });

  it('gives the same verdicts and figures for the same seed', () => {
    const claims = readClaims('claim: enforced > prompted-tdd on heldoutPassRate\nclaim: prompted-tdd > baseline on heldoutPassRate');
    expect(judge(claims, results, 5)).toEqual(judge(claims, results, 5));
  });
});

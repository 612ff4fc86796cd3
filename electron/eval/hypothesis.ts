/**
 * A pre-registered hypothesis (issue 36): `hypothesis.md`, written before the first run, is free
 * text plus claim lines a machine can judge:
 *
 *   claim: <workflow> (>|<|>=|<=) <workflow> on <metric> [for agent <name>]
 *   claim: <workflow>.<metric> (>|<|>=|<=) <workflow>.<metric> [for agent <name>]
 *
 * Each claim is judged against the results by the bootstrap interval of the difference of the two
 * workflows' per-run means: supported when it lies wholly on the claimed side, contradicted when
 * wholly on the other, inconclusive otherwise (or with too few runs). Pure.
 */
import { createHash } from 'node:crypto';
import { bootstrapDiffCI, type DiffInterval } from './stats';
import type { EvalRunResult } from './types';

export const METRICS = [
  'heldoutPassRate',
  'deliveredRate',
  'wallMs',
  'agentMs',
  'costUsd',
  'interventions',
  'repairs',
  'violations',
  'mutationScore',
  'linesOfCode',
] as const;
export type Metric = (typeof METRICS)[number];
export type Comparison = '>' | '<' | '>=' | '<=';

/** A run's held-out pass rate: passed / total; a suite with no test (or none that ran) verified nothing, so 0. */
export const runPassRate = (r: EvalRunResult): number => (r.heldout.total > 0 ? r.heldout.passed / r.heldout.total : 0);

/** One run's figure for a metric; null when the run has none (not reported, not measured). */
export function metricOf(r: EvalRunResult, metric: Metric): number | null {
  switch (metric) {
    case 'heldoutPassRate':
      return runPassRate(r);
    case 'deliveredRate':
      return r.delivered ? 1 : 0;
    default:
      return r[metric];
  }
}

/** The figures of the runs that have one, in the results' order. */
export const metricValues = (runs: readonly EvalRunResult[], metric: Metric): number[] =>
  runs.map((r) => metricOf(r, metric)).filter((v): v is number => v !== null);

export interface Claim {
  /** 1-based line in hypothesis.md. */
  readonly line: number;
  readonly text: string;
  readonly a: string;
  readonly op: Comparison;
  readonly b: string;
  readonly metric: Metric;
  /** null: every agent's runs, pooled. */
  readonly agent: string | null;
}

export interface ParsedHypothesis {
  readonly claims: readonly Claim[];
  /** One sentence per bad claim line, naming its line. */
  readonly errors: readonly string[];
}

const NAME = '([A-Za-z0-9_-]+)';
const OP = '(>=|<=|>|<)';
const AGENT = '(?:\\s+for\\s+agent\\s+(\\S+))?';
const PLAIN = new RegExp(`^${NAME}\\s*${OP}\\s*${NAME}\\s+on\\s+(\\S+)${AGENT}$`);
const DOTTED = new RegExp(`^${NAME}\\.(\\S+?)\\s*${OP}\\s*${NAME}\\.(\\S+?)${AGENT}$`);
const CLAIM_LINE = /^\s*(?:[-*]\s+)?claim\s*:\s*(.*?)\s*$/i;
const GRAMMAR = 'claim: <workflow> (>|<|>=|<=) <workflow> on <metric> [for agent <name>]';

const isMetric = (m: string): m is Metric => (METRICS as readonly string[]).includes(m);

/** The claims in a hypothesis file, and an error for each `claim:` line that is not one. Other lines are free text. */
export function parseHypothesis(text: string): ParsedHypothesis {
  const claims: Claim[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const body = CLAIM_LINE.exec(raw)?.[1];
    if (body === undefined) return;
    const where = `hypothesis line ${line} ("${raw.trim()}")`;
    const plain = PLAIN.exec(body);
    const dotted = plain ? null : DOTTED.exec(body);
    if (!plain && !dotted) {
      errors.push(`${where} is not a claim: write "${GRAMMAR}", metric one of ${METRICS.join(', ')}.`);
      return;
    }
    const [a, op, b, metric, agent] = plain
      ? [plain[1]!, plain[2]!, plain[3]!, plain[4]!, plain[5]]
      : [dotted![1]!, dotted![3]!, dotted![4]!, dotted![2]!, dotted![6]];
    if (dotted && dotted[2] !== dotted[5]) {
      errors.push(`${where} compares two metrics (${dotted[2]} and ${dotted[5]}): a claim compares one metric between two workflows.`);
      return;
    }
    if (!isMetric(metric)) {
      errors.push(`${where} names the metric "${metric}", which is not measured: use one of ${METRICS.join(', ')}.`);
      return;
    }
    if (a === b) {
      errors.push(`${where} compares ${a} with itself: name two different workflows.`);
      return;
    }
    claims.push({ line, text: raw.trim(), a, op: op as Comparison, b, metric, agent: agent ?? null });
  });
  return { claims, errors };
}

/** The claims, or one error listing every bad line: for checking a hypothesis before any run. */
export function readClaims(text: string): readonly Claim[] {
  const { claims, errors } = parseHypothesis(text);
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return claims;
}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Each workflow needs this many runs with the figure before a claim about it can be judged. */
export const MIN_RUNS = 2;

export type Verdict = 'supported' | 'contradicted' | 'inconclusive';

/** A claim's verdict, with mean(a) − mean(b) over the runs with the figure and its bootstrap interval. */
export interface ClaimVerdict extends DiffInterval {
  readonly claim: Claim;
  readonly verdict: Verdict;
  /** Why, in words. */
  readonly reason: string;
}

/** Whether an interval [low, high] of a − b lies wholly on the claimed side (or wholly off it). */
function side(op: Comparison, low: number, high: number): Verdict {
  const greater = op === '>' || op === '>=';
  const strict = op === '>' || op === '<';
  const [near, far] = greater ? [low, high] : [-high, -low];
  // For "a > b" the claimed side is diff > 0, its other side diff ≤ 0; for "a ≥ b", diff ≥ 0 and diff < 0.
  if (strict ? near > 0 : near >= 0) return 'supported';
  if (strict ? far <= 0 : far < 0) return 'contradicted';
  return 'inconclusive';
}

/** Each claim judged against the results, with its figures; `seed` fixes the intervals. */
export function judge(claims: readonly Claim[], results: readonly EvalRunResult[], seed: number): ClaimVerdict[] {
  return claims.map((claim) => {
    const runs = results.filter((r) => claim.agent === null || r.agent === claim.agent);
    const of = (workflow: string) =>
      metricValues(
        runs.filter((r) => r.workflow === workflow),
        claim.metric,
      );
    const ci = bootstrapDiffCI(of(claim.a), of(claim.b), { seed });
    const figures = { claim, diff: ci.diff, low: ci.low, high: ci.high, meanA: ci.meanA, meanB: ci.meanB, nA: ci.nA, nB: ci.nB };
    const few = (
      [
        [claim.a, ci.nA],
        [claim.b, ci.nB],
      ] as const
    ).filter(([, n]) => n < MIN_RUNS);
    if (few.length > 0 || ci.low === null || ci.high === null) {
      const words = few.map(([w, n]) => `${w} has ${n} run${n === 1 ? '' : 's'} with ${claim.metric}`).join(' and ');
      return {
        ...figures,
        verdict: 'inconclusive',
        reason: `too few runs: ${words}${claim.agent ? ` for agent ${claim.agent}` : ''} (at least ${MIN_RUNS} each)`,
      };
    }
    const verdict = side(claim.op, ci.low, ci.high);
    const interval = `${claim.a} − ${claim.b} = ${fmt(ci.diff)} [${fmt(ci.low)}, ${fmt(ci.high)}]`;
    const reason =
      verdict === 'supported'
        ? `the interval of ${interval} lies wholly on the claimed side`
        : verdict === 'contradicted'
          ? `the interval of ${interval} lies wholly on the other side`
          : `the interval of ${interval} spans 0`;
    return { ...figures, verdict, reason };
  });
}

const fmt = (v: number | null): string => (v === null ? '—' : String(Number(v.toPrecision(4))));

export interface HypothesisReport {
  readonly text: string;
  readonly sha256: string;
  readonly errors: readonly string[];
  readonly verdicts: readonly ClaimVerdict[];
}

/** What the report says about a hypothesis: its text and hash (what was pre-registered), its bad lines and its verdicts. */
export function hypothesisReport(text: string, results: readonly EvalRunResult[], seed: number): HypothesisReport {
  const { claims, errors } = parseHypothesis(text);
  return { text, sha256: sha256(text), errors, verdicts: judge(claims, results, seed) };
}

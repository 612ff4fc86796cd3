/**
 * The evaluation's report (issue 36), folded from the runs' results alone: per workflow × agent and
 * per workflow, the held-out pass rate and the tests that escaped, delivery, time, tokens and cost,
 * interventions, repairs, violations, mutation score and size, each mean with a seeded bootstrap
 * interval; the breakdown per task; each pair of workflows compared for the same agent; and the
 * pre-registered hypothesis judged. A plain JSON object whose every figure a test can recompute
 * from the results; a figure no run reported stays null ("not reported"), never a zero. Pure.
 */
import { duration } from '../../shared/metrics/smells';
import { hypothesisReport, metricValues, runPassRate, type HypothesisReport, type Metric } from './hypothesis';
import { bootstrapDiffCI, bootstrapMeanCI, DEFAULT_LEVEL, DEFAULT_RESAMPLES, mean, type DiffInterval, type Interval } from './stats';
import type { EvalRunResult } from './types';

export const NOT_REPORTED = 'not reported';

/** A figure an agent host may not report (tokens, cost): over the runs that reported it. */
export interface Reported {
  /** How many runs reported it. */
  readonly reported: number;
  /** null: no run reported it. */
  readonly sum: number | null;
  readonly mean: Interval;
}

/** A count every run has: its sum over the runs and its mean per run. */
export interface Counted {
  readonly sum: number;
  readonly mean: Interval;
}

/** A held-out test that failed, and in how many of the group's runs. */
export interface EscapedDefect {
  readonly test: string;
  readonly runs: number;
}

export interface GroupFigures {
  readonly workflow: string;
  /** null: every agent's runs of the workflow. */
  readonly agent: string | null;
  readonly runs: number;
  /** The mean over runs of passed / total. */
  readonly heldoutPassRate: Interval;
  /** Most often first, then by name. */
  readonly escapedDefects: readonly EscapedDefect[];
  /** Runs whose held-out suite could not run at all (every test counted as failed). */
  readonly suiteErrors: number;
  readonly delivered: number;
  readonly deliveredRate: Interval;
  readonly wallMs: Interval;
  readonly agentMs: Interval;
  readonly tokens: Reported;
  readonly costUsd: Reported;
  readonly interventions: Counted;
  readonly repairs: Counted;
  readonly violations: Counted;
  /** Over the runs where it was measured: its `n` says how many. */
  readonly mutationScore: Interval;
  readonly linesOfCode: Interval;
}

export interface TaskRow {
  readonly task: string;
  readonly workflow: string;
  readonly agent: string;
  readonly runs: number;
  /** The mean over the runs of passed / total. */
  readonly heldoutPassRate: number;
  /** How many of the runs delivered. */
  readonly delivered: number;
}

/** Two workflows compared for one agent: mean held-out pass rate of `a` less that of `b`. */
export interface WorkflowComparison extends DiffInterval {
  readonly agent: string;
  readonly a: string;
  readonly b: string;
  readonly metric: Metric;
}

export interface EvalReport {
  readonly runs: number;
  /** The bootstrap's settings: the same results and these give the same intervals. */
  readonly seed: number;
  readonly resamples: number;
  readonly level: number;
  /** In the order they first appear in the results. */
  readonly tasks: readonly string[];
  readonly workflows: readonly string[];
  readonly agents: readonly string[];
  /** One per workflow × agent that ran. */
  readonly groups: readonly GroupFigures[];
  /** One per workflow, every agent's runs together (`agent` null). */
  readonly byWorkflow: readonly GroupFigures[];
  readonly perTask: readonly TaskRow[];
  readonly comparisons: readonly WorkflowComparison[];
  readonly hypothesis: HypothesisReport | null;
}

export interface ReportOptions {
  readonly seed: number;
  /** The pre-registered hypothesis.md's text; null or absent: none. */
  readonly hypothesis?: string | null;
}

const distinct = (values: readonly string[]): string[] => [...new Set(values)];
const sumOf = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0);

/** The figures of some runs, each interval seeded by `seed` alone, so a reader can recompute any one from its values. */
export function groupFigures(runs: readonly EvalRunResult[], workflow: string, agent: string | null, seed: number): GroupFigures {
  const ci = (metric: Metric): Interval => bootstrapMeanCI(metricValues(runs, metric), { seed });
  const reported = (metric: 'tokens' | 'costUsd'): Reported => {
    const values = runs.map((r) => r[metric]).filter((v): v is number => v !== null);
    return { reported: values.length, sum: values.length ? sumOf(values) : null, mean: bootstrapMeanCI(values, { seed }) };
  };
  const counted = (metric: 'interventions' | 'repairs' | 'violations'): Counted => ({ sum: sumOf(runs.map((r) => r[metric])), mean: ci(metric) });
  const failures = new Map<string, number>();
  for (const r of runs) for (const test of new Set(r.heldout.failed)) failures.set(test, (failures.get(test) ?? 0) + 1);
  const escapedDefects = [...failures]
    .map(([test, n]) => ({ test, runs: n }))
    .sort((x, y) => y.runs - x.runs || (x.test < y.test ? -1 : x.test > y.test ? 1 : 0));
  return {
    workflow,
    agent,
    runs: runs.length,
    heldoutPassRate: ci('heldoutPassRate'),
    escapedDefects,
    suiteErrors: runs.filter((r) => r.heldout.error !== null).length,
    delivered: runs.filter((r) => r.delivered).length,
    deliveredRate: ci('deliveredRate'),
    wallMs: ci('wallMs'),
    agentMs: ci('agentMs'),
    tokens: reported('tokens'),
    costUsd: reported('costUsd'),
    interventions: counted('interventions'),
    repairs: counted('repairs'),
    violations: counted('violations'),
    mutationScore: ci('mutationScore'),
    linesOfCode: ci('linesOfCode'),
  };
}

export function buildReport(results: readonly EvalRunResult[], options: ReportOptions): EvalReport {
  const { seed } = options;
  const tasks = distinct(results.map((r) => r.task));
  const workflows = distinct(results.map((r) => r.workflow));
  const agents = distinct(results.map((r) => r.agent));
  const runsOf = (where: { task?: string; workflow?: string; agent?: string }) =>
    results.filter((r) => (where.task ?? r.task) === r.task && (where.workflow ?? r.workflow) === r.workflow && (where.agent ?? r.agent) === r.agent);
  const groups = workflows.flatMap((workflow) =>
    agents.flatMap((agent) => {
      const runs = runsOf({ workflow, agent });
      return runs.length ? [groupFigures(runs, workflow, agent, seed)] : [];
    }),
  );
  const byWorkflow = workflows.map((workflow) => groupFigures(runsOf({ workflow }), workflow, null, seed));
  const perTask = tasks.flatMap((task) =>
    workflows.flatMap((workflow) =>
      agents.flatMap((agent): TaskRow[] => {
        const runs = runsOf({ task, workflow, agent });
        if (runs.length === 0) return [];
        return [{ task, workflow, agent, runs: runs.length, heldoutPassRate: mean(runs.map(runPassRate))!, delivered: runs.filter((r) => r.delivered).length }];
      }),
    ),
  );
  const comparisons = agents.flatMap((agent) =>
    workflows.flatMap((a, i) =>
      workflows.slice(i + 1).flatMap((b): WorkflowComparison[] => {
        const ra = runsOf({ workflow: a, agent });
        const rb = runsOf({ workflow: b, agent });
        if (!ra.length || !rb.length) return [];
        const metric = 'heldoutPassRate';
        return [{ agent, a, b, metric, ...bootstrapDiffCI(metricValues(ra, metric), metricValues(rb, metric), { seed }) }];
      }),
    ),
  );
  const hypothesis = options.hypothesis == null ? null : hypothesisReport(options.hypothesis, results, seed);
  const settings = { runs: results.length, seed, resamples: DEFAULT_RESAMPLES, level: DEFAULT_LEVEL };
  return { ...settings, tasks, workflows, agents, groups, byWorkflow, perTask, comparisons, hypothesis };
}

// Words for figures, shared by the text and HTML reports.
const NONE = '—';
export const percent = (v: number | null): string => (v === null ? NONE : `${Math.round(v * 100)}%`);
export const signedPercent = (v: number | null): string => (v === null ? NONE : `${v > 0 ? '+' : ''}${Math.round(v * 100)}%`);
export const ms = (v: number | null): string => (v === null ? NONE : v < 1000 ? `${Math.round(v)} ms` : duration(v));
export const usd = (v: number | null): string => (v === null ? NONE : `$${v.toFixed(4)}`);
export const count = (v: number | null): string => (v === null ? NONE : String(Number(v.toFixed(2))));
/** A mean with its interval: "83% [67–100%]"; "—" with no value. */
export function withInterval(
  i: { mean?: number | null; diff?: number | null; low: number | null; high: number | null },
  as: (v: number | null) => string,
): string {
  const centre = i.mean !== undefined ? i.mean : (i.diff ?? null);
  if (centre === null) return NONE;
  return i.low === i.high && i.low === centre ? as(centre) : `${as(centre)} [${as(i.low)}, ${as(i.high)}]`;
}
/** Tokens or cost: the mean per run (with its interval, when asked) and the sum, or "not reported" when no run reported it. */
export function reportedWords(r: Reported, runs: number, as: (v: number | null) => string, interval = false): string {
  if (r.sum === null) return NOT_REPORTED;
  const partly = r.reported < runs ? ` (${r.reported}/${runs} reported)` : '';
  return `${interval ? withInterval(r.mean, as) : as(r.mean.mean)}/run, Σ ${as(r.sum)}${partly}`;
}
export const mutationWords = (g: GroupFigures): string =>
  g.mutationScore.n === 0 ? 'not measured' : `${percent(g.mutationScore.mean)} (${g.mutationScore.n} of ${g.runs})`;
export const groupName = (g: { workflow: string; agent: string | null }): string =>
  g.agent === null ? `${g.workflow} (all agents)` : `${g.workflow} × ${g.agent}`;

/** Rows as fixed-width columns, padded to the widest cell. */
export function textTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const GROUP_HEAD = [
  'workflow',
  'agent',
  'runs',
  'held-out pass',
  'delivered',
  'wall',
  'agent time',
  'tokens',
  'cost',
  'interv.',
  'repairs',
  'viol.',
  'mutation',
  'LOC',
];
const groupRow = (g: GroupFigures): string[] => [
  g.workflow,
  g.agent ?? 'all',
  String(g.runs),
  withInterval(g.heldoutPassRate, percent),
  `${g.delivered}/${g.runs} ${withInterval(g.deliveredRate, percent)}`,
  withInterval(g.wallMs, ms),
  withInterval(g.agentMs, ms),
  reportedWords(g.tokens, g.runs, count),
  reportedWords(g.costUsd, g.runs, usd),
  String(g.interventions.sum),
  String(g.repairs.sum),
  String(g.violations.sum),
  mutationWords(g),
  count(g.linesOfCode.mean),
];

function escapedLines(groups: readonly GroupFigures[]): string[] {
  return groups.map((g) => {
    const errors = g.suiteErrors ? ` (the held-out suite could not run in ${g.suiteErrors})` : '';
    if (g.escapedDefects.length === 0) return `  ${groupName(g)}: none${errors}`;
    return `  ${groupName(g)}: ${g.escapedDefects.map((d) => `${d.test} (${d.runs}/${g.runs})`).join(', ')}${errors}`;
  });
}

/** The report for a terminal: the tables, the escaped defects, the comparisons and the hypothesis's verdicts. */
export function renderText(report: EvalReport): string {
  const level = `${Math.round(report.level * 100)}%`;
  const out = [
    `${report.runs} runs: ${report.tasks.length} tasks × ${report.workflows.length} workflows × ${report.agents.length} agents. Means with ${level} bootstrap intervals (seed ${report.seed}, ${report.resamples} resamples); interv./repairs/viol. are totals.`,
    '',
    textTable(GROUP_HEAD, [...report.groups.map(groupRow), ...report.byWorkflow.map(groupRow)]),
    '',
    'Escaped defects (held-out tests that failed, in how many runs):',
    ...escapedLines(report.groups),
    '',
    'Per task:',
    textTable(
      ['task', 'workflow', 'agent', 'runs', 'held-out pass', 'delivered'],
      report.perTask.map((t) => [t.task, t.workflow, t.agent, String(t.runs), percent(t.heldoutPassRate), `${t.delivered}/${t.runs}`]),
    ),
  ];
  if (report.comparisons.length) {
    out.push('', `Held-out pass rate, workflow against workflow for the same agent (difference, ${level} interval):`);
    for (const c of report.comparisons) out.push(`  ${c.agent}: ${c.a} − ${c.b} = ${withInterval(c, signedPercent)} (${c.nA} and ${c.nB} runs)`);
  }
  out.push('', ...hypothesisLines(report.hypothesis));
  return `${out.join('\n')}\n`;
}

function hypothesisLines(h: HypothesisReport | null): string[] {
  if (h === null) return ['No hypothesis was pre-registered (--hypothesis hypothesis.md, before the first run).'];
  const lines = [`Hypothesis (pre-registered, sha256 ${h.sha256}):`];
  if (h.verdicts.length === 0 && h.errors.length === 0) lines.push('  no claim line to judge ("claim: enforced > baseline on heldoutPassRate").');
  for (const v of h.verdicts) lines.push(`  line ${v.claim.line}: ${v.claim.text} → ${v.verdict.toUpperCase()}: ${v.reason}`);
  for (const e of h.errors) lines.push(`  not judged: ${e}`);
  return lines;
}

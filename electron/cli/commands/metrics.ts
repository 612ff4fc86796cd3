/**
 * `baton metrics <dir> [--feature F] [--smells] [--json|--csv]`: the outcome metrics of each feature,
 * folded from the ledger by shared/metrics.ts (the one definition): a table per feature, the whole
 * structure as JSON, or one CSV row per item. A figure the ledger does not hold shows as `—`
 * (JSON null, an empty CSV cell), never as a zero. `--smells` adds the smell report
 * (shared/metrics/smells.ts) with the project's thresholds: information, so the exit code stays.
 */
import { projectMetrics, type FeatureMetrics, type ItemMetrics, type Totals, type Usage } from '../../../shared/metrics';
import { projectSmells, type Smell } from '../../../shared/metrics/smells';
import type { Subject } from '../../../shared/ledger';
import { flag, onePath, text, type Command } from '../command';
import { projectTools } from '../core';
import { EXIT, UsageError } from '../exit-codes';
import { printJson, type Io } from '../io';
import { failed, withProject } from '../open-project';
import { table } from '../table';
import { featuresAndLedger } from '../whole-ledger';

const NONE = '—';

/** Seconds with one decimal: one unit down a column, so rows compare at a glance. */
const seconds = (ms: number | null): string => (ms === null ? NONE : `${(ms / 1000).toFixed(1)} s`);
const tokens = (u: Usage): string => (u.inputTokens === null && u.outputTokens === null ? NONE : `${u.inputTokens ?? NONE}/${u.outputTokens ?? NONE}`);
const cost = (u: Usage): string => (u.costUsd === null ? NONE : `$${u.costUsd.toFixed(4)}`);
const count = (n: number | undefined): string => (n === undefined ? NONE : String(n));
const percent = (rate: number | null): string => (rate === null ? NONE : `${Math.round(rate * 100)}%`);

const HEADER = ['item', 'story', 'status', 'rounds', 'cycle time', 'agent', 'test runs', 'repairs', 'violations', 'tokens in/out', 'cost'];

/** The figures an item and a total share: cycle time, agent and test time, repairs, violations, tokens, cost. */
const figures = (f: Pick<Totals, 'cycleTimeMs' | 'agentMs' | 'testRunMs' | 'counts' | 'usage'>): string[] => [
  seconds(f.cycleTimeMs),
  seconds(f.agentMs),
  seconds(f.testRunMs),
  count(f.counts?.repairs),
  count(f.counts?.violations),
  tokens(f.usage),
  cost(f.usage),
];

const itemRow = (i: ItemMetrics): string[] => [i.item, i.story ?? NONE, i.status ?? NONE, String(i.rounds), ...figures(i)];
const totalRow = (label: string, t: Totals): string[] => [label, '', `${t.done}/${t.items} done`, '', ...figures(t)];

function printFeature(io: Io, name: string, f: FeatureMetrics): void {
  io.out(`${f.feature}  ${name}`);
  const rows = [
    ...f.items.map(itemRow),
    ...f.stories.map((s) => totalRow(`story ${s.story}${s.accepted ? ' (accepted)' : ''}`, s)),
    totalRow('feature', f.totals),
  ];
  io.out(table(HEADER, rows, '  '));
  const t = f.totals;
  io.out(`  First-pass GREEN: ${percent(t.firstPassGreenRate)}   Rejected REDs: ${count(t.counts?.rejectedRed)}   Refactors: ${count(t.counts?.refactors)}`);
  const escalations = Object.entries(t.escalations).map(([decision, n]) => `${n} ${decision}`);
  io.out(`  Escalations: ${escalations.join(', ') || 'none'}`);
  const actions = Object.entries(f.interventions.byType).map(([type, n]) => `${n} ${type}`);
  io.out(
    `  Interventions: ${f.interventions.total}${actions.length ? ` (${actions.join(', ')})` : ''}   Waiting for a person: ${seconds(f.waitingForPersonMs)}`,
  );
  const roles = Object.entries(t.usageByRole).map(([role, u]) => `${role} ${tokens(u)} ${cost(u)}`);
  if (roles.length) io.out(`  Tokens and cost by role: ${roles.join('; ')}`);
  const agents = Object.entries(t.usageByAgent).map(([agent, u]) => `${agent} ${tokens(u)} ${cost(u)}`);
  if (agents.length) io.out(`  By agent: ${agents.join('; ')}`);
  if (f.gateLatency.length) {
    const gates = f.gateLatency.map((g) => [g.gate, String(g.decisions), seconds(g.meanWaitedMs), seconds(g.maxWaitedMs), seconds(g.meanViewedMs)]);
    io.out(table(['gate', 'decisions', 'mean wait', 'max wait', 'mean viewed'], gates, '  '));
  } else io.out('  Gates: none decided yet.');
  io.out('');
}

/** `F-1/S-1/T3`, `F-1/S-1/acceptance gate`: the parts of the subject the records name. */
const subjectText = (s: Subject): string => [s.feature, s.story, s.item, s.gate === undefined ? undefined : `${s.gate} gate`].filter(Boolean).join('/');

/** One line a smell: its kind, its subject, the sentence, the records that show it. */
const smellLine = (s: Smell): string => `  ${s.kind}  ${subjectText(s.subject)}  ${s.says}  (records ${s.records.map((n) => `#${n}`).join(', ')})`;

const CSV_HEADER = [
  'feature',
  'item',
  'story',
  'status',
  'rounds',
  'cycle_time_ms',
  'red_ms',
  'green_ms',
  'refactor_ms',
  'review_ms',
  'agent_ms',
  'test_run_ms',
  'first_pass_green',
  'repairs',
  'violations',
  'rejected_red',
  'refactors',
  'escalations',
  'input_tokens',
  'output_tokens',
  'cost_usd',
  'mutation_score',
];

/** RFC 4180: a cell with a comma, a quote or a line break is quoted, its quotes doubled; null is an empty cell. */
const cell = (value: string | number | boolean | null | undefined): string => {
  const s = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

const csvRow = (feature: string, i: ItemMetrics): string =>
  [
    feature,
    i.item,
    i.story,
    i.status,
    i.rounds,
    i.cycleTimeMs,
    i.stepMs.red,
    i.stepMs.green,
    i.stepMs.refactor,
    i.stepMs.review,
    i.agentMs,
    i.testRunMs,
    i.firstPassGreen,
    i.counts?.repairs,
    i.counts?.violations,
    i.counts?.rejectedRed,
    i.counts?.refactors,
    i.counts ? i.escalations.length : null,
    i.usage.inputTokens,
    i.usage.outputTokens,
    i.usage.costUsd,
    i.mutation?.score,
  ]
    .map(cell)
    .join(',');

export const metricsCommand: Command = {
  name: 'metrics',
  synopsis: 'metrics <dir|bundle> [--feature F] [--smells] [--json|--csv]',
  summary: 'Outcome metrics from the ledger: cycle time, agent and test time, repairs, violations, tokens and cost, gate latency; --smells: the smell report',
  options: {
    json: { type: 'boolean', default: false },
    csv: { type: 'boolean', default: false },
    smells: { type: 'boolean', default: false },
    feature: { type: 'string' },
  },
  async run(positionals, values, io) {
    const json = flag(values, 'json');
    const csv = flag(values, 'csv');
    const smelly = flag(values, 'smells');
    if (json && csv) throw new UsageError(`metrics prints one format: give --json or --csv, not both: baton ${this.synopsis}`);
    if (smelly && csv) throw new UsageError(`the smell report is no CSV: give --smells alone or with --json: baton ${this.synopsis}`);
    const feature = text(values, 'feature');
    const root = onePath(positionals, this.synopsis);
    return withProject(root, json, io, async (session, view) => {
      const read = await featuresAndLedger(session, view, feature, root);
      if (!read.ok) return failed(io, read.error, json);
      const { features, ledger } = read.value;
      const metrics = projectMetrics(ledger.records, features);
      let smells: Smell[] | null = null;
      if (smelly) {
        // Read only when asked for: a bad `smells` setting must not stop the figures without it.
        const thresholds = await (await projectTools()).smellThresholds(view);
        if (!thresholds.ok) return failed(io, thresholds.error, json);
        smells = projectSmells(ledger.records, features, thresholds.value, new Date());
      }
      // A Consort project keeps its cycles in files of its own, not in a Baton ledger: every cycle figure is not recorded.
      const foreign =
        view.layout !== 'baton'
          ? `${view.name} is a ${view.layout} project: metrics come from a Baton ledger, so its cycle figures are not recorded (—).`
          : null;
      if (json) printJson(io, { layout: view.layout, ...metrics, ...(smells ? { smells } : {}) });
      else if (csv) io.out([CSV_HEADER.join(','), ...metrics.features.flatMap((f) => f.items.map((i) => csvRow(f.feature, i)))].join('\n'));
      else {
        if (foreign) io.out(`${foreign}\n`);
        if (features.length === 0) io.out(`No feature in ${root}: metrics appear once a feature runs.`);
        metrics.features.forEach((f, i) => printFeature(io, features[i]?.name ?? '', f));
        if (smells) io.out(smells.length ? ['Smells:', ...smells.map(smellLine)].join('\n') : 'No smells.');
      }
      if (foreign && (json || csv)) io.err(`baton: ${foreign}`);
      // As `baton log`: figures folded from a chain that does not verify are shown, and the exit code says so.
      const { chain } = ledger;
      if (!chain.ok)
        io.err(
          `baton: the ledger's chain is broken at record #${chain.brokenAt}: these figures may rest on altered records. Run \`baton verify\` for details.`,
        );
      return chain.ok ? EXIT.ok : EXIT.problems;
    });
  },
};

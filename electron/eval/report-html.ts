/**
 * The evaluation's report as ONE self-contained page (issue 36) a team lead opens offline: inline
 * CSS (light and dark from the system), no script, no font, no link out, and a Content-Security-
 * Policy that allows nothing else, like the dossier (shared/dossier-html.ts). Plots are hand-written
 * SVG bars, the Metrics screen's choice (renderer/src/metrics/bar-chart.tsx), here with the bootstrap
 * interval as a whisker; each has a table under it with the same numbers. Task and test names come
 * from task folders and test runners: every value is escaped. Pure.
 */
import { escapeHtml } from '../../shared/dossier-html';
import type { ClaimVerdict, HypothesisReport } from './hypothesis';
import {
  count,
  groupName,
  ms,
  mutationWords,
  NOT_REPORTED,
  percent,
  reportedWords,
  signedPercent,
  usd,
  withInterval,
  type EvalReport,
  type GroupFigures,
} from './report';
import type { Interval } from './stats';

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d0d7de;--card:#f6f8fa;--bar:#0969da;--whisker:#1b1f24;--good:#1a7f37;--bad:#cf222e;--info:#57606a}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#30363d;--card:#161b22;--bar:#4493f8;--whisker:#e6edf3;--good:#3fb950;--bad:#f85149;--info:#9198a1}}
body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:24px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 4px;border-bottom:1px solid var(--line)}
.muted{color:var(--muted)}code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}
pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 12px;white-space:pre-wrap}
section.plot{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:16px 0;background:var(--card)}
div.wide{overflow-x:auto}table{border-collapse:collapse;margin:8px 0}td{white-space:nowrap}td.why{white-space:normal}th,td{border-top:1px solid var(--line);padding:3px 10px;text-align:left;vertical-align:top}td.num{text-align:right;font-variant-numeric:tabular-nums}
svg.chart{width:100%;max-width:760px;height:auto;display:block}
.chart-bar{fill:var(--bar)}.chart-whisker{stroke:var(--whisker);stroke-width:1.5}.chart-tick line{stroke:var(--line)}
.chart-tick text,.chart-label,.chart-value{fill:var(--fg);font-size:11px}.chart-none{fill:var(--muted);font-style:italic}
.supported{color:var(--good);font-weight:600}.contradicted{color:var(--bad);font-weight:600}.inconclusive{color:var(--info);font-weight:600}
`;

const WIDTH = 760;
const LABEL = 200;
const VALUE = 80;
const ROW = 24;
const BAR = 14;
const AXIS = 20;

/**
 * A scale's top: the largest value rounded up to 1, 2 or 5 times a power of ten (0 → 1). The same
 * rule as the Metrics screen's niceMax (renderer/src/metrics/chart-data.ts), which main-side code
 * may not import.
 */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

interface PlotRow {
  readonly label: string;
  readonly value: Interval;
  /** What the row's value cell says (with "not reported" when there is none). */
  readonly words: string;
}

/** Horizontal bars, one per row, each with its interval as a whisker; `max` fixes the scale (1 for rates). */
export function barSvg(id: string, title: string, rows: readonly PlotRow[], format: (v: number) => string, max?: number): string {
  const top = max ?? niceMax(Math.max(0, ...rows.map((r) => r.value.high ?? r.value.mean ?? 0)));
  const plot = WIDTH - LABEL - VALUE;
  const x = (v: number) => LABEL + (Math.min(Math.max(v, 0), top) / top) * plot;
  const height = rows.length * ROW + AXIS;
  const ticks = [0, top / 2, top]
    .map(
      (t, i) =>
        `<g class="chart-tick"><line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${height - AXIS}"/>` +
        `<text x="${x(t)}" y="${height - 6}" text-anchor="${['start', 'middle', 'end'][i]}">${escapeHtml(format(t))}</text></g>`,
    )
    .join('');
  const bars = rows
    .map((row, i) => {
      const y = i * ROW + (ROW - BAR) / 2;
      const { mean, low, high } = row.value;
      const label = row.label.length > 28 ? `${row.label.slice(0, 27)}…` : row.label;
      const bar =
        mean === null
          ? ''
          : `<rect class="chart-bar" x="${LABEL}" y="${y}" width="${Math.max(x(mean) - LABEL, 1)}" height="${BAR}"><title>${escapeHtml(`${row.label}: ${row.words}`)}</title></rect>`;
      const mid = y + BAR / 2;
      const whisker =
        low === null || high === null || low === high
          ? ''
          : `<line class="chart-whisker" x1="${x(low)}" x2="${x(high)}" y1="${mid}" y2="${mid}"/>` +
            `<line class="chart-whisker" x1="${x(low)}" x2="${x(low)}" y1="${y + 2}" y2="${y + BAR - 2}"/><line class="chart-whisker" x1="${x(high)}" x2="${x(high)}" y1="${y + 2}" y2="${y + BAR - 2}"/>`;
      return (
        `<g data-bar="${escapeHtml(row.label)}"><text class="chart-label" x="${LABEL - 8}" y="${y + BAR - 3}" text-anchor="end">${escapeHtml(label)}</text>${bar}${whisker}` +
        `<text class="${mean === null ? 'chart-value chart-none' : 'chart-value'}" x="${WIDTH - 4}" y="${y + BAR - 3}" text-anchor="end">${escapeHtml(mean === null ? row.words : format(mean))}</text></g>`
      );
    })
    .join('');
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(`${title}: ${rows.length} bars`)}" data-plot="${escapeHtml(id)}">${ticks}${bars}</svg>`;
}

type Cell = string | { readonly num: string };
function table(head: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cell = (c: Cell) => (typeof c === 'string' ? `<td>${escapeHtml(c)}</td>` : `<td class="num">${escapeHtml(c.num)}</td>`);
  return `<table><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map(cell).join('')}</tr>`).join('')}</tbody></table>`;
}

interface PlotSpec {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly of: (g: GroupFigures) => Interval;
  readonly words: (g: GroupFigures) => string;
  readonly format: (v: number) => string;
  readonly max?: number;
}

const PLOTS: readonly PlotSpec[] = [
  {
    id: 'heldout',
    title: 'Held-out pass rate',
    about: 'The mean over runs of the share of held-out tests the delivered code passed; the whisker is the bootstrap interval.',
    of: (g) => g.heldoutPassRate,
    words: (g) => withInterval(g.heldoutPassRate, percent),
    format: percent,
    max: 1,
  },
  {
    id: 'delivered',
    title: 'Delivered rate',
    about: 'The share of runs the workflow said it delivered.',
    of: (g) => g.deliveredRate,
    words: (g) => `${g.delivered}/${g.runs}: ${withInterval(g.deliveredRate, percent)}`,
    format: percent,
    max: 1,
  },
  {
    id: 'wall',
    title: 'Wall time per run',
    about: 'The run’s whole time, mean per run.',
    of: (g) => g.wallMs,
    words: (g) => withInterval(g.wallMs, ms),
    format: ms,
  },
  {
    id: 'agent',
    title: 'Agent time per run',
    about: 'The agents’ turns’ own time, mean per run.',
    of: (g) => g.agentMs,
    words: (g) => withInterval(g.agentMs, ms),
    format: ms,
  },
  {
    id: 'cost',
    title: 'Cost per run',
    about: `What the agent host reported, mean over the runs that reported it; "${NOT_REPORTED}" when none did.`,
    of: (g) => g.costUsd.mean,
    words: (g) => reportedWords(g.costUsd, g.runs, usd, true),
    format: usd,
  },
];

function plotHtml(spec: PlotSpec, groups: readonly GroupFigures[]): string {
  const rows = groups.map((g) => ({ label: groupName(g), value: spec.of(g), words: spec.words(g) }));
  const numbers = table(
    ['Workflow × agent', 'Runs with it', 'Mean [interval]'],
    groups.map((g, i) => [rows[i]!.label, { num: String(spec.of(g).n) }, rows[i]!.words]),
  );
  return `<section class="plot" id="plot-${spec.id}"><h2>${escapeHtml(spec.title)}</h2><p class="muted">${escapeHtml(spec.about)}</p>${barSvg(spec.id, spec.title, rows, spec.format, spec.max)}${numbers}</section>`;
}

const SUMMARY_HEAD = [
  'Workflow',
  'Agent',
  'Runs',
  'Held-out pass',
  'Delivered',
  'Wall',
  'Agent time',
  'Tokens',
  'Cost',
  'Interventions',
  'Repairs',
  'Violations',
  'Mutation score',
  'Lines of code',
];
const summaryRow = (g: GroupFigures): Cell[] => [
  g.workflow,
  g.agent ?? 'all agents',
  { num: String(g.runs) },
  withInterval(g.heldoutPassRate, percent),
  `${g.delivered}/${g.runs}`,
  withInterval(g.wallMs, ms),
  withInterval(g.agentMs, ms),
  reportedWords(g.tokens, g.runs, count),
  reportedWords(g.costUsd, g.runs, usd),
  { num: String(g.interventions.sum) },
  { num: String(g.repairs.sum) },
  { num: String(g.violations.sum) },
  mutationWords(g),
  { num: count(g.linesOfCode.mean) },
];

const defectRows = (groups: readonly GroupFigures[]): Cell[][] =>
  groups.flatMap((g) =>
    g.escapedDefects.length === 0
      ? [[groupName(g), 'none', { num: '0' }]]
      : g.escapedDefects.map((d): Cell[] => [groupName(g), d.test, { num: `${d.runs}/${g.runs}` }]),
  );

const verdictCell = (v: ClaimVerdict): string => `<td><span class="${v.verdict}">${escapeHtml(v.verdict)}</span></td>`;

function hypothesisHtml(h: HypothesisReport | null): string {
  if (h === null)
    return '<h2>Hypothesis</h2><p class="muted">No hypothesis was pre-registered (<code>--hypothesis hypothesis.md</code>, before the first run).</p>';
  const verdicts = h.verdicts.map(
    (v) =>
      `<tr><td class="num">${v.claim.line}</td><td><code>${escapeHtml(v.claim.text)}</code></td>${verdictCell(v)}` +
      `<td>${escapeHtml(withInterval(v, (x) => (x === null ? '—' : String(Number(x.toPrecision(4))))))}</td><td class="num">${v.nA} / ${v.nB}</td><td class="why">${escapeHtml(v.reason)}</td></tr>`,
  );
  const head =
    '<tr><th scope="col">Line</th><th scope="col">Claim</th><th scope="col">Verdict</th><th scope="col">a − b [interval]</th><th scope="col">Runs a / b</th><th scope="col">Why</th></tr>';
  const errors = h.errors.length ? `<p>Not judged:</p><ul>${h.errors.map((e) => `<li>${escapeHtml(e)}</li>`).join('')}</ul>` : '';
  return (
    `<h2>Hypothesis</h2><p class="muted">Pre-registered before the first run; sha256 <span class="mono">${escapeHtml(h.sha256)}</span>.</p><pre>${escapeHtml(h.text)}</pre>` +
    (verdicts.length ? `<table><thead>${head}</thead><tbody>${verdicts.join('')}</tbody></table>` : '<p class="muted">No claim line to judge.</p>') +
    errors
  );
}

/** The whole page. */
export function renderHtml(report: EvalReport): string {
  const level = `${Math.round(report.level * 100)}%`;
  const all = [...report.groups, ...report.byWorkflow];
  const comparisons = table(
    ['Agent', 'a', 'b', 'Held-out pass rate a − b', 'Runs a / b'],
    report.comparisons.map((c) => [c.agent, c.a, c.b, withInterval(c, signedPercent), { num: `${c.nA} / ${c.nB}` }]),
  );
  const perTask = table(
    ['Task', 'Workflow', 'Agent', 'Runs', 'Held-out pass', 'Delivered'],
    report.perTask.map((t) => [t.task, t.workflow, t.agent, { num: String(t.runs) }, { num: percent(t.heldoutPassRate) }, { num: `${t.delivered}/${t.runs}` }]),
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Baton eval — does enforcement pay?</title><style>${CSS}</style></head>
<body><header><p class="muted">Baton evaluation report</p><h1>Does enforcement pay?</h1>
<p class="muted">${report.runs} runs: ${escapeHtml(report.tasks.join(', '))} × ${escapeHtml(report.workflows.join(', '))} × ${escapeHtml(report.agents.join(', '))}. Means with ${level} percentile bootstrap intervals (seed ${escapeHtml(report.seed)}, ${report.resamples} resamples); interventions, repairs and violations are totals.</p></header>
<main><h2>Summary</h2><div class="wide">${table(SUMMARY_HEAD, all.map(summaryRow))}</div>
${PLOTS.map((p) => plotHtml(p, report.groups)).join('\n')}
<h2>Escaped defects</h2><p class="muted">Held-out tests that failed, and in how many of the runs.</p>${table(['Workflow × agent', 'Held-out test', 'Runs failed'], defectRows(report.groups))}
<h2>Per task</h2>${perTask}
<h2>Workflows compared, same agent</h2>${report.comparisons.length ? comparisons : '<p class="muted">No two workflows ran with the same agent.</p>'}
${hypothesisHtml(report.hypothesis)}</main></body></html>
`;
}

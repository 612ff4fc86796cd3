/**
 * The evaluation's HTML page (issue 36): self-contained (no script, nothing loaded from anywhere),
 * every value escaped (a task or held-out test named `<script>` stays text), one inline SVG per
 * plot with a table of the same numbers under it, and "not reported" where no run reported a cost.
 */
import { describe, expect, it } from 'vitest';
import { niceMax, renderHtml } from './report-html';
import { buildReport } from './report';
import type { EvalRunResult } from './types';

const EVIL = '<script>alert("x")</script>';

function run(task: string, workflow: string, agent: string, rep: number, passed: number, failed: string[], costUsd: number | null): EvalRunResult {
  return {
    task,
    workflow,
    agent,
    rep,
    seed: rep,
    delivered: passed > 5,
    outcome: 'synthetic',
    heldout: { total: 10, passed, failed, ms: 1, error: null },
    wallMs: 1000 * rep,
    agentMs: 400 * rep,
    tokens: null,
    costUsd,
    interventions: 0,
    repairs: 0,
    violations: 0,
    mutationScore: null,
    linesOfCode: 50,
    folder: `runs/${rep}`,
    ledger: null,
  };
}

const results = [1, 2, 3].flatMap((rep) => [
  run(EVIL, 'enforced', 'honest', rep, 10, [], 0.02 * rep),
  run(EVIL, 'baseline', 'honest', rep, 7, [EVIL, 'a & b'], 0.01 * rep),
  run('plain', 'enforced', `agent"'`, rep, 9, ['edge'], null),
  run('plain', 'baseline', `agent"'`, rep, 4, ['edge', 'zero'], null),
]);
const report = buildReport(results, { seed: 3, hypothesis: `${EVIL}\nclaim: enforced > baseline on heldoutPassRate\n` });
const html = renderHtml(report);

describe('renderHtml', () => {
  it('is one self-contained page: no script, nothing fetched, a CSP that allows only inline style', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\s(src|href)=/i);
    expect(html).not.toMatch(/url\(|@import|https?:\/\//i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('prefers-color-scheme:dark');
  });

  it('escapes every value a task, test, agent or hypothesis brings', () => {
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('a &amp; b');
    expect(html).toContain('agent&quot;&#39;');
    expect(html).not.toContain(`agent"'`);
  });

  it('draws one SVG per plot, each followed by a table with the same numbers', () => {
    const plots = html.match(/<section class="plot" id="plot-[a-z]+">[\s\S]*?<\/section>/g) ?? [];
    expect(plots.map((p) => /id="plot-([a-z]+)"/.exec(p)![1])).toEqual(['heldout', 'delivered', 'wall', 'agent', 'cost']);
    expect(html.match(/<svg/g)).toHaveLength(plots.length);
    for (const plot of plots) {
      expect(plot.match(/<svg/g)).toHaveLength(1);
      expect(plot.indexOf('<table>')).toBeGreaterThan(plot.indexOf('</svg>'));
      // One bar label and one table row per workflow × agent.
      expect(plot.match(/<g data-bar=/g)).toHaveLength(report.groups.length);
      expect(plot.match(/<tr>/g)).toHaveLength(report.groups.length + 1);
    }
    const heldout = plots[0]!;
    // The honest agent under baseline passes 7 of 10 every run: 70%, in the bar's value and in its row.
    expect(heldout).toMatch(/baseline × honest<\/text><rect[^>]*><title>[^<]*<\/title><\/rect><text class="chart-value"[^>]*>70%<\/text>/);
    expect(heldout).toMatch(/<tr><td>baseline × honest<\/td><td class="num">3<\/td><td>70%<\/td><\/tr>/);
    // Every group here passes the same share in each of its runs: no interval has width, so no whisker.
    expect(heldout.match(/class="chart-whisker"/g)?.length ?? 0).toBe(0);
  });

  it('writes "not reported" for a cost no run reported, in the bar and in its table, never $0', () => {
    const cost = /<section class="plot" id="plot-cost">[\s\S]*?<\/section>/.exec(html)![0];
    expect(cost).toMatch(/<text class="chart-value chart-none"[^>]*>not reported<\/text>/);
    expect(cost).toMatch(/<tr><td>enforced × agent&quot;&#39;<\/td><td class="num">0<\/td><td>not reported<\/td><\/tr>/);
    expect(cost).toMatch(/<td>\$0\.0400 \[\$0\.0\d+, \$0\.0\d+\]\/run, Σ \$0\.1200<\/td>/);
    expect(cost).not.toMatch(/chart-value[^>]*>\$0\.0000/);
  });

  it('shows the escaped defects, the per-task table, the comparisons and the judged hypothesis', () => {
    expect(html).toContain('<td>baseline × honest</td><td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</td><td class="num">3/3</td>');
    expect(html).toMatch(
      /<td>plain<\/td><td>baseline<\/td><td>agent&quot;&#39;<\/td><td class="num">3<\/td><td class="num">40%<\/td><td class="num">0\/3<\/td>/,
    );
    expect(html).toContain('<td>honest</td><td>enforced</td><td>baseline</td><td>+30%</td>');
    expect(html).toContain(`sha256 <span class="mono">${report.hypothesis!.sha256}</span>`);
    expect(html).toMatch(/<pre>&lt;script&gt;[^<]*\nclaim: enforced &gt; baseline on heldoutPassRate\n<\/pre>/);
    expect(html).toMatch(/<span class="supported">supported<\/span>/);
  });

  it('draws a whisker where the interval has width', () => {
    const mixed = buildReport(
      [10, 4, 7, 9].map((p, i) => run('t', 'w', 'a', i + 1, p, [], 0.01)),
      { seed: 1 },
    );
    const page = renderHtml(mixed);
    expect(page.match(/class="chart-whisker"/g)!.length).toBeGreaterThanOrEqual(3);
    expect(page).toContain('No hypothesis was pre-registered');
  });

  it('makes a page of no result at all, every plot empty', () => {
    const page = renderHtml(buildReport([], { seed: 1 }));
    expect(page.match(/<svg/g)).toHaveLength(5);
    expect(page).not.toContain('NaN');
    expect(page).toContain('No two workflows ran with the same agent.');
  });
});

describe('niceMax', () => {
  it('rounds a scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.3, 3, 7, 10, 4100, 0.045].map(niceMax)).toEqual([1, 0.5, 5, 10, 10, 5000, 0.05]);
  });
});

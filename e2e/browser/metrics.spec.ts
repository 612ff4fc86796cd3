/**
 * The Metrics screen (issue 35) on a real Baton project whose ledger holds cycles (gates approved
 * from the CLI, two items escalated after repairs and a violation, their turns reported by two
 * agent hosts; no whole-feature run): every chart draws its points or says what is not recorded,
 * its numbers equal `baton metrics --json`'s, a chart's table view links each row to its record, no
 * CSP violation is reported, and the screen is saved as a screenshot (light and dark).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { escalate, escalationSeed as seed } from './support/escalated-project';
import { ARTIFACTS_DIR } from './support/paths';
import { batonProject, expect, serving } from './support/served';

const APPROVER = 'Ana <ana@example.com>';

const test = serving(
  batonProject({
    prepare: (project) => {
      for (const gate of ['spec', 'design']) project.baton('approve', project.dir, '--feature', 'F-1', '--gate', gate, '--approver', APPROVER, '--yes');
      // Two agent hosts, each reporting its usage on every turn, so the hosts can be compared.
      const claude = { host: 'claude-code', model: 'sonnet', inputTokens: 1200, outputTokens: 300, costUsd: 0.0125 };
      const codex = { host: 'codex', model: 'gpt-5', inputTokens: 900, outputTokens: 150, costUsd: 0.004 };
      escalate(project, [seed('F-1', 'T1', { repairs: 2, violations: 1, agent: claude }), seed('F-1', 'T2', { repairs: 1, agent: codex })]);
    },
  }),
);

interface CliMetrics {
  readonly features: ReadonlyArray<{
    readonly feature: string;
    readonly totals: {
      readonly counts: { readonly repairs: number; readonly violations: number } | null;
      readonly usage: { readonly costUsd: number | null };
      readonly usageByAgent: Readonly<Record<string, { readonly turns: number; readonly inputTokens: number | null }>>;
    };
    readonly stories: ReadonlyArray<{ readonly story: string; readonly counts: { readonly repairs: number } | null }>;
  }>;
}

test('every chart draws from the ledger, with the CLI’s numbers, a table view and links to the records', async ({ servedPage: page, project }) => {
  // `node bin/baton.mjs metrics <dir> --json`, with the project's own config folder.
  const cli = JSON.parse(project.baton('metrics', project.dir, '--json')) as CliMetrics;
  const f1 = cli.features.find((f) => f.feature === 'F-1')!;

  // The strict CSP (shared/csp.ts) holds: the charts inject no inline style it would block.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.getByTestId('nav-metrics').click();
  await expect(page).toHaveURL(/#\/metrics$/);
  await expect(page.getByTestId('metrics-view')).toBeVisible();

  // The charts with records behind them draw points; the ones this ledger cannot fill say so.
  for (const id of ['cycle-time', 'burn-up', 'story-repairs', 'gate-latency', 'agents-turns', 'agents-input', 'agents-output', 'agents-cost']) {
    const chart = page.getByTestId(`chart-${id}`);
    await expect(chart).toBeVisible();
    expect(Number(await chart.getAttribute('data-points')), id).toBeGreaterThan(0);
    await expect(chart.getByTestId('chart-point').first()).toHaveAttribute('href', /^#\/evidence\/\d+$/);
  }
  // No story is accepted (its items escalated): not recorded, never a zero.
  await expect(page.getByTestId('empty-story-cost')).toContainText('Not recorded');
  // A CLI approval records no wait: its bar says so rather than drawing a zero.
  await expect(page.getByTestId('chart-gate-latency')).toContainText('not recorded');

  // The same numbers as `baton metrics --json`.
  expect(f1.totals.counts).not.toBeNull();
  await expect(page.getByTestId('figure-repairs-value')).toHaveText(String(f1.totals.counts!.repairs));
  await expect(page.getByTestId('figure-violations-value')).toHaveText(String(f1.totals.counts!.violations));
  await expect(page.getByTestId('figure-cost-value')).toHaveText(`$${f1.totals.usage.costUsd!.toFixed(4)}`);
  const hosts = Object.keys(f1.totals.usageByAgent);
  expect(hosts).toEqual(['claude-code/sonnet', 'codex/gpt-5']);
  await page.getByTestId('toggle-agents').click();
  for (const host of hosts) {
    const row = page.getByTestId('table-agents-input').getByRole('row', { name: host });
    await expect(row.getByRole('cell').first()).toHaveText(String(f1.totals.usageByAgent[host]!.inputTokens));
  }
  await page.getByTestId('toggle-agents').click();

  // The table view of repairs and violations per story: the CLI's count, and a link to a record.
  await page.getByTestId('toggle-story-repairs').click();
  const table = page.getByTestId('table-story-repairs');
  const s1 = f1.stories.find((s) => s.story === 'S-1')!;
  await expect(table.getByRole('row', { name: /S-1/ }).getByRole('cell').first()).toHaveText(String(s1.counts!.repairs));

  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.getByTestId('toggle-story-repairs').click();
  // Tall enough for every chart: the view scrolls inside the workbench, not the page.
  await page.setViewportSize({ width: 1440, height: 2000 });
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'metrics.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(ARTIFACTS_DIR, 'metrics-dark.png'), fullPage: true });
  await page.getByTestId('toggle-story-repairs').click();
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);

  const link = table.getByTestId('table-record-link').first();
  const seq = (await link.textContent())!.replace('#', '');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`#/evidence/${seq}$`));
  await expect(page.getByTestId('record-detail')).toContainText(`#${seq}`);
});

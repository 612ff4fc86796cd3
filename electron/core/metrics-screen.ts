/**
 * The Metrics screen's answer for the open project (`metrics:get`): the same fold as `baton metrics
 * --json` — shared/metrics.ts over the whole ledger as `ledger:list` serves it and the project's
 * features — the smell report with the project's thresholds, and the records behind each figure
 * (shared/metrics/screen.ts).
 */
import { metricsScreen, type MetricsScreen } from '../../shared/metrics/screen';
import { err, ok, type Result } from '../../shared/result';
import { smellThresholds } from './smell-settings';
import type { Workbench } from './workbench';

export async function metricsScreenOf(workbench: Workbench, feature?: string): Promise<Result<MetricsScreen>> {
  // The whole ledger in one page, with the chain's state (verified once per loaded project).
  const page = await workbench.ledgerPage(0, Number.MAX_SAFE_INTEGER);
  const view = workbench.project;
  if (!page.ok) return page;
  if (!view) return err('no-project', 'No project is open: open one to see its metrics.');
  const features = feature === undefined ? view.features : view.features.filter((f) => f.id === feature);
  if (feature !== undefined && features.length === 0)
    return err('not-found', `No feature "${feature}" in ${view.root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
  // A bad `smells` setting must not hide the figures: the screen says what is wrong with it instead.
  const thresholds = await smellThresholds(view);
  const { records, chain } = page.value;
  return ok(
    metricsScreen(
      records,
      features,
      thresholds.ok ? thresholds.value : thresholds.error.message,
      { layout: view.layout, chainOk: chain.ok },
      workbench.options.now?.() ?? new Date(),
    ),
  );
}

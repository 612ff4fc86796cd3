/**
 * The Live run panel follows one run, of one feature. When the board shows another feature, the
 * panel says whose run it shows and offers to show that feature, so a new feature never appears
 * to have another feature's cycles, counts or gates.
 */
import type { RunStateView } from '../../../shared/run';
import { useStore } from '../store/store';

/** The feature the board shows when it is not the run's, else null (all features shown, or the same one). */
export function otherFeature(runFeature: string | null, viewed: string | null): string | null {
  return runFeature !== null && viewed !== null && viewed !== runFeature ? viewed : null;
}

export interface PanelScope {
  /** The feature the board shows instead of the run's: the panel says so (OtherFeatureNotice). */
  readonly other: string | null;
  /** Whether the run's lifecycle, cycles and Path show: never as another feature's, except while that run runs. */
  readonly machines: boolean;
}

export function panelScope(run: Pick<RunStateView, 'feature' | 'lifecycle' | 'running'>, shown: string | null): PanelScope {
  const other = otherFeature(run.feature, shown);
  return { other, machines: other === null || run.running };
}

export function OtherFeatureNotice({ runFeature, viewed, running }: { runFeature: string; viewed: string; running: boolean }) {
  const setFilters = useStore((s) => s.setFilters);
  return (
    <p className="run-other-feature" data-testid="run-other-feature">
      {running ? 'Running ' : 'This panel shows the last run, of '}
      <span className="mono">{runFeature}</span>; the board shows <span className="mono">{viewed}</span>
      {running ? ', which is not running.' : ', which has not run in this window.'}{' '}
      <button type="button" className="button button-quiet" onClick={() => setFilters({ feature: runFeature, story: null })}>
        Show {runFeature}
      </button>
    </p>
  );
}

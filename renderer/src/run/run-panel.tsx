/**
 * The bottom panel: the live run. The feature's lifecycle as a strip of its states, every item
 * being built now (several when stories are built in parallel), one item's cycle as a strip, the
 * Path of the feature's branches up to the tier, and the agent's transcript and the runner's
 * output streaming side by side (the items' lines interleave, each turn and test run under a head
 * naming its item).
 */
import { readOnlyReason } from '../../../shared/read-only';
import { LIFECYCLE_STATE_NAMES } from '../../../shared/run';
import { ErrorBanner } from '../components/error-banner';
import { Icon } from '../components/icon';
import { Badge } from '../components/status-badge';
import { hostModKey } from '../lib/shortcuts';
import { useStore } from '../store/store';
import { buildingRows, followedItem } from './building-model';
import { BuildingNow } from './building-now';
import { CycleView } from './cycle-view';
import { OtherFeatureNotice, panelScope } from './other-feature';
import { LogPane } from './log-pane';
import { MachineStrip } from './machine-strip';
import { PanelResizer } from './panel-resizer';
import { RunOutcome } from './run-outcome';
import { RunPath } from './run-path';
import { runCountsOf } from './run-counts';
import { CONDITION, conditionOf } from './run-words';
import { usePanelSize } from './use-panel-size';

const LIFECYCLE_PATH = LIFECYCLE_STATE_NAMES.filter((s) => s !== 'abandoned' && s !== 'escalated');

function RunBody() {
  const run = useStore((s) => s.run);
  const project = useStore((s) => s.project);
  const shown = useStore((s) => s.filters.feature);
  const scope = panelScope(run, shown);
  const viewed = scope.other;
  const readOnly = project ? readOnlyReason(project, 'runs') : null;
  const ran = run.runId !== null;
  const machines = run.lifecycle !== null && scope.machines;
  const turn = run.turn;
  const last = run.running ? '' : 'last: ';
  return (
    <>
      {run.message && <ErrorBanner error={{ code: 'run-failed', message: run.message }} title="The run failed" />}
      <RunOutcome run={run} />
      {run.waiting && (
        <p className="run-waiting" data-testid="run-waiting">
          {run.waiting.message}
        </p>
      )}
      {!ran && (
        <div className="empty-state run-empty" data-testid="run-empty">
          <p>{readOnly ?? 'No run yet — press Run to start the enforced loop'}</p>
        </div>
      )}
      {viewed && run.feature && <OtherFeatureNotice runFeature={run.feature} viewed={viewed} running={run.running} />}
      {machines && (
        <div className="run-machines">
          <div className="run-lifecycle">
            <h3>{ran ? 'Feature lifecycle' : 'Feature lifecycle (last known)'}</h3>
            <MachineStrip label="Feature lifecycle" states={LIFECYCLE_PATH} current={run.lifecycle} testId="lifecycle-machine" />
          </div>
          <BuildingNow rows={buildingRows(run)} />
          <CycleView items={run.items} current={followedItem(run)} active={run.active} countsOf={runCountsOf(project, run.feature)} />
        </div>
      )}
      {run.feature && (ran || run.lifecycle) && scope.machines && <RunPath feature={run.feature} />}
      {ran && (
        <div className="run-panes">
          <LogPane
            title="Agent turn"
            detail={turn ? `${last}${turn.role} · ${turn.step} · ${turn.item ?? 'feature'} · attempt ${turn.attempt}` : 'no turn yet'}
            log={run.transcript}
            empty="No agent turn yet."
            testId="run-transcript"
          />
          <LogPane
            title="Runner output"
            detail={run.runner ? `${last}${run.runner.step} · ${run.runner.item ?? 'feature'} · ${run.runner.command}` : 'no test run yet'}
            log={run.runnerOutput}
            empty="The orchestrator has not run the tests yet."
            testId="run-runner-output"
          />
        </div>
      )}
    </>
  );
}

/**
 * The panel's frame: a separator on its top edge to resize it, a button to collapse it to its header
 * (both kept for the tab, use-panel-size.ts), and the body, laid out (run.css) so the transcript and
 * the runner output fill the panel's height beside the machines and the Path at any height.
 */
export function RunPanel() {
  const open = useStore((s) => s.runPanelOpen);
  const setOpen = useStore((s) => s.setRunPanelOpen);
  const run = useStore((s) => s.run);
  const runError = useStore((s) => s.runError);
  const setRunError = useStore((s) => s.setRunError);
  const panel = usePanelSize();
  if (!open) return null;
  const condition = conditionOf(run);
  const { collapsed } = panel;
  return (
    <section
      id="run-panel"
      className={collapsed ? 'run-panel run-panel-collapsed' : 'run-panel'}
      style={collapsed ? undefined : { height: panel.height }}
      aria-labelledby="run-panel-title"
      data-testid="run-panel"
      data-collapsed={collapsed}
    >
      {!collapsed && <PanelResizer panel={panel} controls="run-panel" />}
      <header className="run-panel-header">
        <button
          type="button"
          className="button button-quiet run-panel-collapse"
          data-testid="run-panel-collapse"
          aria-expanded={!collapsed}
          aria-controls="run-panel-frame"
          aria-label="Live run details"
          title={collapsed ? 'Expand the panel' : 'Collapse the panel to this header'}
          onClick={() => panel.setCollapsed(!collapsed)}
        >
          <Icon name="chevron" />
        </button>
        <h2 id="run-panel-title">Live run</h2>
        <span data-testid="run-condition" data-condition={condition}>
          <Badge look={CONDITION[condition]} word={CONDITION[condition].word} />
        </span>
        {run.feature && <span className="mono muted">{run.feature}</span>}

        <span className="spacer" />
        <button
          type="button"
          className="button button-quiet"
          aria-label="Close the live run panel"
          title={`Close (${hostModKey()}+J)`}
          onClick={() => setOpen(false)}
        >
          ✕
        </button>
      </header>
      <div id="run-panel-frame" className="run-panel-frame" hidden={collapsed}>
        {!collapsed && (
          <div className="run-panel-body" data-testid="run-panel-body">
            {runError && <ErrorBanner error={runError} title="Run refused" onDismiss={() => setRunError(null)} />}
            <RunBody />
          </div>
        )}
      </div>
    </section>
  );
}

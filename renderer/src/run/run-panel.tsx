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
import { Badge } from '../components/status-badge';
import { useStore } from '../store/store';
import { buildingRows, followedItem } from './building-model';
import { BuildingNow } from './building-now';
import { CycleView } from './cycle-view';
import { LogPane } from './log-pane';
import { MachineStrip } from './machine-strip';
import { RunOutcome } from './run-outcome';
import { RunPath } from './run-path';
import { CONDITION, conditionOf } from './run-words';

const LIFECYCLE_PATH = LIFECYCLE_STATE_NAMES.filter((s) => s !== 'abandoned' && s !== 'escalated');

function RunBody() {
  const run = useStore((s) => s.run);
  const project = useStore((s) => s.project);
  const readOnly = project ? readOnlyReason(project, 'runs') : null;
  const ran = run.runId !== null;
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
      {run.lifecycle && (
        <div className="run-machines">
          <div className="run-lifecycle">
            <h3>{ran ? 'Feature lifecycle' : 'Feature lifecycle (last known)'}</h3>
            <MachineStrip label="Feature lifecycle" states={LIFECYCLE_PATH} current={run.lifecycle} testId="lifecycle-machine" />
          </div>
          <BuildingNow rows={buildingRows(run)} />
          <CycleView items={run.items} current={followedItem(run)} active={run.active} />
        </div>
      )}
      {run.feature && (ran || run.lifecycle) && <RunPath feature={run.feature} />}
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

export function RunPanel() {
  const open = useStore((s) => s.runPanelOpen);
  const setOpen = useStore((s) => s.setRunPanelOpen);
  const run = useStore((s) => s.run);
  const runError = useStore((s) => s.runError);
  const setRunError = useStore((s) => s.setRunError);
  if (!open) return null;
  const condition = conditionOf(run);
  return (
    <section id="run-panel" className="run-panel" aria-labelledby="run-panel-title" data-testid="run-panel">
      <header className="run-panel-header">
        <h2 id="run-panel-title">Live run</h2>
        <span data-testid="run-condition" data-condition={condition}>
          <Badge look={CONDITION[condition]} word={CONDITION[condition].word} />
        </span>
        {run.feature && <span className="mono muted">{run.feature}</span>}

        <span className="spacer" />
        <button type="button" className="button button-quiet" aria-label="Close the live run panel" title="Close (Ctrl+J)" onClick={() => setOpen(false)}>
          ✕
        </button>
      </header>
      <div className="run-panel-body">
        {runError && <ErrorBanner error={runError} title="Run refused" onDismiss={() => setRunError(null)} />}
        <RunBody />
      </div>
    </section>
  );
}

/**
 * The top bar's run controls: the phase word, Run, Stop, and the toggle of the live-run panel
 * (also Ctrl+J, or Cmd+J). A bundle or a Consort project shows none of them: nothing runs there.
 */
import { useEffect } from 'react';
import type { RunElsewhere } from '../../../shared/model';
import { Icon } from '../components/icon';
import { friendlyTime } from '../lib/format';
import { hostModKey } from '../lib/shortcuts';
import { startRun, stopRun } from '../store/run-actions';
import { useStore } from '../store/store';
import { CONDITION, conditionOf, stateWord } from './run-words';

function useTogglePanelShortcut(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'j') {
        event.preventDefault();
        const state = useStore.getState();
        state.setRunPanelOpen(!state.runPanelOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

/** Who runs elsewhere, and what that means here, in words. */
const elsewhereWords = (r: RunElsewhere): string => {
  const who = r.pid !== null ? `pid ${r.pid}${r.host ? ` on ${r.host}` : ''}` : 'another process';
  const since = r.since ? friendlyTime(r.since) : null;
  return (
    `Another Baton run (${who}${since ? `, started ${since.relative}` : ''}) is working on this project: what it does shows here as it is recorded, ` +
    'its live output only where it runs. Stop it there to run here.'
  );
};

export function RunControls() {
  const run = useStore((s) => s.run);
  const runnable = useStore((s) => s.project !== null && s.project.layout === 'baton' && !s.project.readOnly && !s.project.bundle);
  const panelOpen = useStore((s) => s.runPanelOpen);
  const setPanelOpen = useStore((s) => s.setRunPanelOpen);
  const chosen = useStore((s) => s.filters.feature);
  const elsewhere = useStore((s) => s.project?.runElsewhere ?? null);
  useTogglePanelShortcut();

  // A review bundle or a Consort project is read here, never run: no controls that cannot work.
  if (!runnable) return null;
  const condition = conditionOf(run);
  const look = CONDITION[condition];
  const phase = run.lifecycle ? stateWord(run.lifecycle) : null;
  const busy = run.running;
  // Another process (the CLI, another window) holds the run lock: say so, and do not offer a Run it would refuse.
  const other = !busy && elsewhere ? elsewhereWords(elsewhere) : null;
  return (
    <div className="run-controls" role="group" aria-label="Run controls">
      {other && (
        <span className="run-phase run-elsewhere tone-info" data-testid="run-elsewhere" role="status" title={other}>
          <Icon name="clock" /> Running in another process
        </span>
      )}
      <span
        className={`run-phase tone-${look.tone}`}
        data-testid="run-phase"
        data-condition={condition}
        title={`Run ${look.word}${phase ? `; the feature is at ${phase}` : ''}`}
      >
        <Icon name={look.icon} />
        <span className="visually-hidden">Run {look.word}; phase </span>
        <span data-testid="run-phase-word">{phase ?? look.word}</span>
      </span>
      <button
        type="button"
        className="button button-primary"
        data-testid="run-start"
        disabled={busy || other !== null}
        title={other ?? `Run the enforced loop for ${chosen ?? 'the first feature'}, from where it stopped`}
        onClick={() => void startRun()}
      >
        Run
      </button>
      <button type="button" className="button" data-testid="run-stop" disabled={!busy || run.stopping} onClick={() => void stopRun()}>
        {run.stopping ? 'Stopping…' : 'Stop'}
      </button>
      <button
        type="button"
        className="button button-quiet"
        data-testid="run-panel-toggle"
        aria-expanded={panelOpen}
        aria-controls="run-panel"
        aria-keyshortcuts="Control+J Meta+J"
        title={`Show or hide the live run (${hostModKey()}+J)`}
        onClick={() => setPanelOpen(!panelOpen)}
      >
        Live run
      </button>
    </div>
  );
}

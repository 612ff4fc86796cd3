/** Run intents and the live run's pushes. A run that starts opens the bottom panel, wherever it was started. */
import type { Result } from '../../../shared/result';
import { IDLE_RUN } from '../../../shared/run-view';
import { api } from '../../client';
import { useStore } from './store';

let generation = 0;

/** Asks main for the run's state; an answer overtaken by a newer request, or another project, is dropped. */
export async function refreshRunState(): Promise<void> {
  const mine = ++generation;
  const root = useStore.getState().project?.root ?? null;
  const result = await api.invoke('run:state', {});
  if (mine !== generation || root !== (useStore.getState().project?.root ?? null)) return;
  useStore.getState().setRun(result.ok ? result.value : IDLE_RUN);
}

/** Keeps the run's batches in the store, and asks afresh when another project opens; call once at boot. */
export function listenRun(): () => void {
  const offBatches = api.on('run:progressed', ({ seq, events }) => {
    const state = useStore.getState();
    if (!state.applyRunBatch(seq, events)) void refreshRunState();
    if (events.some((e) => e.kind === 'run.requested')) state.setRunPanelOpen(true);
  });
  // Opening a project (at boot, or another one) shows that project's run, or its persisted phase.
  const offProject = useStore.subscribe((state, previous) => {
    if (state.project?.root === previous.project?.root) return;
    state.setRun(IDLE_RUN);
    if (state.project) void refreshRunState();
  });
  return () => {
    offBatches();
    offProject();
  };
}

/** Runs the feature the board is narrowed to, else the project's first (as `baton run` does). */
export async function startRun(): Promise<Result<{ readonly runId: string }>> {
  const state = useStore.getState();
  const feature = state.filters.feature;
  state.setRunError(null);
  state.setRunPanelOpen(true);
  const result = await api.invoke('run:start', feature ? { feature } : {});
  if (!result.ok) useStore.getState().setRunError(result.error);
  return result;
}

export async function stopRun(): Promise<void> {
  useStore.getState().setRunError(null);
  const result = await api.invoke('run:stop', {});
  if (!result.ok) useStore.getState().setRunError(result.error);
}

/**
 * The live run's mirror: replaced whole by `run:state`, and between answers moved on by folding
 * each `run:progressed` batch with the same reducer main uses. Also whether the bottom panel is open.
 */
import type { AppError } from '../../../shared/result';
import type { RunFeedEvent, RunStateView } from '../../../shared/run';
import { foldRunEvents, IDLE_RUN } from '../../../shared/run-view';
import type { SliceCreator } from './store';

/** Lines each streaming pane keeps: enough to scroll back through a turn, few enough to stay fast. */
export const PANE_MAX_LINES = 3000;

export interface RunSlice {
  readonly run: RunStateView;
  readonly runPanelOpen: boolean;
  /** The last refused Run or Stop, shown in the panel until the next try. */
  readonly runError: AppError | null;
  setRun(view: RunStateView): void;
  /** Folds a batch; returns false when batches were missed and the state should be asked for again. */
  applyRunBatch(seq: number, events: readonly RunFeedEvent[]): boolean;
  setRunPanelOpen(open: boolean): void;
  setRunError(error: AppError | null): void;
}

export const createRunSlice: SliceCreator<RunSlice> = (set, get) => ({
  run: IDLE_RUN,
  runPanelOpen: false,
  runError: null,
  setRun: (run) => set({ run }),
  applyRunBatch: (seq, events) => {
    const current = get().run;
    if (seq <= current.seq) return true;
    set({ run: { ...foldRunEvents(current, events, PANE_MAX_LINES), seq } });
    return seq === current.seq + 1;
  },
  setRunPanelOpen: (runPanelOpen) => set({ runPanelOpen }),
  setRunError: (runError) => set({ runError }),
});

/**
 * Folds a run's live events into the RunStateView both sides keep: main (for `run:state`) and the
 * renderer (between `run:progressed` batches). The streaming panes keep only their last lines.
 * Pure.
 */
import type { CycleStateName, RunFeedEvent, RunItemActivity, RunItemState, RunLine, RunLog, RunStateView } from './run';

export const EMPTY_LOG: RunLog = { lines: [], dropped: 0, open: false };

export const IDLE_RUN: RunStateView = {
  seq: 0,
  running: false,
  stopping: false,
  outcome: null,
  runId: null,
  feature: null,
  lifecycle: null,
  items: [],
  currentItem: null,
  active: [],
  activity: {},
  turn: null,
  runner: null,
  waiting: null,
  transcript: EMPTY_LOG,
  runnerOutput: EMPTY_LOG,
  summary: null,
  message: null,
  startedAt: null,
  finishedAt: null,
};

/** A line longer than this is cut: a pane is for following a run, the ledger blob keeps everything. */
export const MAX_LINE_CHARS = 2000;

// Terminal colour and cursor codes from agents and test runners; the panes show plain text.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

const clip = (text: string): string => (text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)} …` : text);

/** Appends streamed text to a log, joining a line the previous chunk left open, keeping the last `max` lines. */
export function appendText(log: RunLog, chunk: string, max: number): RunLog {
  if (!chunk) return log;
  const parts = chunk.replace(ANSI, '').replace(/\r\n?/g, '\n').split('\n');
  const ended = parts.at(-1) === '';
  if (ended) parts.pop();
  const lines = log.lines.slice();
  const last = lines.at(-1);
  let rest = parts;
  if (log.open && last?.kind === 'text') {
    lines[lines.length - 1] = { kind: 'text', text: clip(last.text + (parts[0] ?? '')) };
    rest = parts.slice(1);
  }
  for (const text of rest) lines.push({ kind: 'text', text: clip(text) });
  return cap({ lines, dropped: log.dropped, open: !ended }, max);
}

/** Starts a new section (a turn, a runner call) on its own line. */
export function appendHead(log: RunLog, text: string, max: number): RunLog {
  return cap({ lines: [...log.lines, { kind: 'head', text: clip(text) } satisfies RunLine], dropped: log.dropped, open: false }, max);
}

function cap(log: RunLog, max: number): RunLog {
  const over = log.lines.length - max;
  return over > 0 ? { lines: log.lines.slice(over), dropped: log.dropped + over, open: log.open } : log;
}

function upsertItem(items: readonly RunItemState[], id: string, patch: Partial<RunItemState>): RunItemState[] {
  const index = items.findIndex((i) => i.item === id);
  if (index < 0) return [...items, { item: id, state: 'plan', status: null, ...patch }];
  const next = items.slice();
  next[index] = { ...items[index]!, ...patch };
  return next;
}

const itemLabel = (item: string | null): string => item ?? 'the feature';

/** The cycle states a cycle ends in: its item is no longer being built. */
export const FINAL_CYCLE_STATES: ReadonlySet<CycleStateName> = new Set(['done', 'escalated']);

type Building = Pick<RunStateView, 'active' | 'activity'>;

/**
 * An item enters `active` on its cycle's first state that is not final and leaves it on a final
 * one. A final state of an item never started (a cycle restored already done) leaves the list as is.
 */
function moveActive(state: RunStateView, item: string, cycle: CycleStateName): Building {
  const has = state.active.includes(item);
  const same = { active: state.active, activity: state.activity };
  if (!FINAL_CYCLE_STATES.has(cycle)) return has ? same : { active: [...state.active, item], activity: state.activity };
  if (!has) return same;
  return {
    active: state.active.filter((i) => i !== item),
    activity: Object.fromEntries(Object.entries(state.activity).filter(([id]) => id !== item)),
  };
}

/** Notes what an item being built did last; a turn or test run of no item, or of one not active, is not an item's. */
function noteActivity(state: RunStateView, item: string | null, activity: RunItemActivity): RunStateView['activity'] {
  if (item === null || !state.active.includes(item)) return state.activity;
  return { ...state.activity, [item]: activity };
}

export function foldRunEvent(state: RunStateView, event: RunFeedEvent, maxLines: number): RunStateView {
  switch (event.kind) {
    case 'run.requested':
      // A new run resumes the feature: what is known of its items stays until the run moves them.
      return {
        ...IDLE_RUN,
        seq: state.seq,
        running: true,
        outcome: 'running',
        runId: event.runId,
        feature: event.feature ?? state.feature,
        lifecycle: state.lifecycle,
        items: state.items,
        startedAt: event.at,
      };
    case 'run.started':
      return { ...state, feature: event.feature };
    case 'lifecycle.state':
      return { ...state, feature: event.feature, lifecycle: event.state, waiting: null };
    case 'cycle.state':
      return {
        ...state,
        ...moveActive(state, event.item, event.state),
        items: upsertItem(state.items, event.item, { state: event.state }),
        currentItem: event.item,
      };
    case 'item.status':
      return { ...state, items: upsertItem(state.items, event.item, { status: event.status }) };
    case 'turn.started': {
      const turn = { item: event.item, role: event.role, step: event.step, attempt: event.attempt };
      return {
        ...state,
        turn,
        activity: noteActivity(state, event.item, { kind: 'turn', turn }),
        transcript: appendHead(state.transcript, `${event.role} · ${event.step} · ${itemLabel(event.item)} · attempt ${event.attempt}`, maxLines),
      };
    }
    case 'turn.output':
      return { ...state, transcript: appendText(state.transcript, event.chunk, maxLines) };
    case 'runner.started': {
      const runner = { item: event.item, step: event.step, command: event.command };
      return {
        ...state,
        runner,
        activity: noteActivity(state, event.item, { kind: 'runner', runner }),
        runnerOutput: appendHead(state.runnerOutput, `${event.step} · ${itemLabel(event.item)} · $ ${event.command}`, maxLines),
      };
    }
    case 'runner.output':
      return { ...state, runnerOutput: appendText(state.runnerOutput, event.chunk, maxLines) };
    case 'recorded':
      return state;
    case 'waiting':
      return { ...state, waiting: { gate: event.gate, message: event.message } };
    case 'run.blocked':
      return { ...state, waiting: null };
    case 'run.note':
      return { ...state, transcript: appendHead(state.transcript, event.message, maxLines) };
    case 'run.finished':
      return { ...state, summary: event.summary, lifecycle: event.summary.phase };
    case 'run.stopping':
      return event.runId === state.runId ? { ...state, stopping: true } : state;
    case 'run.ended':
      if (event.runId !== state.runId) return state;
      // Nothing is being built once the run has ended: a cycle it stopped in resumes with the next run.
      return {
        ...state,
        running: false,
        stopping: false,
        outcome: event.outcome,
        message: event.message,
        finishedAt: event.at,
        waiting: null,
        active: [],
        activity: {},
      };
  }
}

export function foldRunEvents(state: RunStateView, events: readonly RunFeedEvent[], maxLines: number): RunStateView {
  let next = state;
  for (const event of events) next = foldRunEvent(next, event, maxLines);
  return next;
}

/** The run's view of one item, for a board card; null when the run knows nothing of it. */
export function runItem(state: RunStateView | null, feature: string, item: string): RunItemState | null {
  if (!state || state.feature !== feature) return null;
  return state.items.find((i) => i.item === item) ?? null;
}

/** Words for the run's states and outcomes, each with an icon and a tone: status is never colour alone. */
import type { RunStateView } from '../../../shared/run';
import type { Look } from '../components/status-badge';

/** `testListGate` → `test list gate`. */
export const stateWord = (name: string): string => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

export type RunCondition = 'idle' | 'running' | 'waiting' | 'stopping' | 'finished' | 'escalated' | 'blocked' | 'stopped' | 'failed';

export const CONDITION: Readonly<Record<RunCondition, Look & { readonly word: string }>> = {
  idle: { icon: 'pending', tone: 'muted', word: 'not running' },
  running: { icon: 'progress', tone: 'info', word: 'running' },
  waiting: { icon: 'clock', tone: 'warning', word: 'waiting for a gate' },
  stopping: { icon: 'clock', tone: 'warning', word: 'stopping' },
  finished: { icon: 'green', tone: 'success', word: 'finished' },
  // Items wait for a person: not a success, not a failure of the run.
  escalated: { icon: 'warning', tone: 'warning', word: 'escalated' },
  // A gate it builds on drifted: nothing more was built.
  blocked: { icon: 'red', tone: 'danger', word: 'blocked' },
  stopped: { icon: 'minus', tone: 'muted', word: 'stopped' },
  failed: { icon: 'red', tone: 'danger', word: 'failed' },
};

export function conditionOf(run: RunStateView): RunCondition {
  if (run.stopping) return 'stopping';
  if (run.running) return run.waiting ? 'waiting' : 'running';
  if (run.outcome === null || run.outcome === 'running') return 'idle';
  return run.outcome;
}

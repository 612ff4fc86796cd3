/** Intents the renderer sends to main. Each returns the Result so a caller can show its error inline. */
import type { Result } from '../../../shared/result';
import type { ProjectView } from '../../../shared/model';
import { api } from '../../client';
import { listenBranchProgress } from './branch-actions';
import { listenRun } from './run-actions';
import { useStore } from './store';

let unsubscribe: (() => void) | null = null;
let unsubscribeBranches: (() => void) | null = null;
let unsubscribeRun: (() => void) | null = null;

/** Subscribes to pushes once, then asks which host answers and which project is open. */
export async function boot(): Promise<void> {
  const state = useStore.getState();
  unsubscribe ??= api.on('project:changed', (view) => useStore.getState().setProject(view));
  unsubscribeBranches ??= listenBranchProgress();
  unsubscribeRun ??= listenRun();
  state.setBoot('loading');
  const [info, current] = await Promise.all([api.invoke('app:info', {}), api.invoke('project:current', {})]);
  state.setAppInfo(info.ok ? info.value : null);
  if (!current.ok) {
    state.setBoot('failed', current.error);
    return;
  }
  state.setProject(current.value);
  state.setBoot('ready');
}

export async function openProject(path: string): Promise<Result<ProjectView>> {
  const result = await api.invoke('project:open', { path });
  if (result.ok) useStore.getState().setProject(result.value);
  return result;
}

export async function reloadProject(): Promise<void> {
  const state = useStore.getState();
  state.setReloading(true);
  state.setActionError(null);
  const result = await api.invoke('project:reload', {});
  state.setReloading(false);
  if (result.ok) state.setProject(result.value);
  else state.setActionError(result.error);
}

export const pickFolder = () => api.invoke('project:pick', {});

export const loadRecent = () => api.invoke('project:recent', {});

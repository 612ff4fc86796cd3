/**
 * Branch intents. Long operations carry a fresh opId so their progress (`branches:progressed`)
 * and a Cancel can find them; each returns the Result so the dialog shows its error inline.
 */
import type { BranchCreated, BranchPairView, PairMigrations, SchemaDiff } from '../../../shared/branches';
import type { Result } from '../../../shared/result';
import { api } from '../../client';
import { useStore } from './store';

let opCount = 0;
/** Operations this page started: progress for anyone else's (another window's) is not kept. */
const ownOps = new Set<string>();

/** Short and unique for this page: a time, a counter and a random tail (letters, digits, dashes). */
export function newOpId(): string {
  opCount += 1;
  return `${Date.now().toString(36)}-${opCount.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

let generation = 0;

/** Asks for the provider's status (never starts it), for the top bar. */
export async function refreshBranchStatus(): Promise<void> {
  const root = currentRoot();
  const result = await api.invoke('branches:status', {});
  if (root === currentRoot()) useStore.getState().setBranchStatus(result.ok ? result.value : null);
}

const currentRoot = () => useStore.getState().project?.root ?? null;

/** Re-reads the tree; an answer overtaken by a newer request, or by another project, is dropped. */
export async function refreshBranches(): Promise<void> {
  const mine = ++generation;
  const root = currentRoot();
  useStore.getState().setBranchListLoading(true);
  const result = await api.invoke('branches:list', {});
  if (mine !== generation || root !== currentRoot()) return;
  useStore.getState().setBranchList(result.ok ? { list: result.value } : { error: result.error });
  // Listing opens the provider: the top bar's state changes with it.
  void refreshBranchStatus();
}

/**
 * Re-reads the tree for the run panel's Path. A run makes and removes pairs in main, outside this
 * page's create, delete and reset: when the pairs found are not the ones the last migration check
 * answered for (every pair with both halves), that answer is let go, as after a create or delete.
 */
export async function refreshBranchesForRun(): Promise<void> {
  await refreshBranches();
  const { branchList, branchMigrations, setBranchMigrations } = useStore.getState();
  if (!branchList || !branchMigrations) return;
  const checkable = branchList.pairs.filter((p) => p.database && p.gitBranch).map((p) => p.name);
  const same = checkable.length === branchMigrations.size && checkable.every((name) => branchMigrations.has(name));
  if (!same) setBranchMigrations(null);
}

/** Keeps this page's progress events in the store; call once at boot. */
export function listenBranchProgress(): () => void {
  return api.on('branches:progressed', ({ opId, event }) => {
    if (ownOps.has(opId)) useStore.getState().addBranchProgress(opId, event);
  });
}

/** The steps an operation reported stay until its dialog lets go of them. */
export function forgetProgress(opId: string): void {
  ownOps.delete(opId);
  useStore.getState().clearBranchProgress(opId);
}

/** Bumped by every create, delete and reset: a migration check that overlapped one may be stale. */
let changes = 0;

async function tracked<T>(opId: string, call: () => Promise<Result<T>>, refresh: boolean): Promise<Result<T>> {
  ownOps.add(opId);
  if (refresh) changes += 1;
  const result = await call();
  if (refresh) {
    changes += 1;
    // The pairs changed: the last migration check may no longer hold.
    useStore.getState().setBranchMigrations(null);
    void refreshBranches();
  }
  return result;
}

export const createBranch = (opId: string, gitBranch: string, parent: string | null): Promise<Result<BranchCreated>> =>
  tracked(opId, () => api.invoke('branches:create', { opId, gitBranch, ...(parent ? { parent } : {}) }), true);

export const deleteBranch = (opId: string, name: string): Promise<Result<{ readonly name: string }>> =>
  tracked(opId, () => api.invoke('branches:delete', { opId, name }), true);

export const resetBranch = (opId: string, name: string): Promise<Result<BranchPairView>> =>
  tracked(opId, () => api.invoke('branches:reset', { opId, name }), true);

export const diffBranch = (opId: string, name: string): Promise<Result<SchemaDiff>> => tracked(opId, () => api.invoke('branches:diff', { opId, name }), false);

/**
 * Every pair's database against its code's migrations (asked for, never polled: it connects to
 * every database). A success replaces the shown answer; a failure keeps it. An answer overtaken by
 * a create, delete or reset, or by another project, is not shown.
 */
export async function checkMigrations(opId: string): Promise<Result<readonly PairMigrations[]>> {
  const root = currentRoot();
  const before = changes;
  const result = await tracked(opId, () => api.invoke('branches:migrations', { opId }), false);
  if (result.ok && before === changes && root === currentRoot()) useStore.getState().setBranchMigrations(result.value);
  return result;
}

export const cancelBranchOp = (opId: string) => api.invoke('branches:cancel', { opId });

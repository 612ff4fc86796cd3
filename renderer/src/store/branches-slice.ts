/**
 * The Branch tree's mirror of main: the provider's status, the last list (or why it failed), the
 * opened row, the collapsed rows, the progress of running operations by opId, and the last
 * migration check (asked for, never polled).
 */
import type { BranchListView, BranchProgress, PairMigrations } from '../../../shared/branches';
import type { BranchStatusView } from '../../../shared/contract';
import type { AppError } from '../../../shared/result';
import type { SliceCreator } from './store';

export interface BranchesSlice {
  readonly branchStatus: BranchStatusView | null;
  readonly branchList: BranchListView | null;
  readonly branchListError: AppError | null;
  /** True while a list is on its way (the first one opens the provider, which can take seconds). */
  readonly branchListLoading: boolean;
  /** The pair whose schema diff is open beside the tree. */
  readonly branchSelected: string | null;
  readonly branchCollapsed: ReadonlySet<string>;
  readonly branchProgress: Readonly<Record<string, readonly BranchProgress[]>>;
  /** The last "Check migrations" answer, by pair name; null before one, and after a create, delete or reset (it may be stale). */
  readonly branchMigrations: ReadonlyMap<string, PairMigrations> | null;
  setBranchStatus(status: BranchStatusView | null): void;
  setBranchListLoading(loading: boolean): void;
  setBranchList(result: { list: BranchListView } | { error: AppError }): void;
  selectBranch(name: string | null): void;
  toggleBranchCollapsed(name: string, collapsed: boolean): void;
  addBranchProgress(opId: string, event: BranchProgress): void;
  clearBranchProgress(opId: string): void;
  setBranchMigrations(migrations: readonly PairMigrations[] | null): void;
}

/** The state of a project whose branches were never asked for (fresh objects each time). */
export const BRANCHES_INITIAL = () => ({
  branchStatus: null,
  branchList: null,
  branchListError: null,
  branchListLoading: false,
  branchSelected: null,
  branchCollapsed: new Set<string>(),
  branchProgress: {},
  branchMigrations: null,
});

export const createBranchesSlice: SliceCreator<BranchesSlice> = (set) => ({
  ...BRANCHES_INITIAL(),
  setBranchStatus: (branchStatus) => set({ branchStatus }),
  setBranchListLoading: (branchListLoading) => set({ branchListLoading }),
  setBranchList: (result) =>
    set((state) => {
      if ('error' in result) return { branchListError: result.error, branchListLoading: false };
      // A selection that no longer exists (deleted elsewhere) closes its diff.
      const stillThere = result.list.pairs.some((p) => p.name === state.branchSelected);
      return { branchList: result.list, branchListError: null, branchListLoading: false, branchSelected: stillThere ? state.branchSelected : null };
    }),
  selectBranch: (branchSelected) => set({ branchSelected }),
  toggleBranchCollapsed: (name, collapsed) =>
    set((state) => {
      const next = new Set(state.branchCollapsed);
      if (collapsed) next.add(name);
      else next.delete(name);
      return { branchCollapsed: next };
    }),
  addBranchProgress: (opId, event) => set((state) => ({ branchProgress: { ...state.branchProgress, [opId]: [...(state.branchProgress[opId] ?? []), event] } })),
  clearBranchProgress: (opId) =>
    set((state) => {
      const next = { ...state.branchProgress };
      delete next[opId];
      return { branchProgress: next };
    }),
  setBranchMigrations: (migrations) => set({ branchMigrations: migrations ? new Map(migrations.map((m) => [m.name, m])) : null }),
});

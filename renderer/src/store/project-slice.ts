/** The mirror of main's ProjectView: replaced whole on every push, never edited here. */
import type { ProjectView } from '../../../shared/model';
import { findItem, NO_FILTERS, reconcileFilters } from '../lib/board-model';
import { BRANCHES_INITIAL } from './branches-slice';
import type { SliceCreator } from './store';

export interface ProjectSlice {
  readonly project: ProjectView | null;
  setProject(view: ProjectView | null): void;
}

export const createProjectSlice: SliceCreator<ProjectSlice> = (set) => ({
  project: null,
  setProject: (view) =>
    set((state) => {
      if (!view) return { project: null, selected: null, filters: NO_FILTERS, ...BRANCHES_INITIAL() };
      const sameProject = state.project?.root === view.root;
      // A re-read keeps what the person was looking at, as far as it still exists.
      return {
        project: view,
        showOpen: false,
        filters: sameProject ? reconcileFilters(view.features, state.filters) : NO_FILTERS,
        selected: sameProject && findItem(view.features, state.selected) ? state.selected : null,
        // Branches shown belong to the project they were listed for; so do a notice and a feature draft.
        ...(sameProject ? {} : { ...BRANCHES_INITIAL(), notice: null, specsFocus: null, featureDraft: null }),
      };
    }),
});

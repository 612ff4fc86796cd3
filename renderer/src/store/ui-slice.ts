/** What the person is looking at: the screen, the board's filters, the open card. */
import { NO_FILTERS, type BoardFilters, type ItemRef } from '../lib/board-model';
import type { SliceCreator } from './store';

export const SCREENS = ['board', 'specs', 'gates', 'problems'] as const;
export type Screen = (typeof SCREENS)[number];

export interface UiSlice {
  readonly screen: Screen;
  /** True while the Open screen is shown over an open project ("Open another…"). */
  readonly showOpen: boolean;
  readonly filters: BoardFilters;
  readonly selected: ItemRef | null;
  setScreen(screen: Screen): void;
  setShowOpen(show: boolean): void;
  setFilters(patch: Partial<BoardFilters>): void;
  select(ref: ItemRef | null): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  screen: 'board',
  showOpen: false,
  filters: NO_FILTERS,
  selected: null,
  setScreen: (screen) => set({ screen }),
  setShowOpen: (showOpen) => set({ showOpen }),
  setFilters: (patch) =>
    set((state) => {
      const next = { ...state.filters, ...patch };
      // Stories belong to one feature: changing the feature clears the story.
      if ('feature' in patch && patch.feature !== state.filters.feature) next.story = null;
      return { filters: next };
    }),
  select: (selected) => set({ selected }),
});

/** What the person is looking at: the screen, the board's filters, the open card, the open gate. */
import { NO_FILTERS, type BoardFilters, type ItemRef } from '../lib/board-model';
import type { DrawerTab } from '../lib/commands';
import type { FeatureDraft } from '../lib/feature-draft';
import type { GateRef } from '../lib/gate-ref';
import type { InboxRef } from '../lib/inbox-model';
import type { SliceCreator } from './store';

export const SCREENS = ['board', 'specs', 'inbox', 'gates', 'branches', 'evidence', 'metrics', 'problems', 'settings', 'diff'] as const;
export type Screen = (typeof SCREENS)[number];

export type DiffMode = 'unified' | 'split';

export interface UiSlice {
  readonly screen: Screen;
  /** True while the Open screen is shown over an open project ("Open another…"). */
  readonly showOpen: boolean;
  readonly filters: BoardFilters;
  readonly selected: ItemRef | null;
  /** The gate or escalation whose evidence the inbox shows. */
  readonly inboxSelected: InboxRef | null;
  /** The gate the diff screen compares (from `#/diff/<feature>/<gate>[/<story>]`). */
  readonly diffTarget: GateRef | null;
  /** How diffs are laid out, everywhere: one column or old beside new. */
  readonly diffMode: DiffMode;
  /** The ledger record the Evidence screen opens (from `#/evidence/<seq>`), or null. */
  readonly evidenceRecord: number | null;
  /** True while the New feature dialog is open. */
  readonly newFeatureOpen: boolean;
  /** What was typed into the New feature dialog and not sent yet: kept when it closes, so nothing is lost. */
  readonly featureDraft: FeatureDraft | null;
  /** A sentence saying what just happened (a feature created), shown over the screen until dismissed. */
  readonly notice: string | null;
  /** The feature the Specs screen selects (the one just created), or null. */
  readonly specsFocus: string | null;
  /** The item drawer's tab (the palette's "Open evidence of T3" opens it on Evidence). */
  readonly drawerTab: DrawerTab;
  /** The command palette (Ctrl/Cmd+K) and the shortcuts overlay (`?`): open or not. */
  readonly paletteOpen: boolean;
  readonly shortcutsOpen: boolean;
  setScreen(screen: Screen): void;
  setEvidenceRecord(seq: number | null): void;
  setDiffTarget(ref: GateRef | null): void;
  setDiffMode(mode: DiffMode): void;
  setShowOpen(show: boolean): void;
  setFilters(patch: Partial<BoardFilters>): void;
  select(ref: ItemRef | null): void;
  selectInbox(ref: InboxRef | null): void;
  setNewFeatureOpen(open: boolean): void;
  setFeatureDraft(draft: FeatureDraft | null): void;
  setNotice(notice: string | null): void;
  setSpecsFocus(feature: string | null): void;
  setDrawerTab(tab: DrawerTab): void;
  setPaletteOpen(open: boolean): void;
  setShortcutsOpen(open: boolean): void;
}

export const createUiSlice: SliceCreator<UiSlice> = (set) => ({
  screen: 'board',
  showOpen: false,
  filters: NO_FILTERS,
  selected: null,
  inboxSelected: null,
  diffTarget: null,
  diffMode: 'unified',
  evidenceRecord: null,
  newFeatureOpen: false,
  featureDraft: null,
  notice: null,
  specsFocus: null,
  drawerTab: 'ac',
  paletteOpen: false,
  shortcutsOpen: false,
  setScreen: (screen) => set({ screen }),
  setEvidenceRecord: (evidenceRecord) => set({ evidenceRecord }),
  setDiffTarget: (diffTarget) => set({ diffTarget }),
  setDiffMode: (diffMode) => set({ diffMode }),
  setShowOpen: (showOpen) => set({ showOpen }),
  setFilters: (patch) =>
    set((state) => {
      const next = { ...state.filters, ...patch };
      // Stories belong to one feature: changing the feature clears the story.
      if ('feature' in patch && patch.feature !== state.filters.feature) next.story = null;
      return { filters: next };
    }),
  // Each item opens on its AC tab, as before the palette could open one on another tab (command-actions.ts sets it after).
  select: (selected) => set({ selected, drawerTab: 'ac' }),
  selectInbox: (inboxSelected) => set({ inboxSelected }),
  setNewFeatureOpen: (newFeatureOpen) => set({ newFeatureOpen }),
  setFeatureDraft: (featureDraft) => set({ featureDraft }),
  setNotice: (notice) => set({ notice }),
  setSpecsFocus: (specsFocus) => set({ specsFocus }),
  setDrawerTab: (drawerTab) => set({ drawerTab }),
  setPaletteOpen: (paletteOpen) => set({ paletteOpen }),
  setShortcutsOpen: (shortcutsOpen) => set({ shortcutsOpen }),
});

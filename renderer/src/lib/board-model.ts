/** Pure board logic: which cards pass the filters and how they group into status columns. */
import { itemCounts, type CycleCounts } from '../../../shared/cycle-counts';
import { TEST_STATUSES, type Feature, type TestItem, type TestKind, type TestStatus } from '../../../shared/model';

export type KindFilter = 'all' | TestKind | 'unspecified';
export const KIND_FILTERS: readonly KindFilter[] = ['all', 'behavior', 'fitness', 'client', 'unspecified'];

export interface BoardFilters {
  /** A feature id, or null for all features. */
  readonly feature: string | null;
  /** A story id within the chosen feature, or null for all stories. */
  readonly story: string | null;
  readonly kind: KindFilter;
}

export const NO_FILTERS: BoardFilters = { feature: null, story: null, kind: 'all' };

/** Test-list item ids are unique per feature only, so a card is addressed by both. */
export interface ItemRef {
  readonly featureId: string;
  readonly itemId: string;
}

/** What a card warns about its feature's gates: one modest badge, the most serious first. */
export type GateNotice = 'drifted' | 'test-list-unapproved' | null;

export interface BoardCard {
  readonly featureId: string;
  readonly featureName: string;
  readonly item: TestItem;
  readonly gateNotice: GateNotice;
  /** Its repairs, violations, … over all its rounds, from the ledger (shared/cycle-counts.ts); null when not recorded. */
  readonly counts: CycleCounts | null;
}

export function gateNoticeOf(feature: Feature): GateNotice {
  if (feature.gates.some((g) => g.status === 'drifted')) return 'drifted';
  const testList = feature.gates.find((g) => g.name === 'test_list' && g.story === null);
  return testList?.status === 'approved' ? null : 'test-list-unapproved';
}

export type Columns = Readonly<Record<TestStatus, readonly BoardCard[]>>;

const kindMatches = (kind: TestKind | null, filter: KindFilter): boolean => filter === 'all' || (filter === 'unspecified' ? kind === null : kind === filter);

export function filterCards(features: readonly Feature[], filters: BoardFilters): BoardCard[] {
  const cards: BoardCard[] = [];
  for (const feature of features) {
    if (filters.feature !== null && feature.id !== filters.feature) continue;
    const gateNotice = gateNoticeOf(feature);
    for (const item of feature.testList) {
      if (filters.story !== null && item.storyId !== filters.story) continue;
      if (!kindMatches(item.kind, filters.kind)) continue;
      cards.push({ featureId: feature.id, featureName: feature.name, item, gateNotice, counts: itemCounts(feature.cycleRuns, item) });
    }
  }
  return cards;
}

export function groupByStatus(cards: readonly BoardCard[]): Columns {
  const columns = Object.fromEntries(TEST_STATUSES.map((status) => [status, [] as BoardCard[]])) as Record<TestStatus, BoardCard[]>;
  for (const card of cards) columns[card.item.status]?.push(card);
  return columns;
}

export const countItems = (features: readonly Feature[]): number => features.reduce((total, feature) => total + feature.testList.length, 0);

export const isFiltered = (filters: BoardFilters): boolean => filters.feature !== null || filters.story !== null || filters.kind !== 'all';

/** Keeps filters that still make sense after the project changed; drops the rest. */
export function reconcileFilters(features: readonly Feature[], filters: BoardFilters): BoardFilters {
  const feature = features.find((f) => f.id === filters.feature);
  if (!feature) return { ...filters, feature: null, story: null };
  const story = feature.stories.some((s) => s.id === filters.story) ? filters.story : null;
  return { ...filters, story };
}

export function findItem(features: readonly Feature[], ref: ItemRef | null) {
  if (!ref) return null;
  const feature = features.find((f) => f.id === ref.featureId);
  const item = feature?.testList.find((i) => i.id === ref.itemId);
  return feature && item ? { feature, item } : null;
}

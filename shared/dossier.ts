/**
 * The story dossier (issue 35, part 7): a feature's evidence grouped story → item → cycle as a
 * timeline a reviewer reads without JSON. Each ledger record of the feature is one entry
 * (shared/dossier-words.ts says it in words) placed where its subject says: a cycle's records under
 * their cycle, an item's other records under the item, a story's (its acceptance decisions, its
 * merge) under the story, and the rest (the spec, design and test-list gates, the verification,
 * the deploy) under the feature. The per-item and per-story figures are shared/metrics.ts's, never
 * counted again here. Pure: the Evidence screen, `baton dossier` and the bundle all build it here.
 */
import type { LedgerRecord } from './ledger';
import { featureMetrics, type ItemMetrics, type StoryMetrics, type Totals } from './metrics';
import { dossierEntry, type DossierEntry } from './dossier-words';

export type { DossierEntry, DossierRun, Tone } from './dossier-words';

export interface DossierCycle {
  /** The cycle id as the orchestrator names it (`F-1/T3`, `F-1/T3#2`). */
  readonly cycle: string;
  /** 1 for an item's first round, 2 for its retry, … */
  readonly round: number;
  readonly entries: readonly DossierEntry[];
}

export interface DossierItem {
  readonly id: string;
  readonly description: string;
  readonly acId: string;
  readonly status: string | null;
  readonly cycles: readonly DossierCycle[];
  /** Its records outside any cycle (an amendment proposed, tells allowed). */
  readonly entries: readonly DossierEntry[];
  readonly metrics: ItemMetrics | null;
}

export interface DossierStory {
  /** Null: the items no story claims. */
  readonly id: string | null;
  readonly title: string;
  readonly items: readonly DossierItem[];
  /** The story's own records: acceptance decisions, the merge or the discard. */
  readonly entries: readonly DossierEntry[];
  readonly metrics: StoryMetrics | null;
}

export interface DossierFeature {
  readonly id: string;
  readonly name: string;
  /** The feature's own records: the request, design turns, gate decisions, verification, deploy, promotion. */
  readonly entries: readonly DossierEntry[];
  readonly stories: readonly DossierStory[];
  readonly totals: Totals;
  /** Every record of the feature the dossier shows (each exactly once). */
  readonly records: number;
}

export interface Dossier {
  readonly project: string;
  readonly features: readonly DossierFeature[];
}

/** What the dossier needs of a feature: the project view's stories and test list (shared/model.ts). */
export interface DossierOutline {
  readonly id: string;
  readonly name: string;
  readonly stories: readonly { readonly id: string; readonly title: string }[];
  readonly testList: readonly {
    readonly id: string;
    readonly description: string;
    readonly acId: string;
    readonly storyId: string | null;
    readonly status?: string;
  }[];
}

/** `F-1/T3#2` → 2; a cycle without a round suffix is round 1. */
const roundOf = (cycle: string): number => {
  const match = /#(\d+)$/.exec(cycle);
  return match ? Number(match[1]) : 1;
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function itemOf(
  id: string,
  outline: DossierOutline['testList'][number] | undefined,
  records: readonly LedgerRecord[],
  metrics: ItemMetrics | null,
): DossierItem {
  const cycles = new Map<string, DossierEntry[]>();
  const entries: DossierEntry[] = [];
  for (const r of records) {
    if (r.subject.cycle === undefined) entries.push(dossierEntry(r));
    else push(cycles, r.subject.cycle, dossierEntry(r));
  }
  return {
    id,
    description: outline?.description ?? '',
    acId: outline?.acId ?? '',
    status: metrics?.status ?? outline?.status ?? null,
    cycles: [...cycles].map(([cycle, mine]) => ({ cycle, round: roundOf(cycle), entries: mine })),
    entries,
    metrics,
  };
}

export function featureDossier(records: readonly LedgerRecord[], feature: DossierOutline): DossierFeature {
  const mine = records.filter((r) => r.subject.feature === feature.id);
  const metrics = featureMetrics(records, { id: feature.id, testList: feature.testList });
  const listed = new Map(feature.testList.map((t) => [t.id, t]));
  // An item's records (any round); a story's own records; the feature's.
  const byItem = new Map<string, LedgerRecord[]>(feature.testList.map((t) => [t.id, []]));
  const byStory = new Map<string, LedgerRecord[]>();
  const own: DossierEntry[] = [];
  for (const r of mine) {
    if (r.subject.item !== undefined) push(byItem, r.subject.item, r);
    else if (r.subject.story !== undefined) push(byStory, r.subject.story, r);
    else own.push(dossierEntry(r));
  }
  const itemStory = (id: string): string | null => listed.get(id)?.storyId ?? byItem.get(id)?.find((r) => r.subject.story !== undefined)?.subject.story ?? null;
  // Stories in the spec's order, then any the ledger names that the spec no longer does.
  const storyIds: (string | null)[] = [...feature.stories.map((s) => s.id)];
  for (const id of [...byItem.keys()].map(itemStory).concat([...byStory.keys()])) if (!storyIds.includes(id)) storyIds.push(id);
  const stories = storyIds.map((id): DossierStory => {
    const items = [...byItem]
      .filter(([item]) => itemStory(item) === id)
      .map(([item, recs]) => itemOf(item, listed.get(item), recs, metrics.items.find((m) => m.item === item) ?? null));
    return {
      id,
      title: id === null ? 'Items no story claims' : (feature.stories.find((s) => s.id === id)?.title ?? ''),
      items,
      entries: id === null ? [] : (byStory.get(id) ?? []).map(dossierEntry),
      metrics: metrics.stories.find((s) => s.story === id) ?? null,
    };
  });
  return {
    id: feature.id,
    name: feature.name,
    entries: own,
    // A story-less group with nothing in it says nothing.
    stories: stories.filter((s) => s.id !== null || s.items.length > 0),
    totals: metrics.totals,
    records: mine.length,
  };
}

/** Every feature's dossier (or the one asked for), in the project's order. */
export function projectDossier(project: string, records: readonly LedgerRecord[], features: readonly DossierOutline[]): Dossier {
  return { project, features: features.map((f) => featureDossier(records, f)) };
}

/**
 * test-list.json: the ordered tests of a feature, `{items: [...]}` or a bare array, grouped for
 * reading by story, then by acceptance criterion. Within a group the file's order is kept, because
 * the order is the plan.
 */
import { isObject, Leftovers, ObjectReader, readList, type Read } from './read';

export interface TestListItem {
  readonly id: string | null;
  readonly description: string | null;
  readonly acId: string | null;
  readonly kind: string | null;
  readonly status: string | null;
  /** As the file says it; the grouping may also find it from the spec (see SpecIndex). */
  readonly story: string | null;
  readonly invariant: string | null;
}

export interface TestListDoc {
  readonly feature: string | null;
  readonly items: readonly TestListItem[];
}

const readItem = (r: ObjectReader): TestListItem => ({
  id: r.text('id', 'test_id', 'testId'),
  description: r.text('description', 'title', 'name'),
  acId: r.text('ac_id', 'acId', 'ac'),
  kind: r.text('kind'),
  status: r.text('status'),
  story: r.text('story', 'story_id', 'storyId'),
  invariant: r.text('invariant', 'invariant_id', 'invariantId'),
});

export function readTestList(value: unknown): Read<TestListDoc> | null {
  const left = new Leftovers();
  if (Array.isArray(value)) return { doc: { feature: null, items: readList(value, 'items[]', left, { object: readItem }) }, others: left.list() };
  if (!isObject(value)) return null;
  const reader = new ObjectReader(value, '', left);
  const items = reader.list(['items', 'tests'], { object: readItem });
  if (items === null) return null;
  const feature = reader.text('feature_id', 'featureId', 'feature');
  reader.done();
  return { doc: { feature, items }, others: left.list() };
}

/** What the project's spec says about ACs: which story each belongs to, and titles to show. */
export interface SpecIndex {
  readonly storyOfAc: ReadonlyMap<string, string>;
  readonly storyTitles: ReadonlyMap<string, string>;
  readonly acTitles: ReadonlyMap<string, string>;
}

export interface AcGroup {
  /** null: items with no acceptance criterion. */
  readonly acId: string | null;
  readonly items: readonly TestListItem[];
}

export interface StoryGroup {
  /** null: items whose story neither the file nor the spec names. */
  readonly storyId: string | null;
  readonly acs: readonly AcGroup[];
}

const blankToNull = (text: string | null): string | null => (text !== null && text.trim() !== '' ? text : null);

/**
 * Groups by story (the item's own `story`, else the story its AC belongs to in the spec), then by
 * AC, each in order of first appearance; "no story" and "no AC" groups come last.
 */
export function groupTestList(items: readonly TestListItem[], spec?: SpecIndex): StoryGroup[] {
  const stories = new Map<string | null, Map<string | null, TestListItem[]>>();
  for (const item of items) {
    const acId = blankToNull(item.acId);
    const storyId = blankToNull(item.story) ?? (acId !== null ? (spec?.storyOfAc.get(acId) ?? null) : null);
    const acs = stories.get(storyId) ?? new Map<string | null, TestListItem[]>();
    stories.set(storyId, acs);
    acs.set(acId, [...(acs.get(acId) ?? []), item]);
  }
  const lastIfNull = <K>(entries: [K | null, unknown][]) => [...entries.filter(([k]) => k !== null), ...entries.filter(([k]) => k === null)];
  return lastIfNull([...stories.entries()]).map(([storyId]) => {
    const acs = stories.get(storyId)!;
    return { storyId, acs: lastIfNull([...acs.entries()]).map(([acId]) => ({ acId, items: acs.get(acId)! })) };
  });
}

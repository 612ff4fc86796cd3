/**
 * Build lanes (issue 17): which stories may be built at the same time. A lane is a set of stories
 * built one after another, each stacked on the one before it (story-experiments.ts); different
 * lanes share nothing until acceptance merges them, so they are built in parallel.
 *
 * Independence is what the PO approved at the spec gate, as story.json declares it:
 * - `independent: true` — the story needs no other story: it joins a lane only through a story
 *   that depends on it.
 * - `depends_on: [...]` — the story joins the lane of each story it names.
 * - anything else (a hand-written story that says nothing, `independent: false` naming no story,
 *   the items of no story) — the story depends on every story before it, as every story did
 *   before lanes existed.
 * Lanes are the connected stories: a story depending on two stories puts all three in one lane,
 * so it stacks on both. Pure.
 */

export interface LaneStory {
  readonly id: string;
  /** As declared in story.json; null when it says nothing. */
  readonly independent: boolean | null;
  readonly dependsOn: readonly string[];
}

/** The stories of `order` (the build order) grouped into lanes, each in build order; lanes ordered by their first story. */
export function buildLanes(order: readonly string[], declared: readonly LaneStory[]): string[][] {
  const byId = new Map(declared.map((story) => [story.id, story]));
  const parent = new Map(order.map((id) => [id, id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  const join = (a: string, b: string): void => {
    const [ra, rb] = [find(a), find(b)];
    // The root is the story that comes first: lanes keep build order.
    if (ra === rb) return;
    if (order.indexOf(ra) < order.indexOf(rb)) parent.set(rb, ra);
    else parent.set(ra, rb);
  };
  order.forEach((id, index) => {
    const story = byId.get(id);
    const named = (story?.dependsOn ?? []).filter((dep) => dep !== id && parent.has(dep));
    if (named.length > 0) for (const dep of named) join(id, dep);
    else if (story?.independent !== true) for (const earlier of order.slice(0, index)) join(id, earlier);
  });
  const lanes = new Map<string, string[]>();
  for (const id of order) {
    const root = find(id);
    lanes.set(root, [...(lanes.get(root) ?? []), id]);
  }
  return [...lanes.values()];
}

/** The stories `story` may stack on: those before it in its lane, nearest last. */
export function stackableFor(lanes: readonly (readonly string[])[], story: string): string[] {
  const lane = lanes.find((l) => l.includes(story)) ?? [];
  return lane.slice(0, Math.max(0, lane.indexOf(story)));
}

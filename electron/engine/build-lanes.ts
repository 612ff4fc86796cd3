/**
 * A run's lanes (lanes.ts), from the stories its items belong to and what each story.json declares,
 * read again whenever the test list or the stories may have moved; the per-lane run sites; and the
 * baselines RED is judged against, kept per story and per lane.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestItem } from '../../shared/model';
import { conformanceInput } from '../gates/conformance';
import { featureFolder, storyFolders } from '../gates/locate';
import type { JudgedReport } from '../orchestrator/judge';
import { readProject } from '../project';
import type { ProjectSettings } from '../project/settings';
import type { RunSite } from '../runner/controlled-run';
import type { CycleDeps } from './cycle-deps';
import { buildLanes, stackableFor, type LaneStory } from './lanes';
import type { StateStore } from './state-store';

/** The feature's stories in the order their items are built (items of no story build as `unassigned`). */
export const storyOrder = (items: readonly TestItem[]): string[] => [...new Set(items.map((item) => item.storyId ?? 'unassigned'))];

/** Lanes built at once: `parallel` in project.json, else the machine's cores. */
export const parallelOf = (settings: ProjectSettings): number => settings.parallel ?? availableParallelism();

/** Slot 0 runs tests where runs always did; slot n > 0 in a folder of its own beside it. */
export const laneSite =
  (dataDir: string) =>
  (slot: number): RunSite =>
    slot === 0
      ? { dir: join(dataDir, 'run', 'tree'), scratch: join(dataDir, 'run', 'scratch') }
      : { dir: join(dataDir, 'run', `lane-${slot}`, 'tree'), scratch: join(dataDir, 'run', `lane-${slot}`, 'scratch') };

/** What each story of the feature declares in its story.json (nothing for a story without one, or a Consort project's). */
async function declaredStories(root: string, feature: string): Promise<readonly LaneStory[]> {
  const read = await readProject(root);
  const found = read.ok ? read.value.features.find((f) => f.id === feature) : undefined;
  const dir = found ? await featureFolder(join(root, '.baton'), feature) : null;
  if (!found || !dir) return [];
  return (await conformanceInput(found, dir, await storyFolders(dir))).stories;
}

export interface RunLanes {
  /** The lanes as the items and story.json files stood at the last `refresh` (the first call reads them). */
  lanes(): Promise<string[][]>;
  /** Reads them again: when a build starts (the stories and the test list are frozen by their gates while it runs). */
  refresh(): Promise<string[][]>;
  /** The stories `story` may stack on, nearest last. */
  stackable(story: string): Promise<string[]>;
}

export function runLanes(root: string, feature: string, items: () => Promise<readonly TestItem[]>): RunLanes {
  let known: Promise<string[][]> | null = null;
  const refresh = () => {
    known = (async () => buildLanes(storyOrder(await items()), await declaredStories(root, feature)))();
    known.catch(() => (known = null));
    return known;
  };
  const lanes = () => known ?? refresh();
  return { lanes, refresh, stackable: async (story) => stackableFor(await lanes(), story) };
}

const FEATURE_BASELINE = 'baseline-feature';

/**
 * RED is judged against the last accepted run of the code it builds on: the story's own, else the
 * last one in its lane (the story before it, which it stacks on), else the feature's as the build
 * found it (`start` keeps it) — never another lane's, whose tests are not on this story's branch.
 */
export function baselineStore(store: StateStore, lanes: RunLanes): CycleDeps['baseline'] & { start(): Promise<void> } {
  const laneKey = async (story: string) => `baseline-lane-${(await lanes.lanes()).find((l) => l.includes(story))?.[0] ?? story}`;
  return {
    start: async () => {
      if ((await store.read(FEATURE_BASELINE)) === null) await store.write(FEATURE_BASELINE, (await store.read<JudgedReport>('baseline')) ?? { cases: [] });
    },
    get: async (story) =>
      (await store.read<JudgedReport>(`baseline-${story}`)) ??
      (await store.read<JudgedReport>(await laneKey(story))) ??
      (await store.read<JudgedReport>(FEATURE_BASELINE)) ??
      (await store.read<JudgedReport>('baseline')) ?? { cases: [] },
    set: async (story, report) => {
      await store.write(`baseline-${story}`, report);
      await store.write(await laneKey(story), report);
      await store.write('baseline', report);
    },
  };
}

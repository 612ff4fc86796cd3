/** One feature folder: `features/<F>/` plus its cycle records under `cycles/<F>/`. */
import path from 'node:path';
import type { Feature, Gate, Layout, Story } from '../../shared/model';
import { isObject, pickString, pickText, shapeOf, type JsonObject } from './fields';
import { cyclesDir, readCycles } from './read-cycles';
import { checkShape, readJson, report, type ReadContext } from './read-context';
import { readGatesFile } from './read-gates';
import { readPipeline } from './read-pipeline';
import { readStories } from './read-stories';
import { readTestList } from './read-test-list';

/**
 * Artifacts Baton shows nothing of yet but still checks, so a broken one is reported where the
 * user will look instead of surprising a later step.
 */
const VALIDATED_ONLY = ['architecture.json', 'db-design.json', 'deploy-evidence.json'] as const;

/** A feature before sprint gates (which live outside its folder) are added. */
export interface FeatureRead {
  readonly feature: Feature;
  /** The folder name, which is also how `cycles/` and sprint files may refer to it. */
  readonly folder: string;
}

const readSpec = async (ctx: ReadContext, featureDir: string, layout: Layout): Promise<JsonObject> => {
  const specFile = path.join(featureDir, 'feature-spec.json');
  let read = await readJson(ctx, specFile);
  let file = specFile;
  // Baton writes feature.json; accept it only when feature-spec.json is not there at all.
  if (read.state === 'absent' && layout === 'baton') {
    file = path.join(featureDir, 'feature.json');
    read = await readJson(ctx, file);
  }
  if (read.state !== 'ok') return {};
  if (isObject(read.value)) {
    checkShape(ctx, file, path.basename(file), read.value);
    return read.value;
  }
  report(ctx, file, `expected a feature object, found ${shapeOf(read.value)}; showing the feature by its folder name`);
  return {};
};

/** Read for their shape only: a broken one is reported where the user will look. */
const checkOnly = async (ctx: ReadContext, featureDir: string, name: string): Promise<void> => {
  const abs = path.join(featureDir, name);
  const read = await readJson(ctx, abs);
  if (read.state === 'ok') checkShape(ctx, abs, name, read.value);
};

export const readFeature = async (ctx: ReadContext, artifactRoot: string, featureDir: string, folder: string, layout: Layout): Promise<FeatureRead> => {
  const [spec, drafts, pipeline, gatesFile, cycles] = await Promise.all([
    readSpec(ctx, featureDir, layout),
    readStories(ctx, featureDir),
    readPipeline(ctx, path.join(featureDir, 'pipeline.json')),
    readGatesFile(ctx, path.join(featureDir, 'gates.json'), null),
    readCycles(ctx, cyclesDir(artifactRoot, folder)),
    ...VALIDATED_ONLY.map((name) => checkOnly(ctx, featureDir, name)),
  ]);
  const stories: Story[] = drafts.map((draft) => {
    const entry = pipeline.get(draft.id);
    return { ...draft, status: entry?.status ?? 'unknown', experiment: entry?.experiment ?? null };
  });
  const storyOfAc = new Map<string, string>();
  for (const story of stories) for (const ac of story.acs) storyOfAc.set(ac.id, story.id);
  const testList = await readTestList(ctx, path.join(featureDir, 'test-list.json'), storyOfAc);
  const gates: Gate[] = gatesFile.gates;
  const id = pickString(spec, 'feature_id', 'featureId', 'id') ?? folder;
  return {
    folder,
    feature: {
      id,
      name: pickText(spec, 'name', 'title') ?? id,
      description: pickText(spec, 'description', 'summary') ?? '',
      stories,
      testList,
      gates,
      cycles: cycles.length,
      cycleRuns: cycles,
      escalations: [],
      amendments: [],
      lockedTests: [],
      runBlock: null,
    },
  };
};

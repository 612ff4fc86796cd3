/** `pipeline.json`: where each story stands, and the experiment branch it is built on. */
import { STORY_STATUSES, type Experiment, type StoryStatus } from '../../shared/model';
import { isObject, matchToken, pick, pickString, shapeOf, type JsonObject } from './fields';
import { readJson, report, type ReadContext } from './read-context';

export interface PipelineEntry {
  readonly status: StoryStatus;
  readonly experiment: Experiment | null;
}

const experimentOf = (ctx: ReadContext, file: string, storyId: string, entry: JsonObject): Experiment | null => {
  const value = pick(entry, 'experiment');
  if (value === undefined) return null;
  if (typeof value === 'string') return { branch: value, parent: null, status: null };
  const branch = isObject(value) ? pickString(value, 'branch', 'name') : undefined;
  if (!isObject(value) || branch === undefined) {
    report(ctx, file, `story "${storyId}" has an experiment that is ${shapeOf(value)} without a "branch"; ignored`);
    return null;
  }
  return {
    branch,
    parent: pickString(value, 'parent', 'parent_branch', 'parentBranch') ?? null,
    status: pickString(value, 'status') ?? null,
  };
};

/** `stories` as an object keyed by story id, or as an array of `{id|story_id, ...}`. */
const entriesOf = (stories: unknown): [string, unknown][] | null => {
  if (isObject(stories)) return Object.entries(stories);
  if (Array.isArray(stories)) {
    return stories.map((story, index) => [(isObject(story) && pickString(story, 'id', 'story_id', 'storyId')) || `#${index + 1}`, story]);
  }
  return null;
};

export const readPipeline = async (ctx: ReadContext, file: string): Promise<Map<string, PipelineEntry>> => {
  const byStory = new Map<string, PipelineEntry>();
  const read = await readJson(ctx, file);
  if (read.state !== 'ok') return byStory;
  const doc = read.value;
  const entries = isObject(doc) ? entriesOf(doc['stories']) : null;
  if (!isObject(doc) || entries === null) {
    report(ctx, file, `expected an object with a "stories" map (story id to entry), found ${shapeOf(doc)}${isObject(doc) ? ' without one' : ''}`);
    return byStory;
  }
  for (const [storyId, entry] of entries) {
    if (!isObject(entry)) {
      report(ctx, file, `story "${storyId}" should be an object, found ${shapeOf(entry)}; ignored`);
      continue;
    }
    const rawStatus = pickString(entry, 'status', 'state');
    let status: StoryStatus = 'unknown';
    if (rawStatus !== undefined) {
      const matched = matchToken(rawStatus, STORY_STATUSES);
      if (matched === undefined) {
        report(ctx, file, `story "${storyId}" has status "${rawStatus}", which is not one of: ${STORY_STATUSES.join(', ')}; shown as unknown`);
      } else {
        status = matched;
      }
    }
    byStory.set(storyId, { status, experiment: experimentOf(ctx, file, storyId, entry) });
  }
  return byStory;
};

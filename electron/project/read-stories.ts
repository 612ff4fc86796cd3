/** Stories (`stories/<S>/story.json`) and their acceptance criteria (`stories/<S>/acs/<AC>.json`). */
import path from 'node:path';
import type { AcceptanceCriterion, Story } from '../../shared/model';
import { byId, isObject, pickString, pickText, shapeOf, type JsonObject } from './fields';
import { checkShape, listDir, readJson, report, type ReadContext } from './read-context';
import { storySentence } from './story-fields';

/** A story before pipeline.json has given it a status and an experiment. */
export type StoryDraft = Omit<Story, 'status' | 'experiment'>;

const readAc = async (ctx: ReadContext, abs: string, fallbackId: string): Promise<AcceptanceCriterion | null> => {
  const read = await readJson(ctx, abs);
  if (read.state !== 'ok') return null;
  if (!isObject(read.value)) {
    report(ctx, abs, `expected an acceptance criterion object with given/when/then, found ${shapeOf(read.value)}; left out`);
    return null;
  }
  checkShape(ctx, abs, `stories/-/acs/${fallbackId}.json`, read.value);
  const ac = read.value;
  return {
    id: pickString(ac, 'id', 'ac_id', 'acId') ?? fallbackId,
    title: pickText(ac, 'title', 'name') ?? '',
    given: pickText(ac, 'given') ?? '',
    when: pickText(ac, 'when') ?? '',
    then: pickText(ac, 'then') ?? '',
  };
};

const readAcs = async (ctx: ReadContext, storyDir: string): Promise<AcceptanceCriterion[]> => {
  const entries = await listDir(ctx, path.join(storyDir, 'acs'));
  const files = entries.filter((entry) => entry.isFile && entry.name.endsWith('.json'));
  const acs = await Promise.all(files.map((file) => readAc(ctx, file.path, file.name.slice(0, -'.json'.length))));
  return acs.filter((ac): ac is AcceptanceCriterion => ac !== null).sort(byId);
};

const readStory = async (ctx: ReadContext, storyDir: string, folder: string): Promise<StoryDraft> => {
  const file = path.join(storyDir, 'story.json');
  const [read, acs] = await Promise.all([readJson(ctx, file), readAcs(ctx, storyDir)]);
  let story: JsonObject = {};
  if (read.state === 'ok') {
    if (isObject(read.value)) story = read.value;
    // The folder still holds ACs worth showing, so the story stays, named by its folder.
    else report(ctx, file, `expected a story object, found ${shapeOf(read.value)}; showing the story by its folder name`);
    checkShape(ctx, file, 'story.json', read.value);
  }
  const id = pickString(story, 'id', 'story_id', 'storyId') ?? folder;
  const sentence = storySentence(story);
  return { id, title: sentence.title ?? id, asA: sentence.asA ?? '', iWant: sentence.iWant ?? '', soThat: sentence.soThat ?? '', acs };
};

export const readStories = async (ctx: ReadContext, featureDir: string): Promise<StoryDraft[]> => {
  const entries = await listDir(ctx, path.join(featureDir, 'stories'));
  const folders = entries.filter((entry) => entry.isDirectory && !entry.name.startsWith('.'));
  const stories = await Promise.all(folders.map((folder) => readStory(ctx, folder.path, folder.name)));
  return stories.sort(byId);
};

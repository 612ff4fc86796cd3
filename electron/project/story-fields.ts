/**
 * The user-story sentence as every tool spells it: Baton and early Consort write `as_a`, `i_want`,
 * `so_that`; Consort's own schema writes `asA`, `iWantTo`, `soThat`; hand-written files use `iWant`;
 * some versions nest the sentence under `story`. Specs, the Inbox and validation all read a story
 * through this one function, so none of them can disagree about what a story says.
 */
import { isObject, pickText, type JsonObject } from './fields';

export interface StorySentence {
  readonly title: string | undefined;
  readonly asA: string | undefined;
  readonly iWant: string | undefined;
  readonly soThat: string | undefined;
}

/** Every accepted spelling of each part, in the order they are tried. */
export const STORY_FIELDS = {
  title: ['title', 'name'],
  asA: ['as_a', 'asA'],
  iWant: ['i_want', 'iWant', 'iWantTo', 'i_want_to'],
  soThat: ['so_that', 'soThat'],
} as const;

/** How a message names the story fields: every spelling that counts. */
export const STORY_FIELDS_NEEDED = '"as a" ("as_a" or "asA"), "I want" ("i_want", "iWant" or "iWantTo") and "so that" ("so_that" or "soThat"), or a "title"';

const nonBlank = (text: string | undefined): string | undefined => (text !== undefined && text.trim() !== '' ? text : undefined);

/** The story's title and sentence, read at the top level first, then under `story`. */
export const storySentence = (story: JsonObject): StorySentence => {
  const nested = isObject(story['story']) ? story['story'] : {};
  const part = (keys: readonly string[]): string | undefined => nonBlank(pickText(story, ...keys)) ?? nonBlank(pickText(nested, ...keys));
  return {
    title: nonBlank(pickText(story, ...STORY_FIELDS.title)),
    asA: part(STORY_FIELDS.asA),
    iWant: part(STORY_FIELDS.iWant),
    soThat: part(STORY_FIELDS.soThat),
  };
};

/** A story can be shown and approved when it has a title or the whole sentence. */
export const isCompleteStory = (sentence: StorySentence): boolean =>
  sentence.title !== undefined || (sentence.asA !== undefined && sentence.iWant !== undefined && sentence.soThat !== undefined);

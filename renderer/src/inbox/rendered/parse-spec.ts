/**
 * The spec's artifacts as a Product Owner reads them: the feature, each story's sentence and
 * independence, each acceptance criterion's Given / When / Then. Field names follow what Baton
 * writes (shared/design-artifacts.ts), with the spellings Consort and hand-written files use.
 */
import { anyPresent, readObject, type Read } from './read';

export interface FeatureDoc {
  readonly id: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly request: string | null;
}

export interface StoryDoc {
  readonly id: string | null;
  readonly title: string | null;
  readonly asA: string | null;
  readonly iWant: string | null;
  readonly soThat: string | null;
  readonly independent: boolean | null;
  readonly dependsOn: readonly string[];
  readonly independence: string | null;
}

export interface AcDoc {
  readonly id: string | null;
  readonly title: string | null;
  readonly given: string | null;
  readonly when: string | null;
  readonly then: string | null;
}

export const readFeature = (value: unknown): Read<FeatureDoc> | null =>
  readObject(value, (r) => {
    const doc: FeatureDoc = {
      id: r.text('id', 'feature_id', 'featureId'),
      name: r.text('name', 'title'),
      description: r.text('description', 'summary'),
      request: r.text('request'),
    };
    return anyPresent(doc.name, doc.description) ? doc : null;
  });

export const readStory = (value: unknown): Read<StoryDoc> | null =>
  readObject(value, (r) => {
    const doc: StoryDoc = {
      id: r.text('id', 'story_id', 'storyId'),
      title: r.text('title', 'name'),
      asA: r.text('as_a', 'asA'),
      iWant: r.text('i_want', 'iWant', 'iWantTo', 'i_want_to'),
      soThat: r.text('so_that', 'soThat'),
      independent: r.bool('independent'),
      dependsOn: r.texts('depends_on', 'dependsOn') ?? [],
      independence: r.text('independence'),
    };
    return anyPresent(doc.title, doc.asA, doc.iWant, doc.soThat) ? doc : null;
  });

export const readAc = (value: unknown): Read<AcDoc> | null =>
  readObject(value, (r) => {
    const doc: AcDoc = {
      id: r.text('id', 'ac_id', 'acId'),
      title: r.text('title', 'name'),
      given: r.text('given'),
      when: r.text('when'),
      then: r.text('then'),
    };
    return anyPresent(doc.given, doc.when, doc.then) ? doc : null;
  });

/** "Independent: <note>", "Depends on S-1, S-2", or null when the story says nothing about it. */
export function independenceLine(story: StoryDoc): string | null {
  const note = story.independence?.trim() || null;
  if (story.dependsOn.length > 0) return `Depends on ${story.dependsOn.join(', ')}${note ? ` — ${note}` : ''}`;
  if (story.independent === true) return note ? `Independent: ${note}` : 'Independent';
  if (story.independent === false) return note ? `Not independent: ${note}` : 'Not independent (no dependency named)';
  return note;
}

/**
 * The shape a gated artifact needs before a person may approve it. The reader reports a file that
 * fails it as a Problem and the approval checks refuse it, with the same words, so Problems, Specs
 * and the Inbox never disagree. Deliberately small for most artifacts (enough that an approval never
 * binds an empty or half-written file); deploy evidence has a full schema (shared/deploy-evidence.ts).
 */
import { z } from 'zod';
import { deployEvidenceProblem } from '../../shared/deploy-evidence';
import type { Layout } from '../../shared/model';
import { isObject, type JsonObject } from './fields';
import { hazardMessage, parseJsonText } from './json-locate';
import { isCompleteStory, storySentence, STORY_FIELDS_NEEDED } from './story-fields';

const text = z.string().trim().min(1);
const id = z.union([text, z.number()]);

/** A spec names its feature and says what it is called. */
const featureSpec = z
  .looseObject({ id: id.optional(), feature_id: id.optional(), featureId: id.optional(), name: text.optional(), title: text.optional() })
  .refine((s) => s.id !== undefined || s.feature_id !== undefined || s.featureId !== undefined, 'needs an "id" (or "feature_id")')
  .refine((s) => s.name !== undefined || s.title !== undefined, 'needs a "name" (or "title")');

const testItem = z.looseObject({ id, status: text });
const testList = z.union([z.array(testItem), z.looseObject({ items: z.array(testItem) })]);

const story = z.custom<JsonObject>((value) => isObject(value) && isCompleteStory(storySentence(value)));

const anyObject = z.looseObject({});

interface Shape {
  readonly schema: z.ZodType;
  /** What the file needs, said once: zod's messages for a union are not worth showing a person. */
  readonly needs: string;
}

const OBJECT: Shape = { schema: anyObject, needs: 'a JSON object' };

const shapeFor = (name: string): Shape | null => {
  const base = name.split('/').pop() ?? name;
  if (base === 'feature-spec.json' || base === 'feature.json') return { schema: featureSpec, needs: 'an "id" (or "feature_id") and a "name" (or "title")' };
  if (base === 'test-list.json') {
    return { schema: testList, needs: 'an array of test items (or an object with an "items" array), each an object with an "id" and a "status"' };
  }
  if (base === 'story.json') return { schema: story, needs: STORY_FIELDS_NEEDED };
  if (name.includes('/acs/') || ['architecture.json', 'db-design.json', 'ux-guide.json'].includes(base)) return OBJECT;
  return null;
};

/** Artifacts the shapes apply to: what the reader checks as it reads them. */
export const isShapedArtifact = (name: string): boolean => (name.split('/').pop() ?? name) === 'deploy-evidence.json' || shapeFor(name) !== null;

/**
 * Why a parsed artifact cannot be approved, or null when it can. `name` is its path (the last part
 * decides the shape); `layout` chooses whose rules deploy evidence follows.
 */
export const shapeProblem = (name: string, value: unknown, layout: Layout): string | null => {
  const base = name.split('/').pop() ?? name;
  if (base === 'deploy-evidence.json') return deployEvidenceProblem(value, layout === 'baton' ? 'baton' : 'consort');
  const shape = shapeFor(name);
  if (shape === null || shape.schema.safeParse(value).success) return null;
  return `is not a valid ${base}: it needs ${shape.needs}`;
};

/** Why `name` with this text cannot be approved, or null when it can. */
export const artifactProblem = (name: string, text: string | null, layout: Layout): string | null => {
  if (!name.endsWith('.json')) return text === null ? 'is not UTF-8 text' : null;
  if (text === null) return 'is not UTF-8 text, so it cannot be JSON';
  const parsed = parseJsonText(text);
  if (!parsed.ok) return `is not valid JSON (${parsed.detail})`;
  if (parsed.hazard !== null) return hazardMessage(parsed.hazard);
  return shapeProblem(name, parsed.value, layout);
};

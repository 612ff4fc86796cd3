/**
 * The minimal shape an artifact needs before a person may approve it. Deliberately small: enough
 * that an approval never binds an empty or half-written file, not a full schema of each artifact.
 */
import { z } from 'zod';

const text = z.string().trim().min(1);
const id = z.union([text, z.number()]);

/** A spec names its feature and says what it is called. */
const featureSpec = z
  .looseObject({ id: id.optional(), feature_id: id.optional(), featureId: id.optional(), name: text.optional(), title: text.optional() })
  .refine((s) => s.id !== undefined || s.feature_id !== undefined || s.featureId !== undefined, 'needs an "id" (or "feature_id")')
  .refine((s) => s.name !== undefined || s.title !== undefined, 'needs a "name" (or "title")');

const testItem = z.looseObject({ id, status: text });
const testList = z.union([z.array(testItem), z.looseObject({ items: z.array(testItem) })]);

const sentence = z.looseObject({ as_a: text, i_want: text, so_that: text });
/** A story is either the user-story sentence (at the top or, as Consort writes it, under `story`) or a title. */
const story = z.union([sentence, z.looseObject({ story: sentence }), z.looseObject({ title: text })]);

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
  if (base === 'story.json') return { schema: story, needs: '"as_a", "i_want" and "so_that", or a "title"' };
  if (name.includes('/acs/') || ['architecture.json', 'db-design.json', 'deploy-evidence.json', 'ux-guide.json'].includes(base)) return OBJECT;
  return null;
};

/** Why `name` with this text cannot be approved, or null when it can. */
export const artifactProblem = (name: string, text: string | null): string | null => {
  if (!name.endsWith('.json')) return text === null ? 'is not UTF-8 text' : null;
  if (text === null) return 'is not UTF-8 text, so it cannot be JSON';
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return `is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const shape = shapeFor(name);
  if (shape === null || shape.schema.safeParse(value).success) return null;
  return `is not a valid ${name.split('/').pop()}: it needs ${shape.needs}`;
};

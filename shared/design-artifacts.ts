/**
 * What the design-phase roles hand back (each writes one `artifact.json` in its turn folder), as zod
 * schemas: Baton validates a role's output here, gives the role one retry with the validator's
 * words, and only then writes the feature's files (feature.json, stories, ACs, architecture.json,
 * db-design.json, ux-guide.json, test-list.json) itself. The same words reach the agent and the
 * Inbox, so a person sees exactly why an artifact was refused.
 */
import { z } from 'zod';

const text = z.string().trim().min(1, 'must not be empty');
const ident = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'must be an id: a letter, then letters, digits, "-", "_" or "." (at most 64)');

export const acceptanceCriterionSchema = z.object({ id: ident, title: text, given: text, when: text, then: text });

export const specStorySchema = z.object({
  id: ident,
  title: text,
  as_a: text,
  i_want: text,
  so_that: text,
  /** Whether the story can be built and accepted on its own; false needs `depends_on`. */
  independent: z.boolean(),
  depends_on: z.array(ident).default([]),
  /** Why the story stands alone (or what it needs first): the independence note the PO reads. */
  independence: text,
  acceptance_criteria: z.array(acceptanceCriterionSchema).min(1, 'needs at least one acceptance criterion'),
});

/** The Spec Author: the feature spec, its stories and their acceptance criteria. */
export const specArtifactSchema = z.object({
  feature: z.object({
    name: text,
    description: text,
    /** Whether the feature has screens: the UX Designer runs only then. */ user_interface: z.boolean().default(false),
  }),
  stories: z.array(specStorySchema).min(1, 'needs at least one story'),
});

/** The Architect Reviewer: layers, non-functional requirements each with its fitness check, persistence invariants. */
export const architectureArtifactSchema = z.object({
  layers: z.array(z.object({ name: text, responsibility: text })).min(1, 'needs at least one layer'),
  nonFunctional: z
    .array(z.object({ id: ident, requirement: text, fitnessCheck: text }))
    .min(1, 'needs at least one non-functional requirement, each with a fitness check'),
  persistenceInvariants: z.array(z.object({ id: ident, statement: text })).default([]),
  decisions: z.array(text).default([]),
});

/** The DBA: tables, their constraints, the migrations it plans. */
export const dbDesignArtifactSchema = z.object({
  tables: z
    .array(
      z.object({
        name: text,
        columns: z.array(z.object({ name: text, type: text, constraints: z.array(text).default([]) })).min(1, 'needs at least one column'),
        constraints: z.array(text).default([]),
      }),
    )
    .min(1, 'needs at least one table'),
  migrations: z.array(z.object({ name: text, purpose: text })).default([]),
});

/** The UX Designer: screens and the states each must show. */
export const uxArtifactSchema = z.object({
  screens: z
    .array(z.object({ name: text, states: z.array(z.object({ name: text, shows: text })).min(1, 'needs at least one state') }))
    .min(1, 'needs at least one screen'),
});

export const testListItemSchema = z.object({
  id: ident,
  description: text,
  story: ident,
  ac_id: ident,
  kind: z.enum(['behavior', 'fitness', 'client']),
  /** The persistence invariant this item tests, when it tests one. */
  invariant_id: ident.optional(),
});

/** The Test Strategist: the ordered test list. */
export const testListArtifactSchema = z.object({ items: z.array(testListItemSchema).min(1, 'needs at least one item') });

export type SpecArtifact = z.infer<typeof specArtifactSchema>;
export type ArchitectureArtifact = z.infer<typeof architectureArtifactSchema>;
export type DbDesignArtifact = z.infer<typeof dbDesignArtifactSchema>;
export type UxArtifact = z.infer<typeof uxArtifactSchema>;
export type TestListArtifact = z.infer<typeof testListArtifactSchema>;

export const DESIGN_ROLES = ['specAuthor', 'architectReviewer', 'dba', 'uxDesigner', 'testStrategist'] as const;
export type DesignRole = (typeof DESIGN_ROLES)[number];

export const DESIGN_SCHEMAS = {
  specAuthor: specArtifactSchema,
  architectReviewer: architectureArtifactSchema,
  dba: dbDesignArtifactSchema,
  uxDesigner: uxArtifactSchema,
  testStrategist: testListArtifactSchema,
} as const;

export type DesignArtifact<R extends DesignRole> = z.infer<(typeof DESIGN_SCHEMAS)[R]>;

/** zod's issues as lines a person and an agent can act on: `stories[0].acceptance_criteria: needs at least one …`. */
export const issueLines = (error: z.ZodError): string[] =>
  error.issues.map(
    (issue) =>
      `${
        issue.path.length > 0
          ? issue.path
              .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
              .join('')
              .replace(/^\./, '')
          : '(the whole artifact)'
      }: ${issue.message}`,
  );

export type Validated<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problems: readonly string[] };

/** Parses a role's artifact text: JSON first, then its schema. */
export function validateDesignArtifact<R extends DesignRole>(role: R, raw: string | null): Validated<DesignArtifact<R>> {
  if (raw === null) return { ok: false, problems: ['artifact.json was not written: write the artifact as JSON to artifact.json in your working folder'] };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, problems: [`artifact.json is not valid JSON (${error instanceof Error ? error.message : String(error)})`] };
  }
  const parsed = DESIGN_SCHEMAS[role].safeParse(value);
  if (!parsed.success) return { ok: false, problems: issueLines(parsed.error) };
  // zod's output for DESIGN_SCHEMAS[role] is DesignArtifact<role>; TypeScript cannot narrow the indexed schema.
  const artifact: unknown = parsed.data;
  return { ok: true, value: artifact as DesignArtifact<R> };
}

/** Each design role as a person names it. */
export const DESIGN_ROLE_NAME: Readonly<Record<DesignRole, string>> = {
  specAuthor: 'Spec Author',
  architectReviewer: 'Architect Reviewer',
  dba: 'DBA',
  uxDesigner: 'UX Designer',
  testStrategist: 'Test Strategist',
};

/** What a person reads when no agent did a design role's turn (the scripted agent has none for this feature). */
export const noAgentFor = (roleName: string, gate: string, declined: string): string =>
  `no agent for the ${roleName} (${declined}): configure one in Settings or write the ${gate === 'spec' ? 'spec' : `${gate} files`} yourself`;

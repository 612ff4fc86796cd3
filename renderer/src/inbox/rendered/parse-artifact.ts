/**
 * Which rendered view an artifact gets, chosen by its file name (the last part of its path; an
 * acceptance criterion by its `acs/` folder), and its text parsed for that view. Anything that does
 * not parse, or has nothing the view knows, gets no rendered view: the raw text is shown instead.
 */
import { readArchitecture, readDbDesign, readUxGuide, type ArchitectureDoc, type DbDesignDoc, type UxGuideDoc } from './parse-design';
import { readAc, readFeature, readStory, type AcDoc, type FeatureDoc, type StoryDoc } from './parse-spec';
import { readTestList, type TestListDoc } from './parse-test-list';
import type { Read } from './read';

export type RenderedDoc =
  | { readonly kind: 'feature'; readonly doc: FeatureDoc }
  | { readonly kind: 'story'; readonly doc: StoryDoc }
  | { readonly kind: 'ac'; readonly doc: AcDoc }
  | { readonly kind: 'architecture'; readonly doc: ArchitectureDoc }
  | { readonly kind: 'db-design'; readonly doc: DbDesignDoc }
  | { readonly kind: 'ux-guide'; readonly doc: UxGuideDoc }
  | { readonly kind: 'test-list'; readonly doc: TestListDoc };

export type RenderedKind = RenderedDoc['kind'];

export interface ParsedArtifact {
  readonly rendered: RenderedDoc;
  /** Fields the view does not show, as paths (`priority`, `items[].scenario_file`). */
  readonly others: readonly string[];
}

export function kindOf(name: string): RenderedKind | null {
  const parts = name.split('/');
  const base = parts.at(-1) ?? name;
  switch (base) {
    case 'feature.json':
    case 'feature-spec.json':
      return 'feature';
    case 'story.json':
      return 'story';
    case 'architecture.json':
      return 'architecture';
    case 'db-design.json':
      return 'db-design';
    case 'ux-guide.json':
      return 'ux-guide';
    case 'test-list.json':
      return 'test-list';
  }
  return parts.at(-2) === 'acs' && base.endsWith('.json') ? 'ac' : null;
}

const READERS: { readonly [K in RenderedKind]: (value: unknown) => Read<Extract<RenderedDoc, { kind: K }>['doc']> | null } = {
  feature: readFeature,
  story: readStory,
  ac: readAc,
  architecture: readArchitecture,
  'db-design': readDbDesign,
  'ux-guide': readUxGuide,
  'test-list': readTestList,
};

/** The artifact ready for its rendered view, or null: no view for this name, invalid JSON, or an unknown shape. */
export function parseArtifact(name: string, text: string | null): ParsedArtifact | null {
  const kind = kindOf(name);
  if (kind === null || text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const read = READERS[kind](value);
  if (read === null) return null;
  return { rendered: { kind, doc: read.doc } as RenderedDoc, others: read.others };
}

/** Why an artifact that has a kind of view gets none, in words; null when it has no kind or renders. */
export function unrenderedReason(name: string, text: string | null): string | null {
  if (kindOf(name) === null || text === null) return null;
  try {
    JSON.parse(text);
  } catch {
    return 'the text is not valid JSON';
  }
  if (parseArtifact(name, text) !== null) return null;
  return `it has none of the fields a ${name.split('/').at(-1) ?? name} view shows`;
}

/**
 * Gate conformance: deterministic checks on the design artifacts that must hold before a person may
 * approve the spec, design or test_list gate. Each failure is one sentence naming what and where;
 * the Inbox lists them and the approval refuses with them. Pure: the gates read the files, this
 * judges them, and a design role's output is checked with the same rules before it is written.
 */
import type { GateName } from './ledger';

export interface ConformanceStory {
  readonly id: string;
  /** As declared in story.json; null when the story says nothing (hand-written stories). */
  readonly independent: boolean | null;
  readonly dependsOn: readonly string[];
  readonly acs: readonly { readonly id: string; readonly given: string; readonly when: string; readonly then: string }[];
}

export interface ConformanceInput {
  readonly stories: readonly ConformanceStory[];
  /** The persistence invariants the architecture declares, by id. */
  readonly invariants: readonly string[];
  /** The test list's items; null when there is no test list yet. */
  readonly testItems: readonly { readonly id: string; readonly acId: string; readonly invariantId: string | null }[] | null;
}

/** The gates conformance applies to. */
export const CONFORMANCE_GATES: readonly GateName[] = ['spec', 'design', 'test_list'];

const blank = (s: string): boolean => s.trim() === '';
const norm = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

function specProblems(stories: readonly ConformanceStory[]): string[] {
  const problems: string[] = [];
  if (stories.length === 0) problems.push('The spec has no story: write at least one story with its acceptance criteria.');
  const seenIds = new Map<string, string>();
  const seenText = new Map<string, string>();
  for (const story of stories) {
    if (story.acs.length === 0) problems.push(`Story ${story.id} has no acceptance criterion: a story nobody can test cannot be accepted.`);
    for (const ac of story.acs) {
      const missing = (['given', 'when', 'then'] as const).filter((part) => blank(ac[part]));
      if (missing.length > 0)
        problems.push(
          `${ac.id} (story ${story.id}) is not testable: its ${missing.map((m) => m[0]!.toUpperCase() + m.slice(1)).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
        );
      const twin = seenIds.get(ac.id);
      if (twin !== undefined) problems.push(`${ac.id} appears twice (stories ${twin} and ${story.id}): acceptance criterion ids must be unique.`);
      else seenIds.set(ac.id, story.id);
      const key = `${norm(ac.given)}|${norm(ac.when)}|${norm(ac.then)}`;
      const same = seenText.get(key);
      if (missing.length === 0 && same !== undefined) problems.push(`${ac.id} duplicates ${same}: the same Given/When/Then twice.`);
      else if (missing.length === 0) seenText.set(key, ac.id);
    }
  }
  problems.push(...independenceProblems(stories));
  return problems;
}

function independenceProblems(stories: readonly ConformanceStory[]): string[] {
  const problems: string[] = [];
  const ids = new Set(stories.map((s) => s.id));
  for (const story of stories) {
    if (story.independent === true && story.dependsOn.length > 0)
      problems.push(`Story ${story.id} is declared independent but depends on ${story.dependsOn.join(', ')}: declare it dependent or drop the dependency.`);
    if (story.independent === false && story.dependsOn.length === 0)
      problems.push(`Story ${story.id} is declared not independent but names no story it depends on: list them in depends_on.`);
    for (const dep of story.dependsOn) {
      if (dep === story.id) problems.push(`Story ${story.id} depends on itself.`);
      else if (!ids.has(dep)) problems.push(`Story ${story.id} depends on ${dep}, which is not a story of this feature.`);
    }
  }
  // A cycle of dependencies means no story in it can be built first.
  const byId = new Map(stories.map((s) => [s.id, s.dependsOn.filter((d) => d !== s.id && ids.has(d))]));
  const state = new Map<string, 'visiting' | 'done'>();
  const cyclic = new Set<string>();
  const visit = (id: string, path: string[]): void => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'visiting') {
      path.slice(path.indexOf(id)).forEach((s) => cyclic.add(s));
      return;
    }
    state.set(id, 'visiting');
    for (const dep of byId.get(id) ?? []) visit(dep, [...path, id]);
    state.set(id, 'done');
  };
  for (const story of stories) visit(story.id, []);
  if (cyclic.size > 0) problems.push(`Stories ${[...cyclic].sort().join(', ')} depend on each other in a cycle: none of them can be built first.`);
  return problems;
}

function testListProblems(input: ConformanceInput): string[] {
  const items = input.testItems ?? [];
  if (items.length === 0) return ['The test list is empty: it needs at least one item per acceptance criterion.'];
  const problems: string[] = [];
  const acs = new Set(input.stories.flatMap((s) => s.acs.map((ac) => ac.id)));
  for (const story of input.stories)
    for (const ac of story.acs)
      if (!items.some((item) => item.acId === ac.id)) problems.push(`${ac.id} (story ${story.id}) has no test-list item: add one that tests it.`);
  for (const item of items) if (!acs.has(item.acId)) problems.push(`Test ${item.id} names ${item.acId}, which is not an acceptance criterion of this feature.`);
  for (const invariant of input.invariants)
    if (!items.some((item) => item.invariantId === invariant))
      problems.push(`Persistence invariant ${invariant} has no test: add a test-list item with invariant_id "${invariant}".`);
  return problems;
}

/**
 * Why `gate` cannot be approved on these artifacts (empty when it conforms). A later gate also
 * checks what the earlier ones cover, since it builds on them.
 */
export function conformanceProblems(gate: GateName, input: ConformanceInput): string[] {
  if (!CONFORMANCE_GATES.includes(gate)) return [];
  const problems = specProblems(input.stories);
  const ids = input.invariants;
  const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (gate !== 'spec' && dupes.length > 0) problems.push(`Persistence invariant ids appear more than once: ${[...new Set(dupes)].join(', ')}.`);
  if (gate === 'test_list') problems.push(...testListProblems(input));
  return problems;
}

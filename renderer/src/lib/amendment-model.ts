/**
 * Pure test-amendment logic for the inbox and the card drawer: which amendments wait for a person
 * (pending) and which for their re-run (approved, the item not yet run again), who proposed one in
 * words, and what a person's proposal still lacks.
 */
import type { AmendmentView, Feature, LockedTests, ProjectView, TestItem } from '../../../shared/model';

/** One amendment the inbox has open: its feature and its `test.amendment` record's hash. */
export interface AmendmentRef {
  readonly kind: 'amendment';
  readonly feature: string;
  readonly amendment: string;
}

/** `pending`: a decision is needed. `rerun`: approved, waiting for the item's next run (listed, not counted). */
export type AmendmentGroup = 'pending' | 'rerun';

export interface AmendmentEntry {
  readonly kind: 'amendment';
  readonly ref: AmendmentRef;
  readonly featureName: string;
  readonly amendment: AmendmentView;
  /** The test-list item, when the feature's test list still names it. */
  readonly item: TestItem | null;
  readonly group: AmendmentGroup;
}

export const isAmendmentRef = (ref: object): ref is AmendmentRef => 'kind' in ref && ref.kind === 'amendment';

/** Where the inbox lists an amendment, or null when it is no longer the inbox's business (rejected, or re-run). */
export const amendmentGroup = (a: Pick<AmendmentView, 'status' | 'rerun'>): AmendmentGroup | null =>
  a.status === 'pending' ? 'pending' : a.status === 'approved' && a.rerun === 'waiting' ? 'rerun' : null;

/** Every pending amendment, then every approved one still waiting for its re-run; each in ledger order (oldest first). */
export function amendmentEntries(view: ProjectView | null): AmendmentEntry[] {
  if (!view) return [];
  const entries: AmendmentEntry[] = [];
  for (const feature of view.features) {
    for (const amendment of feature.amendments) {
      const group = amendmentGroup(amendment);
      if (!group) continue;
      const item = feature.testList.find((t) => t.id === amendment.item) ?? null;
      entries.push({
        kind: 'amendment',
        ref: { kind: 'amendment', feature: feature.id, amendment: amendment.id },
        featureName: feature.name,
        amendment,
        item,
        group,
      });
    }
  }
  return entries.sort((a, b) => Number(a.group === 'rerun') - Number(b.group === 'rerun') || a.amendment.seq - b.amendment.seq);
}

/** Who proposed it, as a person reads it: `the Navigator (navigator:claude)`, or the person's own "Name <email>". */
export const proposerOf = (proposedBy: AmendmentView['proposedBy']): string =>
  proposedBy.kind === 'agent' ? `the Navigator (${proposedBy.id})` : proposedBy.id;

/** What the old version's evidence becomes: superseded once the amendment is approved. */
export const usedByLabel = (status: AmendmentView['status']): string =>
  status === 'pending' ? 'superseded if approved' : status === 'approved' ? 'superseded' : 'stands (the amendment was rejected)';

/** The item's amendment that is still open: pending, or approved and waiting for its re-run (a new one is refused meanwhile). */
export const openAmendmentOf = (feature: Pick<Feature, 'amendments'>, item: string): AmendmentView | null =>
  feature.amendments.find((a) => a.item === item && amendmentGroup(a) !== null) ?? null;

/** The item's own locked test files, when its tests are locked. */
export const lockedTestsOf = (feature: Pick<Feature, 'lockedTests'>, item: string): LockedTests | null =>
  feature.lockedTests.find((l) => l.item === item && l.files.length > 0) ?? null;

/** Why a new amendment of `item` cannot be proposed while `open` is, in words. */
export const proposeBlockedBy = (item: string, open: Pick<AmendmentView, 'status' | 'seq'>): string =>
  open.status === 'pending'
    ? `${item} already has a test amendment waiting for a decision (record #${open.seq}): decide it in the Inbox first.`
    : `${item}'s approved test amendment (record #${open.seq}) has not re-run yet: run the feature so ${item} runs RED and GREEN against it first.`;

/** A person's proposal as typed: the new content of the locked files they edited, and why. */
export interface AmendmentDraft {
  /** New content by path, for each file the person typed into (the others stay as locked). */
  readonly contents: Readonly<Record<string, string>>;
  readonly reason: string;
}

export type AmendmentField = 'content' | 'reason';

/** The API's limit on a file's new content. */
export const MAX_CONTENT = 1_000_000;

/** The files the draft changes: typed into, and different from their locked text (`locked`, by path, as far as it is known). */
export const changedFiles = (draft: AmendmentDraft, locked: Readonly<Record<string, string>>): { path: string; content: string }[] =>
  Object.entries(draft.contents)
    .filter(([path, content]) => locked[path] !== undefined && content !== locked[path])
    .map(([path, content]) => ({ path, content }));

/** What keeps the draft from being sent (by field), given the locked text of its files; empty when it can be. */
export function amendmentProblems(draft: AmendmentDraft, locked: Readonly<Record<string, string>>): Partial<Record<AmendmentField, string>> {
  const problems: Partial<Record<AmendmentField, string>> = {};
  const changed = changedFiles(draft, locked);
  const long = changed.find((f) => f.content.length > MAX_CONTENT);
  if (changed.length === 0) problems.content = 'The test is its locked version, unchanged: change it before you propose the amendment.';
  else if (long) problems.content = `The new ${long.path} is longer than 1 MB: propose it from a file with \`baton amend propose\`.`;
  if (draft.reason.trim() === '') problems.reason = 'Say why the test should change: the reason is recorded and shown with the diff to whoever decides.';
  return problems;
}

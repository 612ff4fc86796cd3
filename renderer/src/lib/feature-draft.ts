/**
 * What a person types into the New feature dialog, and what is wrong with it before main sees it:
 * the empty fields and the limits the `features:new` contract sets, in the words main uses.
 * Everything else (the id's form, an existing feature) main decides. Pure.
 */

/** A text file to attach, under the name main will store it as (`original` is what it was called). */
export interface Attachment {
  readonly name: string;
  readonly original: string;
  readonly text: string;
  readonly bytes: number;
}

export interface FeatureDraft {
  readonly title: string;
  readonly request: string;
  /** The feature id the person chose; '' for the default from the title. */
  readonly id: string;
  /** Who asks ("Name <email>"): the ledger record's actor. */
  readonly requester: string;
  readonly attachments: readonly Attachment[];
}

export const EMPTY_DRAFT: FeatureDraft = { title: '', request: '', id: '', requester: '', attachments: [] };

export const MAX_TITLE = 200;
export const MAX_REQUEST = 8000;
export const MAX_ATTACHMENTS = 10;
export const MAX_ATTACHMENT_BYTES = 1_000_000;
/** The name main gives the request itself: no attachment may take it. */
export const REQUEST_FILE = 'request.md';

export type DraftField = 'title' | 'request' | 'requester';

/** Each field's problem, or an empty object when the draft may be sent. */
export function draftProblems(draft: FeatureDraft): Partial<Record<DraftField, string>> {
  const problems: Partial<Record<DraftField, string>> = {};
  const title = draft.title.trim();
  const request = draft.request.trim();
  if (title === '') problems.title = 'The title is empty: give the feature a short name.';
  else if (title.length > MAX_TITLE) problems.title = `The title is longer than ${MAX_TITLE} characters: keep it to a short name.`;
  if (request === '') problems.request = 'The request is empty: write one paragraph saying what the feature is for and who it serves.';
  else if (request.length > MAX_REQUEST)
    problems.request = `The request is longer than ${MAX_REQUEST} characters: keep the request to a paragraph and attach the rest.`;
  if (draft.requester.trim() === '') problems.requester = 'Say who requests the feature, e.g. "Ana Silva <ana@example.com>": the ledger records it.';
  return problems;
}

/**
 * The plain file name main accepts (letters, digits, ".", "-", "_"; a letter or digit first; at
 * most 100 characters) made from a picked file's name: "Design notes (v2).md" → "Design-notes-v2-.md".
 */
export function plainName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let plain = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  if (plain.length > 100) {
    const dot = plain.lastIndexOf('.');
    const extension = dot > 0 && plain.length - dot <= 10 ? plain.slice(dot) : '';
    plain = plain.slice(0, 100 - extension.length) + extension;
  }
  return plain || 'attachment.txt';
}

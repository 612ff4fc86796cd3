/**
 * Intake: a person starts a feature from a one-paragraph request (and optional attachments: a
 * product overview, constraints, design notes). Baton makes the feature folder — feature.json with
 * the title and the request as its description, request.md, attachments/ — and records the request
 * in the ledger with every file as a blob. The Spec Author's turn starts from there.
 */
import { rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { LedgerRecord } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { RECORD_TYPES } from '../../shared/records';
import { err, ok, type Result } from '../../shared/result';
import { featureIdFor } from '../../shared/feature-id';
import { featureFolder } from '../gates/locate';
import { isContainedWriteError, writeFileInside } from '../platform/contained-write';
import type { Ledger } from '../ledger';
import { textProblem } from '../../shared/text-input';

export interface FeatureRequest {
  readonly title: string;
  readonly request: string;
  readonly attachments?: readonly { readonly name: string; readonly text: string }[];
  /** The feature's id; default `F-` and the title's words. */
  readonly id?: string;
  /** Who asks ("Name <email>"): the record's actor. */
  readonly requester: string;
}

export const REQUEST_FILE = 'request.md';
export const ATTACHMENTS_DIR = 'attachments';
const MAX_ATTACHMENT_BYTES = 1_000_000;
const ID = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const ATTACHMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function checkRequest(req: FeatureRequest, id: string): string | null {
  if (req.title.trim() === '') return 'The title is empty: give the feature a short name (--title "Gift cards").';
  if (req.request.trim() === '') return 'The request is empty: write one paragraph saying what the feature is for and who it serves.';
  // Both are recorded and shown again on terminals and screens: the same hygiene as every person's words (shared/text-input.ts).
  const words = textProblem(req.title, 'title', 'The feature title') ?? textProblem(req.request, 'request', 'The request');
  if (words) return words;
  if (!ID.test(id)) return `"${id}" is not a feature id: use a letter, then letters, digits, "-", "_" or "." (at most 64).`;
  const names = new Set<string>();
  for (const a of req.attachments ?? []) {
    if (!ATTACHMENT_NAME.test(a.name) || a.name === REQUEST_FILE)
      return `Attachment "${a.name}" needs a plain file name (letters, digits, ".", "-", "_"; not ${REQUEST_FILE}).`;
    if (names.has(a.name)) return `Two attachments are called "${a.name}": rename one.`;
    if (Buffer.byteLength(a.text) > MAX_ATTACHMENT_BYTES) return `Attachment "${a.name}" is larger than 1 MB: attach a summary instead.`;
    names.add(a.name);
  }
  return null;
}

/** Creates the feature folder and records the request; refuses (writing nothing) an existing feature or bad input. */
export async function createFeature(view: ProjectView, ledger: Ledger, req: FeatureRequest): Promise<Result<{ feature: string; record: LedgerRecord }>> {
  if (view.layout !== 'baton')
    return err('unsupported', `${view.root} is a Consort project: start its features with Consort. Baton's intake writes a Baton project (.baton/).`);
  const id = (req.id ?? featureIdFor(req.title)).trim();
  const problem = checkRequest(req, id);
  if (problem) return err('invalid-request', problem);
  if ((await featureFolder(view.artifactRoot, id)) !== null || view.features.some((f) => f.id === id))
    return err('exists', `Feature ${id} already exists in ${path.join(view.artifactRoot, 'features')}: choose another id (--id) or title.`);
  const dir = path.join(view.artifactRoot, 'features', id);
  const request = `${req.request.trim()}\n`;
  const attachments = req.attachments ?? [];
  try {
    // Inside the project, never through a link at `features/` or below (contained-write.ts).
    const write = (file: string, text: string) => writeFileInside(view.root, file, text);
    await write(
      path.join(dir, 'feature.json'),
      `${JSON.stringify({ id, name: req.title.trim(), description: req.request.trim(), request: REQUEST_FILE }, null, 2)}\n`,
    );
    await write(path.join(dir, REQUEST_FILE), request);
    for (const a of attachments) await write(path.join(dir, ATTACHMENTS_DIR, a.name), a.text);
    const record = await ledger.append({
      type: RECORD_TYPES.featureRequested,
      actor: { kind: 'person', id: req.requester.trim() },
      subject: { feature: id },
      data: { title: req.title.trim(), request: sha256(request), attachments: Object.fromEntries(attachments.map((a) => [a.name, sha256(a.text)])) },
      blobs: [
        { name: REQUEST_FILE, content: Buffer.from(request) },
        ...attachments.map((a) => ({ name: `${ATTACHMENTS_DIR}/${a.name}`, content: Buffer.from(a.text) })),
      ],
    });
    return ok({ feature: id, record });
  } catch (error) {
    // Nothing half-made is left behind: the folder is new, so it goes (unless the way to it is a link: then nothing was made).
    if (!isContainedWriteError(error)) await rm(dir, { recursive: true, force: true });
    return err('failed', `Could not create feature ${id} in ${dir}: ${error instanceof Error ? error.message : String(error)}. Nothing was recorded.`);
  }
}

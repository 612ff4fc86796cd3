/**
 * What to call a project. A Consort project names itself in its own files (Consort has no single
 * place for it): a `project` or product name in `workflow-state.json`, the title of
 * `product-overview.md`, or the Lakebase project in `.lakebase/workflow-state.json`, in that order. The folder's name is the
 * fallback, and what a Baton project shows.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Layout } from '../../shared/model';
import { isObject, pick, pickString, type JsonObject } from './fields';
import { readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES, readJson, type ReadContext } from './read-context';

const MAX_NAME = 120;

const clean = (value: string | undefined): string | undefined => {
  const text = value?.replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, MAX_NAME) : undefined;
};

/** `project` as a string, or `{name}`; then the other keys in order. */
const nameIn = (doc: JsonObject, ...keys: string[]): string | undefined => {
  for (const key of keys) {
    const value = pick(doc, key);
    const named = typeof value === 'string' ? value : isObject(value) ? pickString(value, 'name', 'title') : undefined;
    if (clean(named)) return clean(named);
  }
  return undefined;
};

const fromJson = async (ctx: ReadContext, abs: string, ...keys: string[]): Promise<string | undefined> => {
  const read = await readJson(ctx, abs);
  return read.state === 'ok' && isObject(read.value) ? nameIn(read.value, ...keys) : undefined;
};

/** The first level-one heading of a Markdown file inside the project, if it has one. */
const markdownTitle = async (ctx: ReadContext, abs: string): Promise<string | undefined> => {
  const real = await fs.realpath(abs).catch(() => null);
  if (real === null || path.relative(ctx.realRoot, real).startsWith('..')) return undefined;
  // A regular file of artifact size only: a FIFO or a device in its place never blocks the read.
  const text = await readRegularFile(real, { maxBytes: MAX_ARTIFACT_BYTES }).then(
    (bytes) => bytes.toString('utf8'),
    () => '',
  );
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(text.slice(0, 64 * 1024));
  return clean(heading?.[1]);
};

export interface NameSources {
  readonly root: string;
  readonly artifactRoot: string;
  readonly layout: Layout;
  /** `<artifactRoot>/workflow-state.json` as the reader parsed it (it reports a broken one), or null. */
  readonly workflowState: unknown;
}

export const projectName = async (ctx: ReadContext, { root, artifactRoot, layout, workflowState }: NameSources): Promise<string> => {
  const folder = path.basename(root);
  if (layout === 'baton') return folder;
  // The Lakebase folder sits beside the artifact root, in the project folder (not when the artifact root itself was opened).
  const lakebase = artifactRoot === root ? null : path.join(root, '.lakebase', 'workflow-state.json');
  return (
    (isObject(workflowState) ? nameIn(workflowState, 'project', 'project_name', 'projectName', 'product', 'product_name', 'productName') : undefined) ??
    (await markdownTitle(ctx, path.join(artifactRoot, 'product-overview.md'))) ??
    (lakebase ? await fromJson(ctx, lakebase, 'project', 'project_name', 'projectName', 'project_id', 'projectId') : undefined) ??
    folder
  );
};

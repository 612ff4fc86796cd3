/**
 * Guarded access to a project's files. Every read goes through here so that one bad file
 * (malformed, oversized, unreadable, or a symlink leading out of the project) becomes a located
 * Problem and never stops the rest of the project from loading.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Layout, Problem } from '../../shared/model';
import { isSafeReadError, readRegularFile } from '../platform/safe-read';
import { shapeProblem } from './artifact-shapes';
import { hazardMessage, parseJsonText } from './json-locate';

/** Artifacts are small JSON files; anything bigger is a mistake or an attack, not read. */
export const MAX_ARTIFACT_BYTES = 10 * 1024 * 1024;

export interface ReadContext {
  /** Absolute path of the folder the user opened; Problem paths are relative to it. */
  readonly root: string;
  /** realpath of `root`: the boundary symlinks may not leave. */
  readonly realRoot: string;
  /** Whose rules an artifact's shape is judged by (Consort's deploy evidence differs from Baton's). */
  readonly layout: Layout;
  readonly problems: Problem[];
}

export type JsonRead = { readonly state: 'absent' } | { readonly state: 'failed' } | { readonly state: 'ok'; readonly value: unknown };

export interface DirEntry {
  readonly name: string;
  readonly path: string;
  readonly isDirectory: boolean;
  readonly isFile: boolean;
}

/**
 * Features, stories and ACs are read in parallel; a large project would otherwise open
 * thousands of files at once and turn EMFILE into spurious problems.
 */
const MAX_CONCURRENT_READS = 64;
let activeReads = 0;
const waitingReads: (() => void)[] = [];

const withReadSlot = async <T>(work: () => Promise<T>): Promise<T> => {
  if (activeReads >= MAX_CONCURRENT_READS) await new Promise<void>((resolve) => waitingReads.push(resolve));
  activeReads += 1;
  try {
    return await work();
  } finally {
    activeReads -= 1;
    waitingReads.shift()?.();
  }
};

export const createContext = async (root: string, layout: Layout): Promise<ReadContext> => ({
  root,
  realRoot: await fs.realpath(root),
  layout,
  problems: [],
});

export const relativeFile = (ctx: ReadContext, abs: string): string => path.relative(ctx.root, abs).split(path.sep).join('/') || '.';

/** Problems listed per file; past this one line counts the rest (a file of 100,000 bad items is one problem to fix, not 100,000). */
export const MAX_PROBLEMS_PER_FILE = 100;
const tallies = new WeakMap<Problem[], Map<string, { count: number; summary: number }>>();

export const report = (ctx: ReadContext, abs: string, message: string): void => {
  const file = relativeFile(ctx, abs);
  const perFile = tallies.get(ctx.problems) ?? new Map<string, { count: number; summary: number }>();
  tallies.set(ctx.problems, perFile);
  const tally = perFile.get(file) ?? { count: 0, summary: -1 };
  perFile.set(file, tally);
  tally.count += 1;
  if (tally.count <= MAX_PROBLEMS_PER_FILE) {
    ctx.problems.push({ file, message });
    return;
  }
  const more = tally.count - MAX_PROBLEMS_PER_FILE;
  const summary = { file, message: `…and ${more} more problem${more === 1 ? '' : 's'} in this file (the first ${MAX_PROBLEMS_PER_FILE} are listed)` };
  if (tally.summary < 0) tally.summary = ctx.problems.push(summary) - 1;
  else ctx.problems[tally.summary] = summary;
};

const isInside = (ctx: ReadContext, real: string): boolean => {
  const rel = path.relative(ctx.realRoot, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

const codeOf = (error: unknown): string | undefined => (typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined);

const describeFsError = (error: unknown): string => {
  const code = codeOf(error);
  if (code === 'EACCES' || code === 'EPERM') return `cannot be read (${code}: permission denied); check its permissions`;
  if (code === 'EISDIR') return 'is a folder where a file was expected (EISDIR); rename or remove it';
  if (code === 'ENOTDIR') return 'is a file where a folder was expected (ENOTDIR); rename or remove it';
  if (code === 'ELOOP') return 'is part of a symlink loop (ELOOP); not followed';
  return `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`;
};

/** How a refused read reads in a Problem: sizes in MB, as every artifact limit is stated. */
const readRefusal = (error: unknown): string => {
  if (!isSafeReadError(error) || error.reason === 'unreadable') return describeFsError(error);
  if (error.reason !== 'too-large' || error.facts.size === undefined) return error.detail;
  const size = error.facts.size;
  return `is ${(size / (1024 * 1024)).toFixed(1)} MB (${size} bytes), over the 10 MB limit for an artifact; not read`;
};

const OUTSIDE = 'symlink points outside the project; not followed';

/**
 * Resolves `abs` with realpath. Returns null, after reporting, when the path leads outside the
 * project or cannot be resolved; 'absent' when nothing is there.
 */
const resolveInside = async (ctx: ReadContext, abs: string): Promise<string | 'absent' | null> => {
  try {
    const real = await fs.realpath(abs);
    if (isInside(ctx, real)) return real;
    report(ctx, abs, `${OUTSIDE} (target: ${real})`);
    return null;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      // A dangling symlink is worth a word; a file that simply is not there is normal.
      const link = await fs.lstat(abs).catch(() => null);
      if (link?.isSymbolicLink()) report(ctx, abs, 'symlink target does not exist; not followed');
      return 'absent';
    }
    report(ctx, abs, describeFsError(error));
    return null;
  }
};

/**
 * Reports a gated artifact that would be refused at approval (the same words the Inbox shows), unless
 * the file already has a problem of its own: one file, one complaint. `name` is the artifact's path
 * under its feature folder (`stories/S-1/story.json`), which decides its shape.
 */
export const checkShape = (ctx: ReadContext, abs: string, name: string, value: unknown): void => {
  const file = relativeFile(ctx, abs);
  if (ctx.problems.some((p) => p.file === file)) return;
  const problem = shapeProblem(name, value, ctx.layout);
  if (problem !== null) ctx.problems.push({ file, message: problem });
};

/** Reads and parses one JSON artifact. Absence is silent; every other failure is reported. */
export const readJson = async (ctx: ReadContext, abs: string): Promise<JsonRead> => {
  const real = await resolveInside(ctx, abs);
  if (real === 'absent') return { state: 'absent' };
  if (real === null) return { state: 'failed' };
  let text: string;
  try {
    // Only a regular file, never over the limit: a FIFO, a device or a folder in its place is
    // refused at once (a FIFO would otherwise block the read, and a thread of the pool, forever).
    text = (await withReadSlot(() => readRegularFile(real, { maxBytes: MAX_ARTIFACT_BYTES }))).toString('utf8');
  } catch (error) {
    if (isSafeReadError(error, 'missing')) return { state: 'absent' }; // removed since it was resolved
    report(ctx, abs, readRefusal(error));
    return { state: 'failed' };
  }
  // A byte-order mark is dropped; a syntax error is located; 1e999, a lone surrogate or nesting too
  // deep to walk is reported here, once, instead of throwing in whatever reads the value next.
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    report(ctx, abs, `is not valid JSON: ${parsed.detail}; fix the file or restore it from version control`);
    return { state: 'failed' };
  }
  if (parsed.hazard !== null) {
    report(ctx, abs, hazardMessage(parsed.hazard));
    // Too deep to walk safely: the file is not read. A bad number or string still leaves the rest readable.
    if (parsed.hazard.kind === 'depth') return { state: 'failed' };
  }
  return { state: 'ok', value: parsed.value };
};

/**
 * Lists a folder. Entries that are symlinks leading outside the project are reported and left
 * out; symlinks inside are classified by their target. A missing folder lists as empty.
 */
export const listDir = async (ctx: ReadContext, abs: string): Promise<DirEntry[]> => {
  const real = await resolveInside(ctx, abs);
  if (real === 'absent' || real === null) return [];
  let entries;
  try {
    entries = await withReadSlot(() => fs.readdir(real, { withFileTypes: true }));
  } catch (error) {
    // A file where a folder was expected is worth reporting; a missing one is not.
    if (codeOf(error) !== 'ENOENT') report(ctx, abs, describeFsError(error));
    return [];
  }
  const listed = await Promise.all(
    entries.map(async (entry): Promise<DirEntry | null> => {
      const entryPath = path.join(abs, entry.name);
      if (!entry.isSymbolicLink()) {
        return { name: entry.name, path: entryPath, isDirectory: entry.isDirectory(), isFile: entry.isFile() };
      }
      const target = await resolveInside(ctx, entryPath);
      if (target === 'absent' || target === null) return null;
      const stat = await fs.stat(target).catch(() => null);
      if (stat === null) return null;
      return { name: entry.name, path: entryPath, isDirectory: stat.isDirectory(), isFile: stat.isFile() };
    }),
  );
  return listed.filter((entry): entry is DirEntry => entry !== null);
};

/** The realpath of a folder inside the project, used to avoid walking a symlink loop twice. */
export const realDir = async (abs: string): Promise<string | null> => fs.realpath(abs).catch(() => null);

/**
 * Finds the folders behind a feature or story id. The reader names a feature by the id inside its
 * spec (falling back to the folder name), so the folder is found the same way: a gate names the id,
 * the disk is organised by folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readRegularFile } from '../platform/safe-read';
import { MAX_ARTIFACT_BYTES } from '../project';
import { isObject, pickString } from '../project/fields';

export interface Entry {
  readonly name: string;
  readonly isDirectory: boolean;
  readonly isFile: boolean;
}

/** A folder's entries, symlinks classified by their target; a missing folder lists as empty. */
export const listEntries = async (dir: string): Promise<Entry[]> => {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const listed = await Promise.all(
    entries.map(async (entry): Promise<Entry | null> => {
      if (!entry.isSymbolicLink()) return { name: entry.name, isDirectory: entry.isDirectory(), isFile: entry.isFile() };
      // Where the link leads is checked when the file is read (files.ts); here it only needs a kind.
      const stat = await fs.stat(path.join(dir, entry.name)).catch(() => null);
      return stat ? { name: entry.name, isDirectory: stat.isDirectory(), isFile: stat.isFile() } : null;
    }),
  );
  return listed.filter((entry): entry is Entry => entry !== null);
};

const within = (base: string, target: string): boolean => {
  const rel = path.relative(base, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
};

/**
 * Every file below `dir` at any depth, as `/`-separated paths relative to it: hidden files and
 * folders and every extension included. A symlinked folder is followed when it stays inside
 * `boundary` (never into one of its own ancestors: no cycles); one that leads elsewhere, or a folder
 * that cannot be listed, is listed itself, so reading it is refused by name (files.ts) rather than
 * its contents silently left out. A link to nothing holds no content and is left out.
 */
export const filesBelow = async (dir: string, boundary: string): Promise<string[]> => {
  const realBoundary = await fs.realpath(boundary).catch(() => boundary);
  const found: string[] = [];
  const walk = async (abs: string, rel: string, ancestors: ReadonlySet<string>): Promise<void> => {
    const real = await fs.realpath(abs).catch(() => null);
    if (real === null || ancestors.has(real)) return;
    const entries = await fs.readdir(abs, { withFileTypes: true }).catch(() => null);
    if (entries === null) {
      if (rel !== '') found.push(rel);
      return;
    }
    const chain = new Set([...ancestors, real]);
    for (const entry of entries) {
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const child = path.join(abs, entry.name);
      if (entry.isSymbolicLink()) {
        const target = await fs.realpath(child).catch(() => null);
        if (target === null) continue;
        const isDir = (await fs.stat(target).catch(() => null))?.isDirectory() ?? false;
        if (isDir && within(realBoundary, target)) await walk(child, name, chain);
        else found.push(name);
      } else if (entry.isDirectory()) await walk(child, name, chain);
      else found.push(name);
    }
  };
  await walk(dir, '', new Set());
  return found;
};

const idIn = async (file: string, keys: string[]): Promise<string | undefined> => {
  try {
    // Links are followed as the reader follows them, but only to a regular file of artifact size: a FIFO never blocks.
    const text = (await readRegularFile(await fs.realpath(file), { maxBytes: MAX_ARTIFACT_BYTES })).toString('utf8');
    const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    return isObject(value) ? pickString(value, ...keys) : undefined;
  } catch {
    return undefined;
  }
};

const visibleFolders = async (dir: string): Promise<string[]> =>
  (await listEntries(dir)).filter((e) => e.isDirectory && !e.name.startsWith('.')).map((e) => e.name);

/** Feature id → absolute feature folder, with the reader's rule: spec id, else the folder name. */
export const featureFolders = async (artifactRoot: string): Promise<Map<string, string>> => {
  const base = path.join(artifactRoot, 'features');
  const map = new Map<string, string>();
  for (const folder of (await visibleFolders(base)).sort()) {
    const dir = path.join(base, folder);
    const keys = ['feature_id', 'featureId', 'id'];
    // Baton writes feature.json; the reader accepts it only when feature-spec.json is absent.
    const spec = path.join(dir, 'feature-spec.json');
    const hasSpec = await fs.stat(spec).then(
      () => true,
      () => false,
    );
    const id = (await idIn(hasSpec ? spec : path.join(dir, 'feature.json'), keys)) ?? folder;
    if (!map.has(id)) map.set(id, dir);
  }
  return map;
};

/** Story id → folder name under `stories/`, by the id in story.json, else the folder name. */
export const storyFolders = async (featureDir: string): Promise<Map<string, string>> => {
  const base = path.join(featureDir, 'stories');
  const map = new Map<string, string>();
  for (const folder of (await visibleFolders(base)).sort()) {
    const id = (await idIn(path.join(base, folder, 'story.json'), ['id', 'story_id', 'storyId'])) ?? folder;
    if (!map.has(id)) map.set(id, folder);
  }
  return map;
};

/** The feature's folder, found by id exactly as the reader names features; null when none. */
export const featureFolder = async (artifactRoot: string, feature: string): Promise<string | null> => (await featureFolders(artifactRoot)).get(feature) ?? null;

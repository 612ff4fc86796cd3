/**
 * Finds the folders behind a feature or story id. The reader names a feature by the id inside its
 * spec (falling back to the folder name), so the folder is found the same way: a gate names the id,
 * the disk is organised by folder.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
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

const idIn = async (file: string, keys: string[]): Promise<string | undefined> => {
  try {
    const text = await fs.readFile(file, 'utf8');
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

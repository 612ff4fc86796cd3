/** Recently opened projects, remembered in the user's config folder (never inside a project). */
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { RecentProject } from '../../shared/model';
import { writeFileAtomic } from '../platform/atomic-write';

const MAX_RECENT = 10;
const FILE = 'recent-projects.json';

const recentSchema = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.string() }));

export async function loadRecent(configDir: string): Promise<RecentProject[]> {
  try {
    const parsed = recentSchema.safeParse(JSON.parse(await readFile(join(configDir, FILE), 'utf8')));
    // A damaged list is not worth an error dialog: start a fresh one.
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** One write at a time per config folder, so two opens at once cannot drop each other's entry. */
const writes = new Map<string, Promise<unknown>>();

export function rememberRecent(configDir: string, path: string, now: Date): Promise<RecentProject[]> {
  const next = (writes.get(configDir) ?? Promise.resolve()).catch(() => undefined).then(() => writeRecent(configDir, path, now));
  writes.set(configDir, next);
  return next;
}

async function writeRecent(configDir: string, path: string, now: Date): Promise<RecentProject[]> {
  const entry: RecentProject = { path, name: basename(path), openedAt: now.toISOString() };
  const list = [entry, ...(await loadRecent(configDir)).filter((r) => r.path !== path)].slice(0, MAX_RECENT);
  await writeFileAtomic(join(configDir, FILE), JSON.stringify(list, null, 2));
  return list;
}

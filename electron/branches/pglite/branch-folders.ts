/**
 * A branch's folder from birth to publication: the empty-database template, claiming a name,
 * publishing the metadata last (so a half-made branch is never listed), and describing a branch.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { BranchError, type DatabaseBranch } from '../provider';
import { dirSize } from './copy-dir';
import { writeJsonAtomic } from '../../platform/atomic-write';
import { pidAlive } from '../../platform/fs-facts';
import { dataOf, listHomes, readCreating, readMeta, removeDir, writeMeta, type BranchMeta, type PgliteLayout } from './layout';
import type { Reporter } from './progress';
import { initDataDir, stopServer } from './server-process';

const exists = (path: string): Promise<boolean> =>
  fs.access(path).then(
    () => true,
    () => false,
  );

/** initdb once per data folder (several seconds); every root is then a copy of it. Call under a lock. */
export async function ensureTemplate(layout: PgliteLayout, report: Reporter, signal?: AbortSignal): Promise<void> {
  if (await exists(join(layout.template, 'PG_VERSION'))) return;
  report.step('initialise empty database (first time only)');
  const staging = await layout.newStaging('template');
  try {
    await initDataDir(dataOf(staging), signal);
    await fs.rename(dataOf(staging), layout.template).catch(async (error: unknown) => {
      if (!(await exists(join(layout.template, 'PG_VERSION')))) throw error; // else another process won
    });
  } finally {
    await removeDir(staging);
  }
}

/** Claim `name` by making its folder (atomic across processes); a leftover from a crashed creation is reclaimed. */
export async function reserve(layout: PgliteLayout, name: string, parent: string): Promise<string> {
  const home = layout.home(name);
  await fs.mkdir(layout.branches, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(home);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await readMeta(home)) {
        throw new BranchError('exists', `A pglite database branch named "${name}" already exists. Pick another name, or reset or delete that branch.`);
      }
      const marker = await readCreating(home);
      // No marker yet: claimed a moment ago, or left by a crash between mkdir and the marker.
      const abandoned = marker ? !pidAlive(marker.pid) : Date.now() - (await fs.stat(home)).mtimeMs > 60_000;
      if (attempt > 0 || !abandoned) {
        throw new BranchError(
          'exists',
          `A pglite database branch named "${name}" is being created right now${marker ? ` (process ${marker.pid})` : ''}. Wait for it, or pick another name.`,
        );
      }
      await stopServer(home);
      await removeDir(home);
    }
  }
  await writeJsonAtomic(join(home, 'creating.json'), { pid: process.pid, parent });
  return home;
}

/** Fill a reserved home, then publish its metadata; on any failure (or cancel) remove every trace. */
export async function finishCreate(home: string, meta: BranchMeta, fill: () => Promise<void>): Promise<BranchMeta> {
  try {
    await fill();
    await writeMeta(home, meta);
    await fs.rm(join(home, 'creating.json'), { force: true });
    return meta;
  } catch (error) {
    await stopServer(home).catch(() => undefined);
    await removeDir(home);
    throw error;
  }
}

export async function describe(layout: PgliteLayout, meta: BranchMeta): Promise<DatabaseBranch> {
  const sizeBytes = await dirSize(dataOf(layout.home(meta.name)));
  let depth = 0;
  const seen = new Set<string>();
  for (let at = meta.parent; at !== null && !seen.has(at); at = (await readMeta(layout.home(at)))?.parent ?? null) {
    seen.add(at);
    depth++;
  }
  return { name: meta.name, parent: meta.parent, createdAt: meta.createdAt, sizeBytes, depth };
}

/** Branches (published or being created) whose parent is `name`. */
export async function childrenOf(layout: PgliteLayout, name: string): Promise<string[]> {
  const names = await listHomes(layout);
  const parents = await Promise.all(
    names.map(async (other) => (await readMeta(layout.home(other)))?.parent ?? (await readCreating(layout.home(other)))?.parent),
  );
  return names.filter((_, index) => parents[index] === name);
}

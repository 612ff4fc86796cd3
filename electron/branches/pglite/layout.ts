/**
 * Where the pglite provider keeps things, under `<dataDir>/pglite/`:
 *
 *   template/                  an initialised empty database (initdb runs once per data folder)
 *   branches/<name>/meta.json  {name, parent, createdAt, generation}; written last, so a branch
 *                              without it is half-made (see `creating.json`)
 *   branches/<name>/data/      the PGlite data directory
 *   branches/<name>/serve.json {pid, port, startedAt} while a server process serves it
 *   pool/<parent>/<gen>-<id>/  warm copies of a parent's data directory, valid for one generation
 *   staging/<id>/              work in progress (copies, prepared databases); removed on failure
 *
 * Metadata is plain JSON written by rename, so several processes (the app, a CLI) can share it.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../../platform/atomic-write';
import { isMissing } from '../../platform/fs-facts';
import { BranchError } from '../provider';

export interface BranchMeta {
  readonly name: string;
  readonly parent: string | null;
  readonly createdAt: string;
  /**
   * Bumped whenever the data may have been written (served, prepared, reset). A warm-pool copy is
   * tagged with the generation it was copied at and is used only while that is still current.
   */
  readonly generation: number;
  /** The process whose throwaway this is (CreateOptions.owned): its server exits when that process does. */
  readonly owner?: number;
  /** Its server runs at the lowest CPU priority (CreateOptions.background). */
  readonly background?: boolean;
}

/** Marks a branch directory whose creation is in progress in process `pid`. */
export interface CreatingMarker {
  readonly pid: number;
  readonly parent: string;
}

const NAME = /^[a-z0-9_-]{1,63}$/;

export function assertBranchName(name: string): void {
  if (!NAME.test(name)) {
    throw new BranchError('invalid', `"${name}" is not a valid database branch name: use 1–63 characters from a–z, 0–9, "_" and "-" (see sanitizeBranchName).`);
  }
}

export class PgliteLayout {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = join(dataDir, 'pglite');
  }
  get template(): string {
    return join(this.root, 'template');
  }
  get branches(): string {
    return join(this.root, 'branches');
  }
  get staging(): string {
    return join(this.root, 'staging');
  }
  home(name: string): string {
    return join(this.branches, name);
  }
  pool(parent: string): string {
    return join(this.root, 'pool', parent);
  }
  /** A fresh folder under staging/ (created), for one piece of work. */
  async newStaging(label: string): Promise<string> {
    await fs.mkdir(this.staging, { recursive: true });
    const dir = join(this.staging, `${label}-${randomUUID().slice(0, 8)}`);
    await fs.mkdir(dir);
    return dir;
  }
}

export const dataOf = (home: string): string => join(home, 'data');

export async function readMeta(home: string): Promise<BranchMeta | null> {
  try {
    return JSON.parse(await fs.readFile(join(home, 'meta.json'), 'utf8')) as BranchMeta;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export const writeMeta = (home: string, meta: BranchMeta): Promise<void> => writeJsonAtomic(join(home, 'meta.json'), meta);

/**
 * Mark the data as possibly written. Two processes bumping at once may lose one increment, but
 * the value still changes, which is all a pool entry's validity check needs.
 */
export async function bumpGeneration(home: string): Promise<number> {
  const meta = await readMeta(home);
  if (!meta) return 0;
  const generation = meta.generation + 1;
  await writeMeta(home, { ...meta, generation });
  return generation;
}

export async function readCreating(home: string): Promise<CreatingMarker | null> {
  try {
    return JSON.parse(await fs.readFile(join(home, 'creating.json'), 'utf8')) as CreatingMarker;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export async function listHomes(layout: PgliteLayout): Promise<string[]> {
  try {
    return (await fs.readdir(layout.branches)).filter((entry) => NAME.test(entry));
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

export const removeDir = (dir: string): Promise<void> => fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });

/**
 * The pairing registry: which git branch and worktree go with which database branch, in
 * `<dataDir>/branches.json`. It lives in the data folder (not the repository) because it names
 * machine paths. Writes are serialized in this process and locked across processes, and land
 * atomically (platform/atomic-write), so a crash leaves the old file or the new one, never half.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../platform/atomic-write';
import { acquireFileLock, releaseFileLock, serialize } from '../platform/file-lock';
import { BranchError } from './provider';

export const REGISTRY_FILE = 'branches.json';
const LOCK_TIMEOUT_MS = 10_000;

const entrySchema = z.looseObject({
  name: z.string().min(1),
  gitBranch: z.string().min(1),
  /** The parent pair's name; null for the root tier. */
  parent: z.string().nullable(),
  /** Absolute path, or null for the root tier (it uses the main checkout). */
  worktree: z.string().nullable(),
  createdAt: z.string(),
  ttlHours: z.number().positive().nullable(),
  masked: z.boolean(),
});
export type RegistryEntry = z.infer<typeof entrySchema>;

const fileSchema = z.looseObject({ version: z.literal(1), pairs: z.array(entrySchema) });

const registryPath = (dataDir: string) => path.join(dataDir, REGISTRY_FILE);

export async function readRegistry(dataDir: string): Promise<RegistryEntry[]> {
  const file = registryPath(dataDir);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  let parsed: z.ZodSafeParseResult<z.infer<typeof fileSchema>>;
  try {
    parsed = fileSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = { success: false } as z.ZodSafeParseResult<z.infer<typeof fileSchema>>;
  }
  if (!parsed.success) {
    throw new BranchError(
      'invalid',
      `The branch registry ${file} is not valid JSON of the expected shape. Move it aside and run \`baton branch list\` to see what remains; the database branches are not touched.`,
    );
  }
  return parsed.data.pairs;
}

/**
 * Reads, changes and writes the registry under its lock; `change` returns the new entries (or the
 * same array for no change) and a value handed back to the caller.
 */
export async function updateRegistry<T>(dataDir: string, change: (entries: RegistryEntry[]) => { entries: RegistryEntry[]; value: T }): Promise<T> {
  const file = registryPath(dataDir);
  return serialize(file, async () => {
    await fs.mkdir(dataDir, { recursive: true });
    const lockPath = `${file}.lock`;
    let lock: string;
    try {
      lock = await acquireFileLock(lockPath, LOCK_TIMEOUT_MS);
    } catch (cause) {
      throw new BranchError(
        'busy',
        `The branch registry ${file} is locked by another baton process. Try again when it has finished; if none is running, delete ${lockPath}.`,
        { cause },
      );
    }
    try {
      const before = await readRegistry(dataDir);
      const { entries, value } = change(before);
      if (entries !== before) await writeFileAtomic(file, JSON.stringify({ version: 1, pairs: entries }, null, 2) + '\n');
      return value;
    } finally {
      await releaseFileLock(lockPath, lock);
    }
  });
}

export const putEntry = (dataDir: string, entry: RegistryEntry): Promise<void> =>
  updateRegistry(dataDir, (entries) => ({ entries: [...entries.filter((e) => e.name !== entry.name), entry], value: undefined }));

export const removeEntry = (dataDir: string, name: string): Promise<boolean> =>
  updateRegistry(dataDir, (entries) => {
    const kept = entries.filter((e) => e.name !== name);
    return { entries: kept.length === entries.length ? entries : kept, value: kept.length !== entries.length };
  });

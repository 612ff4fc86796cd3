/**
 * Replaces a file so that a crash leaves the old content or the new, never half of either: write a
 * temporary file beside it, fsync it, rename it over the target, fsync the folder.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function writeFileAtomic(file: string, content: string | Uint8Array): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // The rename is durable only once the folder's entry is.
  const folder = await open(dir, 'r').catch(() => null);
  if (folder) {
    await folder.sync().catch(() => undefined);
    await folder.close();
  }
}

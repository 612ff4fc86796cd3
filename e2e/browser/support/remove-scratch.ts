/**
 * Removes a spec's scratch folder. A stopped run may still be finishing work it had started (a
 * PGlite template being copied into its data folder) for a moment after the host stops, so a
 * folder that is not empty yet is tried again for up to 30 s before the error is raised.
 */
import { rm } from 'node:fs/promises';

export async function removeScratch(dir: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await rm(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

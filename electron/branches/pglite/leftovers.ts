/** What killed processes left behind in a pglite data folder (PgliteProvider.collectLeftovers). */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { throwIfCancelled, type CallOptions } from '../provider';
import { pidAlive } from '../../platform/fs-facts';
import { listHomes, readCreating, readMeta, removeDir, type PgliteLayout } from './layout';
import { liveServer, stopServer } from './server-process';

export type LeftoverOptions = CallOptions & { readonly dryRun: boolean; readonly olderThanMs: number; readonly throwawayPrefix?: string };

/** Everything older than `cutoff` (ms since the epoch) that nobody finished or is serving. */
export async function collectLeftovers(layout: PgliteLayout, cutoff: number, options: LeftoverOptions): Promise<string[]> {
  throwIfCancelled(options.signal, 'Looking for leftover database folders');
  const found: Array<{ label: string; path: string; serve: boolean }> = [];
  for (const name of await listHomes(layout)) {
    const home = layout.home(name);
    const meta = await readMeta(home);
    if (meta) {
      if (name.startsWith(options.throwawayPrefix ?? 'tmp-') && Date.parse(meta.createdAt) < cutoff && !(await liveServer(home)))
        found.push({ label: name, path: home, serve: true });
      continue;
    }
    const marker = await readCreating(home);
    const stat = await fs.stat(home).catch(() => null);
    const abandoned = marker ? !pidAlive(marker.pid) : stat !== null && Date.now() - stat.mtimeMs > 60_000;
    if (abandoned) found.push({ label: `${name} (half-made)`, path: home, serve: true });
  }
  for (const entry of await fs.readdir(layout.staging).catch(() => [] as string[])) {
    const path = join(layout.staging, entry);
    const stat = await fs.stat(path).catch(() => null);
    if (stat && stat.mtimeMs < cutoff) found.push({ label: `staging/${entry}`, path, serve: false });
  }
  if (!options.dryRun) {
    for (const item of found) {
      if (item.serve) await stopServer(item.path).catch(() => undefined);
      await removeDir(item.path);
    }
  }
  return found.map((item) => item.label).sort();
}

/** Counts `cycle-NNN.json` records under `cycles/<F>/` (any depth: `<S>/<AC>/cycle-001.json`). */
import type { DirEntry, ReadContext } from './read-context';
import { listDir, realDir } from './read-context';

const CYCLE_FILE = /^cycle-\d+\.json$/;

export const countCycles = async (ctx: ReadContext, dir: string, visited = new Set<string>()): Promise<number> => {
  // A symlink inside the project may point back up the tree; each real folder is walked once.
  const real = await realDir(dir);
  if (real === null || visited.has(real)) return 0;
  visited.add(real);
  const entries: DirEntry[] = await listDir(ctx, dir);
  let count = entries.filter((entry) => entry.isFile && CYCLE_FILE.test(entry.name)).length;
  for (const entry of entries) {
    if (entry.isDirectory) count += await countCycles(ctx, entry.path, visited);
  }
  return count;
};

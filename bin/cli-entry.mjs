// Which code `baton` runs: the bundle `npm run build` writes (dist/cli/main.mjs), unless it is missing
// or a source file it was built from is newer (a checkout being edited), when the TypeScript runs
// through tsx instead, so what runs is always the code on disk. BATON_CLI=bundle|source forces one.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const mtime = (file) => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? null;

/** 'bundle' or 'source', for Baton's folder `root`. */
export function cliEntry(root, env = process.env) {
  if (env.BATON_CLI === 'source') return 'source';
  const built = mtime(join(root, 'dist', 'cli', 'main.mjs'));
  if (built === null) return 'source';
  if (env.BATON_CLI === 'bundle') return 'bundle';
  let sources;
  try {
    sources = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'sources.json'), 'utf8'));
  } catch {
    return 'source';
  }
  // A packaged install has no sources: the bundle is all there is.
  return Array.isArray(sources) && sources.every((file) => (mtime(join(root, file)) ?? 0) <= built) ? 'bundle' : 'source';
}

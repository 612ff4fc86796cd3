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

/**
 * A command's work is done (and said) when its main returns. Anything still holding the event loop
 * `ms` later (a stray child's pipe, a socket) is named on `err`, and the process exits anyway with
 * its exit code: a script waiting on `baton run` after Ctrl+C must not wait forever.
 */
export function exitWhenLingering(ms = 10_000, err = (text) => process.stderr.write(text)) {
  setTimeout(() => {
    const left = process.getActiveResourcesInfo().filter((what) => what !== 'Timeout');
    err(`baton: warning: still holding ${left.join(', ') || 'nothing named'} ${ms / 1000} s after finishing; exiting.\n`);
    process.exit();
  }, ms).unref();
}

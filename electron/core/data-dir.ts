/**
 * Where Baton keeps per-project machine state that must not live in the repository: database
 * branches' data directories, worktrees, the pairing registry, leases. BATON_DATA_DIR, else the
 * OS convention; one folder per project, named after the project and a hash of its real path.
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.BATON_DATA_DIR) return env.BATON_DATA_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Baton');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Baton', 'data');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'baton');
}

/** `<data>/projects/<name>-<8 hex of the root's path>`; pass the project's real (resolved) root. */
export function projectDataDir(root: string, dataDir: string = defaultDataDir()): string {
  const slug = basename(root).toLowerCase().replace(/[^a-z0-9_-]+/g, '-').slice(0, 40) || 'project';
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 8);
  return join(dataDir, 'projects', `${slug}-${hash}`);
}

/**
 * Where Baton keeps per-project machine state that must not live in the repository: database
 * branches' data directories, worktrees, the pairing registry, leases. BATON_DATA_DIR, else the
 * OS convention; one folder per project, named after the project and a hash of its real path.
 */
import { createHash } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { realpathSync } from 'node:fs';
import { basename, join, sep } from 'node:path';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, root?: string): string {
  if (env.BATON_DATA_DIR) return env.BATON_DATA_DIR;
  // A throwaway project (the demo, a test) keeps its databases beside it in the temp folder, so
  // they go when the temp folder is cleaned instead of piling up in the user's data folder.
  const temp = realTmpdir();
  if (root && (root === temp || root.startsWith(temp + sep))) return join(temp, 'baton-data');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Baton');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Baton', 'data');
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'baton');
}

function realTmpdir(): string {
  try {
    return realpathSync(tmpdir());
  } catch {
    return tmpdir();
  }
}

/** `<data>/projects/<name>-<8 hex of the root's path>`; pass the project's real (resolved) root. */
export function projectDataDir(root: string, dataDir: string = defaultDataDir(process.env, process.platform, root)): string {
  const slug =
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .slice(0, 40) || 'project';
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 8);
  return join(dataDir, 'projects', `${slug}-${hash}`);
}

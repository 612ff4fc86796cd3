/** Where Baton keeps per-user state (recent projects, later keys): BATON_CONFIG_DIR, else the OS convention. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.BATON_CONFIG_DIR) return env.BATON_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Baton');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Baton');
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'baton');
}

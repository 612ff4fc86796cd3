/**
 * What every host passes its Workbench by default: which host it is, Baton's own version and the
 * per-user config folder (BATON_CONFIG_DIR, else the OS convention). Light on purpose: `baton
 * --version` loads only this.
 */
import { join } from 'node:path';
import { defaultConfigDir } from '../platform/config-dir';
import { packageRoot } from '../platform/package-root';
import { readVersion } from '../platform/version';
import type { WorkbenchOptions } from './workbench';

export function hostDefaults(host: WorkbenchOptions['host']): Pick<WorkbenchOptions, 'host' | 'version' | 'configDir' | 'watch'> {
  // The long-lived hosts follow the folder as other processes change it; a CLI command is over first.
  return { host, version: readVersion(), configDir: defaultConfigDir(), watch: host !== 'cli' };
}

/** The built workbench the browser host serves (`npm run build` writes it). */
export const rendererDir = (): string => join(packageRoot(import.meta.url), 'dist', 'renderer');

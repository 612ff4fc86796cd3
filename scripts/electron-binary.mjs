// Where the Electron binary is, or why there is none (installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1 have none).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron');
    if (typeof path === 'string' && existsSync(path)) return { path, reason: null };
    return { path: null, reason: 'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or its download failed)' };
  } catch (cause) {
    return { path: null, reason: `no Electron binary on this machine (${cause.message.split('\n')[0]})` };
  }
}

// Where the Electron binary is, or why there is none, in words for the line `npm start` prints.
// Electron's own index.js throws "Electron failed to install correctly" whenever its install script
// wrote no path.txt, which is also what ELECTRON_SKIP_BINARY_DOWNLOAD=1 does on purpose (a failed
// download fails `npm ci` instead), so the package's files are read here rather than required.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function electronBinary() {
  let dir;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { path: null, reason: 'Electron is not installed (no node_modules/electron; `npm ci` installs it)' };
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile) && !process.env.ELECTRON_OVERRIDE_DIST_PATH)
    return { path: null, reason: 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD)' };
  const executable = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
  // As Electron's index.js finds it: ELECTRON_OVERRIDE_DIST_PATH wins over the downloaded dist/.
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const path = override ? join(override, executable) : join(dir, 'dist', executable);
  if (existsSync(path)) return { path, reason: null };
  return { path: null, reason: `Electron binary missing at ${path} (its download did not finish: delete node_modules/electron and run \`npm ci\` again)` };
}

/**
 * Baton's own install folder (where package.json, resources/ and node_modules/ are), found by
 * walking up from the calling module. Works from the TypeScript sources (CLI through tsx) and from
 * the bundled dist/electron/main.cjs alike, where relative `../..` paths would differ.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'baton') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`Baton's package.json was not found above ${fileURLToPath(moduleUrl)}; reinstall Baton.`);
    dir = up;
  }
}

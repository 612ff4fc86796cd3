/** Baton's version, read once from package.json beside the sources. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function readVersion(packageJsonUrl = new URL('../../package.json', import.meta.url)): string {
  try {
    return (JSON.parse(readFileSync(fileURLToPath(packageJsonUrl), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

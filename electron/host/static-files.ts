/**
 * Serves the built renderer from one folder: only regular files whose real path (symlinks
 * followed) is inside it; never a directory, FIFO, device or a symlink that leaves the folder.
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/** Never blocks on a FIFO swapped in after the check (POSIX only; Windows has no such flag). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export async function serveStatic(root: string, urlPath: string, response: ServerResponse): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath === '/' ? '/index.html' : urlPath);
  } catch {
    // A malformed %-escape (`/%E0%A4%A`) is the client's mistake, not a server failure.
    return send(response, 400, 'Bad request: the path has a malformed %-escape.');
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  // Resolved, so a root given as `dist/renderer/` or `./dist/renderer` still contains its own files.
  const base = resolve(root);
  const file = join(base, relative);
  if (!file.startsWith(base + sep) || relative.split(/[/\\]/).includes('..')) {
    return send(response, 404, 'Not found');
  }
  const real = await insideRealRoot(base, file);
  // Checked before opening: opening a FIFO for reading waits for a writer.
  if (!real || !(await stat(real).catch(() => null))?.isFile()) return send(response, 404, 'Not found');
  const handle = await open(real, OPEN_FLAGS).catch(() => null);
  if (!handle) return send(response, 404, 'Not found');
  // The file actually opened, in case it was replaced between the checks and the open.
  const info = await handle.stat().catch(() => null);
  if (!info?.isFile()) {
    await handle.close().catch(() => undefined);
    return send(response, 404, 'Not found');
  }
  response.writeHead(200, {
    'Content-Type': TYPES[extname(real)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': extname(real) === '.html' ? 'no-store' : 'private, max-age=3600',
  });
  // pipeline closes the file when the client goes away mid-transfer and turns a read error into a
  // dropped response instead of an unhandled 'error' event.
  pipeline(handle.createReadStream(), response, () => undefined);
}

/** The file's real path when it (symlinks followed) stays inside the root's real path; else null. */
async function insideRealRoot(base: string, file: string): Promise<string | null> {
  const [realBase, real] = await Promise.all([realpath(base).catch(() => null), realpath(file).catch(() => null)]);
  return realBase && real?.startsWith(realBase + sep) ? real : null;
}

export function send(response: ServerResponse, status: number, text: string): void {
  // Too late for a status line once the headers are out: drop the connection so the client sees a failure.
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text + '\n');
}

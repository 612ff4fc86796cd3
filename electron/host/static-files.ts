/** Serves the built renderer from one folder; never a path outside it. */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

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
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return send(response, 404, 'Not found');
  response.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': extname(file) === '.html' ? 'no-store' : 'private, max-age=3600',
  });
  createReadStream(file).pipe(response);
}

export function send(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text + '\n');
}

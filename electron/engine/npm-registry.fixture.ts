/**
 * Test helper: a tiny npm registry on loopback that a real `npm install` talks to, replaying the
 * registry's documented shapes — `GET /<name>` answers the packument (`name`, `dist-tags`,
 * `versions.<v>.dist.{tarball, shasum, integrity}`), `GET /-/<file>.tgz` the tarball (made with
 * `tar` from the given files under `package/`). Everything else is 404, like an unknown package.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../project/temp-project.fixture';

const exec = promisify(execFile);

export interface FakePackage {
  readonly name: string;
  readonly version: string;
  /** Files of the package besides package.json. */
  readonly files: Record<string, string>;
  readonly dependencies?: Record<string, string>;
}

export interface FakeRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** Every path asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startRegistry(packages: readonly FakePackage[]): Promise<FakeRegistry> {
  const work = await makeTempDir('baton-registry-');
  const tarballs = new Map<string, Buffer>();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0]!);
    requests.push(path);
    const tarball = tarballs.get(path);
    if (tarball) {
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      return;
    }
    const name = path.slice(1);
    const versions = packages.filter((p) => p.name === name);
    if (versions.length === 0) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(packument(name, versions)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const dists = new Map<FakePackage, { tarball: string; shasum: string; integrity: string }>();
  for (const p of packages) {
    const dir = join(work, `${p.name.replace('/', '__')}-${p.version}`);
    const manifest = { name: p.name, version: p.version, main: 'index.js', ...(p.dependencies ? { dependencies: p.dependencies } : {}) };
    for (const [file, content] of Object.entries({ 'package.json': JSON.stringify(manifest), ...p.files })) {
      await mkdir(dirname(join(dir, 'package', file)), { recursive: true });
      await writeFile(join(dir, 'package', file), content);
    }
    await exec('tar', ['-czf', join(dir, 'package.tgz'), '-C', dir, 'package']);
    const bytes = await readFile(join(dir, 'package.tgz'));
    const file = `/-/${p.name.replace('/', '__')}-${p.version}.tgz`;
    tarballs.set(file, bytes);
    dists.set(p, {
      tarball: `${url}${file.slice(1)}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
    });
  }
  function packument(name: string, versions: readonly FakePackage[]) {
    return {
      name,
      'dist-tags': { latest: versions.at(-1)!.version },
      versions: Object.fromEntries(
        versions.map((p) => [p.version, { name, version: p.version, ...(p.dependencies ? { dependencies: p.dependencies } : {}), dist: dists.get(p) }]),
      ),
    };
  }
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

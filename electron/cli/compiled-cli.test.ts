/**
 * The compiled CLI: `baton` runs the bundle `npm run build` writes, falls back to the TypeScript
 * when a source is newer, and the bundle answers exactly as the source does.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEntry } from '../../bin/cli-entry.mjs';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'baton.mjs');
const BUILT = existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.mjs'));

let root: string;
const SOURCE = 'electron/cli/main.ts';
const at = (seconds: number): Date => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'baton-cli-entry-'));
  await mkdir(join(root, 'dist', 'cli'), { recursive: true });
  await mkdir(join(root, 'electron', 'cli'), { recursive: true });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A Baton folder whose bundle was built at second 10 from one source last written at `sourceAt` (null: no source, as installed). */
async function folder(sourceAt: number | null, sources: unknown = [SOURCE]): Promise<string> {
  await writeFile(join(root, 'dist', 'cli', 'main.mjs'), 'export const main = async () => 0;\n');
  await writeFile(join(root, 'dist', 'cli', 'sources.json'), JSON.stringify(sources));
  await utimes(join(root, 'dist', 'cli', 'main.mjs'), at(10), at(10));
  await rm(join(root, SOURCE), { force: true });
  if (sourceAt !== null) {
    await writeFile(join(root, SOURCE), '// source\n');
    await utimes(join(root, SOURCE), at(sourceAt), at(sourceAt));
  }
  return root;
}

describe('which code baton runs', () => {
  it('runs the bundle when every source it was built from is older', async () => {
    expect(cliEntry(await folder(5), {})).toBe('bundle');
  });

  it('runs the source when one of them was edited after the build', async () => {
    expect(cliEntry(await folder(20), {})).toBe('source');
  });

  it('runs the bundle when the sources are not there (an installed copy)', async () => {
    expect(cliEntry(await folder(null), {})).toBe('bundle');
  });

  it('runs the source when there is no bundle or its list of sources is unreadable', async () => {
    await folder(5, 'not a list');
    expect(cliEntry(root, {})).toBe('source');
    await rm(join(root, 'dist', 'cli', 'main.mjs'));
    expect(cliEntry(root, { BATON_CLI: 'bundle' })).toBe('source');
  });

  it('BATON_CLI forces one or the other', async () => {
    expect(cliEntry(await folder(20), { BATON_CLI: 'bundle' })).toBe('bundle');
    expect(cliEntry(await folder(5), { BATON_CLI: 'source' })).toBe('source');
  });
});

describe('a command that finished', () => {
  it('exits with its code even when something still holds the event loop, naming it', async () => {
    const script = `
      const { exitWhenLingering } = await import(${JSON.stringify(join(REPO_ROOT, 'bin', 'cli-entry.mjs'))});
      (await import('node:net')).createServer().listen(0, '127.0.0.1');
      process.exitCode = 3;
      exitWhenLingering(300);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(3);
    expect(stderr).toMatch(/^baton: warning: still holding TCPServerWrap.* 0\.3 s after finishing; exiting\.$/m);
  });

  it('exits at once when nothing holds it', async () => {
    const script = `const { exitWhenLingering } = await import(${JSON.stringify(join(REPO_ROOT, 'bin', 'cli-entry.mjs'))}); exitWhenLingering(60_000);`;
    const started = Date.now();
    const { stderr } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(stderr).toBe('');
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe.skipIf(!BUILT)('the bundle (dist/cli, from npm run build)', () => {
  if (!BUILT) console.warn('compiled-cli.test: dist/cli/main.mjs is not built (run `npm run build`); skipping the bundle checks');

  const baton = async (env: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
    try {
      const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, BATON_CLI: env } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };

  it('answers --help, --version, a usage error and inspect exactly as the source does', async () => {
    const fixture = join(REPO_ROOT, 'e2e', 'fixtures', 'consort-shop');
    for (const args of [['--help'], ['--version'], ['inspect', '--help'], ['frobnicate'], ['inspect', fixture, '--json']]) {
      const [bundled, source] = await Promise.all([baton('bundle', ...args), baton('source', ...args)]);
      expect(bundled, args.join(' ')).toEqual(source);
    }
  });

  it('finds its own files from the bundle: the renderer serve hands out, the demo project demo copies', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--json'], { env: { ...process.env, BATON_CLI: 'bundle' } });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()));
        server.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const { url } = JSON.parse(first) as { url: string };
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      server.kill('SIGINT');
    }
    const demo = await baton('bundle', 'demo', '--no-run', '--json');
    expect(demo.code).toBe(0);
    const { project } = JSON.parse(demo.stdout) as { project: string };
    expect(existsSync(join(project, '.baton', 'project.json'))).toBe(true);
    await rm(project, { recursive: true, force: true });
  });
});

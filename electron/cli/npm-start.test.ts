/**
 * `npm start` (scripts/start.mjs) on a checkout whose Electron install is in each state it can be
 * in: the download skipped on purpose (ELECTRON_SKIP_BINARY_DOWNLOAD: no path.txt), a download that
 * never finished (path.txt, no binary), and a binary present. Each runs in a copy of the scripts
 * beside a stand-in node_modules/electron, so the test never depends on this machine's Electron.
 */
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = join(REPO_ROOT, 'e2e', 'fixtures', 'consort-shop');

let checkout: string;
afterEach(() => rm(checkout, { recursive: true, force: true }));

/** A checkout with start.mjs, the real `baton` (bin/ links to this repo's), a built-looking dist/ and the given electron package files. */
async function makeCheckout(electron: Record<string, string>): Promise<void> {
  checkout = await mkdtemp(join(tmpdir(), 'baton-npm-start-'));
  await mkdir(join(checkout, 'scripts'));
  for (const file of ['start.mjs', 'electron-binary.mjs']) await copyFile(join(REPO_ROOT, 'scripts', file), join(checkout, 'scripts', file));
  await symlink(join(REPO_ROOT, 'bin'), join(checkout, 'bin'));
  // start.mjs only asks whether the build exists; the browser host serves this repo's own dist/.
  for (const built of ['dist/renderer/index.html', 'dist/electron/main.cjs']) {
    await mkdir(join(checkout, built, '..'), { recursive: true });
    await writeFile(join(checkout, built), '');
  }
  const pkg = join(checkout, 'node_modules', 'electron');
  await mkdir(pkg, { recursive: true });
  // Electron's own index.js: without path.txt it throws "Electron failed to install correctly".
  await copyFile(join(REPO_ROOT, 'node_modules', 'electron', 'index.js'), join(pkg, 'index.js'));
  const files = { 'package.json': JSON.stringify({ name: 'electron', version: '0.0.0-test', main: 'index.js' }), ...electron };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(pkg, name, '..'), { recursive: true });
    await writeFile(join(pkg, name), content);
  }
}

/** Runs `npm start -- <fixture>` in the checkout until `until` matches its output, then stops it. */
async function npmStart(until: RegExp): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', FIXTURE], {
    cwd: checkout,
    env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '', BATON_CONFIG_DIR: join(checkout, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      if (until.test(stdout)) resolve();
    });
    void exited.then(() => resolve());
  });
  if (child.exitCode === null) child.kill('SIGTERM');
  await exited;
  return { stdout, stderr };
}

describe('npm start', () => {
  it('installed with ELECTRON_SKIP_BINARY_DOWNLOAD: says the binary is not installed and opens the browser host, never "failed to install"', async () => {
    await makeCheckout({});
    const { stdout, stderr } = await npmStart(/Baton is serving/);
    expect(stdout.split('\n')[0]).toBe('Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD): opening the browser host');
    expect(stdout).toMatch(/Baton is serving .*consort-shop at http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(`${stdout}${stderr}`).not.toMatch(/failed to install/);
  }, 60_000);

  it('a download that never finished: names the missing binary and what to do, and opens the browser host', async () => {
    await makeCheckout({ 'path.txt': 'electron' });
    const { stdout } = await npmStart(/Baton is serving/);
    expect(stdout.split('\n')[0]).toMatch(
      /^Electron binary missing at .*node_modules\/electron\/dist\/electron \(its download did not finish: delete node_modules\/electron and run `npm ci` again\): opening the browser host$/,
    );
  }, 60_000);

  it('with the binary present: starts the desktop app on the project', async () => {
    await makeCheckout({ 'path.txt': 'electron', 'dist/electron': '#!/bin/sh\necho "desktop app: $*"\n' });
    await chmod(join(checkout, 'node_modules', 'electron', 'dist', 'electron'), 0o755);
    const { stdout } = await npmStart(/desktop app/);
    expect(stdout.trim()).toBe(`desktop app: . ${FIXTURE}`);
  }, 60_000);
});

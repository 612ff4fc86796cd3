import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { main } from './main';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'baton.mjs');
const RENDERER_INDEX = join(REPO_ROOT, 'dist', 'renderer', 'index.html');

let base: string;
let project: string;
let configDir: string;
/** Why the tests that need the built renderer cannot run, or null when they can. */
let notBuilt: string | null = null;
const children: ChildProcess[] = [];

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-'));
  configDir = join(base, 'config');
  project = join(base, 'shop');
  await mkdir(join(project, '.consort', 'features', 'F1'), { recursive: true });
  await writeFile(join(project, '.consort', 'features', 'F1', 'test-list.json'), JSON.stringify([{ id: 'T1', status: 'red' }]));
  if (!existsSync(RENDERER_INDEX)) {
    await promisify(execFile)('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts'], { cwd: REPO_ROOT, timeout: 180_000 }).catch(
      (cause: Error) => (notBuilt = `${RENDERER_INDEX} is missing and \`npx vite build --config renderer/vite.config.ts\` failed: ${cause.message}`),
    );
  }
}, 200_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(base, { recursive: true, force: true });
});

function needsRenderer(context: TestContext): void {
  if (notBuilt) {
    console.warn(`skipped: ${notBuilt}`);
    context.skip(notBuilt);
  }
}

/** `baton serve` through the real binary, with its own config folder. */
function serve(...argv: string[]): ChildProcess {
  const child = spawn(process.execPath, [BIN, 'serve', ...argv], {
    cwd: REPO_ROOT,
    env: { ...process.env, BATON_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess): Promise<number | null> =>
  child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));

/** Everything the child printed on stdout until `done` accepts it (or the child exits). */
function output(child: ChildProcess, done: (text: string) => boolean): Promise<string> {
  let text = '';
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += String(chunk)));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      text += String(chunk);
      if (done(text)) resolve(text);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its address. stderr: ${errors}`)));
  });
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    }).on('error', reject);
  });
}

describe('baton serve (the real binary)', () => {
  it('--json prints {url, port, project}; the URL serves the renderer; SIGTERM exits 0', async (context) => {
    needsRenderer(context);
    const child = serve(project, '--port', '0', '--json');
    const printed = JSON.parse(await output(child, parses)) as { url: string; port: number; project: string };
    expect(printed.project).toBe(project);
    expect(printed.port).toBeGreaterThan(0);
    expect(printed.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${printed.port}/\\?token=[A-Za-z0-9_-]{32}$`));

    const page = await get(printed.url);
    expect(page.status).toBe(200);
    expect(page.body).toBe(await readFile(RENDERER_INDEX, 'utf8'));
    // The page's script loads on the cookie alone, as a browser would fetch it.
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    const cookie = (page.headers['set-cookie'] ?? [])[0]?.split(';')[0] ?? '';
    expect(script).toBeDefined();
    const asset = await get(`http://127.0.0.1:${printed.port}/${script}`, { cookie });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await get(`http://127.0.0.1:${printed.port}/`)).status).toBe(401);

    // The project went into the recent list of the config folder it was given, not the user's.
    const recent = JSON.parse(await readFile(join(configDir, 'recent-projects.json'), 'utf8')) as { path: string }[];
    expect(recent.map((r) => r.path)).toEqual([project]);

    child.kill('SIGTERM');
    expect(await exited(child)).toBe(0);
  });

  it('prints the URL for a person, and with --person one URL of their own each that opens the workbench; stops on SIGINT', async (context) => {
    needsRenderer(context);
    const child = serve('--port', '0', '--person', 'Ada', '--person', 'Bo Li');
    const text = await output(child, (t) => t.includes('Ctrl+C') && t.includes('their own URL'));
    expect(text).toMatch(/Baton is serving \(no project yet\) at http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    const urls = [...text.matchAll(/(\S.*)'s own URL: (http:\/\/\S+)/g)].map((m) => [m[1], m[2]!]);
    expect(urls.map(([name]) => name)).toEqual(['Ada', 'Bo Li']);
    const owner = /at (http:\/\/\S+)/.exec(text)![1]!;
    // Three different tokens, each opening the workbench.
    expect(new Set([owner, ...urls.map(([, url]) => url)]).size).toBe(3);
    for (const [, url] of urls) expect((await get(url!)).status).toBe(200);
    child.kill('SIGINT');
    expect(await exited(child)).toBe(0);
  });

  it('refuses an empty --port as a usage error instead of picking a port', async () => {
    const child = serve('--port', '', '--json');
    // If the empty string is taken as port 0 the host starts and waits for a signal: stop it.
    const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
    const code = await exited(child);
    clearTimeout(timer);
    expect(code).toBe(2);
  });
});

describe('baton serve (in-process failures)', () => {
  it.each([
    [['--person', ''], 'takes a name of 1–40'],
    [['--person', 'x'.repeat(41)], 'takes a name of 1–40'],
    [['--person', 'Ada\u001b[2J'], 'takes a name of 1–40'],
    [['--person', 'Owner'], 'that name is the URL'],
    [['--person', 'Ada', '--person', 'ada'], 'is given twice'],
  ])('--person %j is a usage error (exit 2) that says what a name may be, before listening', async (args, words) => {
    const err: string[] = [];
    const code = await main(['serve', ...args], { out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(2);
    expect(err.join('\n')).toContain(words);
  });

  it('a folder that is not a project: exit 1 before listening', async (context) => {
    needsRenderer(context);
    const err: string[] = [];
    const code = await main(['serve', join(base, 'missing')], { out: () => undefined, err: (t) => err.push(t) });
    expect(code).toBe(1);
    expect(err.join('\n')).toContain(`${join(base, 'missing')} does not exist`);
  });

  it('a port already taken: exit 1 suggesting another', async (context) => {
    needsRenderer(context);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const out: string[] = [];
      const code = await main(['serve', '--port', String(port), '--json'], { out: (t) => out.push(t), err: () => undefined });
      expect(code).toBe(1);
      expect(JSON.parse(out.join('\n'))).toMatchObject({ ok: false, error: { code: 'listen-failed', message: expect.stringContaining(`port ${port}`) } });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

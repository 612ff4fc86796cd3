import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSettingsSchema } from '../project/settings';
import { readVersion } from '../platform/version';
import { main } from './main';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'baton.mjs');

let base: string;
let dirCount = 0;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-'));
  // Git must not find a repository above the temp folder (a TMPDIR inside a checkout, say).
  process.env.GIT_CEILING_DIRECTORIES = base;
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function freshDir(prefix: string): Promise<string> {
  const dir = join(base, `${prefix}-${++dirCount}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A real git repository: a node package with a test script and a plain-SQL migrations folder. */
async function gitRepo(branch = 'main'): Promise<string> {
  const root = await freshDir('repo');
  await run('git', ['init', '-q', '-b', branch, root]);
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'shop', scripts: { test: 'node --test' } }));
  await mkdir(join(root, 'migrations'));
  await writeFile(join(root, 'migrations', '001_init.sql'), 'create table items (id int);\n');
  return root;
}

async function consortProject(testList: string): Promise<string> {
  const root = await freshDir('consort');
  await mkdir(join(root, '.consort', 'features', 'F1'), { recursive: true });
  await writeFile(join(root, '.consort', 'features', 'F1', 'feature-spec.json'), JSON.stringify({ feature_id: 'F1', name: 'Checkout' }));
  await writeFile(join(root, '.consort', 'features', 'F1', 'test-list.json'), testList);
  return root;
}

/** Runs `baton` in-process with its output captured. */
async function baton(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs the real binary, as a shell would. */
async function binary(...argv: string[]) {
  return run('node', [BIN, ...argv], { cwd: REPO_ROOT, timeout: 30_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (failure: { code: number; stdout: string; stderr: string }) => ({ code: failure.code, stdout: failure.stdout, stderr: failure.stderr }),
  );
}

describe('baton: arguments', () => {
  it.each([['--help'], ['-h'], ['help']])('%s prints the usage and exits 0', async (flag) => {
    const { code, out, err } = await baton(flag);
    expect(code).toBe(0);
    expect(out).toContain('Usage: baton <command>');
    expect(out).toMatch(/init <dir>[\s\S]*inspect <dir>[\s\S]*serve \[dir\|bundle\]/);
    expect(err).toBe('');
  });

  it.each([['--version'], ['-v']])("%s prints package.json's version", async (flag) => {
    const { code, out } = await baton(flag);
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(code).toBe(0);
    expect(out).toBe(version);
    expect(readVersion()).toBe(version);
  });

  it.each([
    ['no command', [], /no command given/],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['an unknown option', ['inspect', '.', '--bogus'], /--bogus/],
    ['a missing option value', ['serve', '--port'], /--port/],
    ['init without a folder', ['init'], /init takes one folder/],
    ['inspect with two folders', ['inspect', 'a', 'b'], /inspect takes one folder/],
    ['serve with two folders', ['serve', 'a', 'b'], /serve takes at most one folder/],
    ['a port that is not a number', ['serve', '--port', 'abc'], /--port must be a whole number.*"abc"/],
    ['a port out of range', ['serve', '--port', '70000'], /--port must be a whole number/],
    ['a fractional port', ['serve', '--port', '80.5'], /--port must be a whole number/],
    ['an idle timeout of no seconds', ['serve', '--idle-timeout', '0'], /--idle-timeout takes whole seconds, at least 1.*"0"/],
  ])('%s is a usage error: exit 2, a message on stderr, nothing on stdout', async (_label, argv, message) => {
    const { code, out, err } = await baton(...argv);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toContain('baton --help');
    expect(out).toBe('');
  });

  it('the real binary exits 0 for --help, 2 for an unknown command, 1 for a missing folder', async () => {
    const help = await binary('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: baton');
    const unknown = await binary('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const missing = await binary('inspect', join(base, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(join(base, 'nowhere'));
    expect(missing.stderr).not.toMatch(/\bat .*\.ts:\d+/); // a message, not a stack trace
  });
});

describe('baton init', () => {
  it('refuses a folder that is not a git repository and creates nothing', async () => {
    const dir = await freshDir('plain');
    const { code, err } = await baton('init', dir);
    expect(code).toBe(1);
    expect(err).toContain('not a git repository');
    expect(err).toContain('git init');
    expect(existsSync(join(dir, '.baton'))).toBe(false);
  });

  it('refuses a folder that does not exist', async () => {
    const { code, err } = await baton('init', join(base, 'missing'));
    expect(code).toBe(1);
    expect(err).toContain(`${join(base, 'missing')} is not a folder`);
  });

  it('writes .baton/project.json with detected defaults and an empty ledger', async () => {
    const root = await gitRepo();
    const { code, out } = await baton('init', root);
    expect(code).toBe(0);
    expect(out).toContain(`Created ${join(root, '.baton', 'project.json')}`);
    const settings = projectSettingsSchema.parse(JSON.parse(await readFile(join(root, '.baton', 'project.json'), 'utf8')));
    expect(settings).toMatchObject({
      name: basename(root),
      defaultBranch: 'main',
      testCommand: 'npm test',
      migrations: { tool: 'sql', path: 'migrations' },
    });
    expect(await readFile(join(root, '.baton', 'ledger', 'events.jsonl'), 'utf8')).toBe('');
    for (const folder of ['features', 'ledger/blobs', 'state']) {
      expect((await stat(join(root, '.baton', folder))).isDirectory()).toBe(true);
    }
  });

  it("takes the default branch from the repository's current branch", async () => {
    const root = await gitRepo('trunk');
    expect((await baton('init', root)).code).toBe(0);
    expect(JSON.parse(await readFile(join(root, '.baton', 'project.json'), 'utf8'))).toMatchObject({ defaultBranch: 'trunk' });
  });

  it('never overwrites without --force; --force rewrites the settings but keeps the ledger', async () => {
    const root = await gitRepo();
    const settingsFile = join(root, '.baton', 'project.json');
    const ledger = join(root, '.baton', 'ledger', 'events.jsonl');
    expect((await baton('init', root)).code).toBe(0);
    const edited = (await readFile(settingsFile, 'utf8')).replace('"npm test"', '"make test"');
    await writeFile(settingsFile, edited);
    await appendFile(ledger, '{"seq":1}\n');

    const again = await baton('init', root);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');
    expect(again.err).toContain('--force');
    expect(await readFile(settingsFile, 'utf8')).toBe(edited);

    const forced = await baton('init', root, '--force');
    expect(forced.code).toBe(0);
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toMatchObject({ testCommand: 'npm test' });
    expect(await readFile(ledger, 'utf8')).toBe('{"seq":1}\n');
  });

  it('--ci github writes a workflow that runs baton verify on pull requests, also on a project that has its settings, never over one', async () => {
    const fresh = await gitRepo('trunk');
    const made = await baton('init', fresh, '--ci', 'github');
    expect(made.code, made.err).toBe(0);
    const workflow = await readFile(join(fresh, '.github', 'workflows', 'baton.yml'), 'utf8');
    expect(workflow).toContain('on:\n  pull_request:\n  push:\n    branches: ["trunk"]');
    expect(workflow).toContain('run: npx --no-install baton verify . --rerun');
    expect(workflow).not.toMatch(/\t/);

    const existing = await gitRepo();
    expect((await baton('init', existing)).code).toBe(0);
    const settings = await readFile(join(existing, '.baton', 'project.json'), 'utf8');
    const added = await baton('init', existing, '--ci', 'github');
    expect(added.code, added.err).toBe(0);
    expect(added.out).toContain('baton.yml: pull requests now run `baton verify`');
    expect(await readFile(join(existing, '.baton', 'project.json'), 'utf8')).toBe(settings);
    const twice = await baton('init', existing, '--ci', 'github');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('baton.yml already exists');
    expect((await baton('init', existing, '--ci', 'gitlab')).code).toBe(2);
  });

  it('--json prints one parseable document, on success and on failure', async () => {
    const root = await gitRepo();
    const ok = await baton('init', root, '--json');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({
      ok: true,
      root,
      settingsFile: join(root, '.baton', 'project.json'),
      settings: { testCommand: 'npm test', migrations: { tool: 'sql', path: 'migrations' } },
      created: expect.arrayContaining([join(root, '.baton', 'ledger')]),
    });
    const failed = await baton('init', await freshDir('plain'), '--json');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.out)).toMatchObject({ ok: false, error: { code: 'not-a-git-repository' } });
  });
});

describe('baton inspect', () => {
  it('a missing folder: exit 1 with a message naming it', async () => {
    const missing = join(base, 'no-such-project');
    const { code, err, out } = await baton('inspect', missing);
    expect(code).toBe(1);
    expect(err).toContain(`${missing} does not exist`);
    expect(out).toBe('');
  });

  it('a folder with no artifacts: exit 1 pointing at baton init', async () => {
    const { code, err } = await baton('inspect', await freshDir('empty'));
    expect(code).toBe(1);
    expect(err).toContain('baton init');
  });

  it('--json on a Consort project prints the report', async () => {
    const root = await consortProject(
      JSON.stringify([
        { id: 'T1', status: 'green', kind: 'behavior' },
        { id: 'T2', status: 'red' },
      ]),
    );
    const { code, out } = await baton('inspect', root, '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as Record<string, unknown>;
    expect(report).toEqual({
      layout: 'consort',
      features: [
        {
          id: 'F1',
          name: 'Checkout',
          stories: [],
          testList: {
            total: 2,
            byStatus: { pending: 0, red: 1, green: 1, refactored: 0, escalated: 0, skipped: 0 },
            byKind: { behavior: 1, fitness: 0, client: 0, unspecified: 1 },
          },
          gates: [],
          cycles: 0,
        },
      ],
      problems: [],
    });
  });

  it('as text on a project fresh from baton init', async () => {
    const root = await gitRepo();
    expect((await baton('init', root)).code).toBe(0);
    const { code, out } = await baton('inspect', root);
    expect(code).toBe(0);
    expect(out).toContain('Layout: baton  Features: 0  Problems: 0');
  });

  it('a malformed file: exit 1, and the output names the file', async () => {
    const root = await consortProject('[{ "id": "T1", "status": "green" },');
    const text = await baton('inspect', root);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/\.consort\/features\/F1\/test-list\.json: is not valid JSON/);
    const json = await baton('inspect', root, '--json');
    expect(json.code).toBe(1);
    expect((JSON.parse(json.out) as { problems: { file: string }[] }).problems).toEqual([
      expect.objectContaining({ file: '.consort/features/F1/test-list.json' }),
    ]);
  });
});

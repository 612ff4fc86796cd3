import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from './run-command';
import { executeRun, prepareRun } from '../runner/controlled-run';
import { createAgent } from '../agents/adapters';
import type { TurnRequest } from '../agents/agent-port';
import { detectBubblewrap, openSandbox, SandboxUnavailableError, type Sandbox } from './sandbox';
import { parseScenario } from '../agents/scenario';
import { scriptedAgent } from '../agents/scripted-agent';

const support = await detectBubblewrap();
const noBwrap = !support.ok;
if (!support.ok) {
  console.warn(
    support.reason.includes('not found')
      ? 'bwrap not found on this machine: apt-get install bubblewrap. The sandbox tests that need it are skipped.'
      : `bubblewrap does not work on this machine (${support.reason}): ${support.fix}. The sandbox tests that need it are skipped.`,
  );
}
/** A binary name that is on no PATH: bubblewrap "unavailable" without mocking anything. */
const MISSING = `bwrap-missing-${randomBytes(4).toString('hex')}`;
/** What every unsandboxed note adds: that none of the sandbox holds. */
const UNSANDBOXED_NOTE =
  ' — none of the sandbox holds: it can read your files (your home, ~/.ssh, other projects) and write outside the worktree (changes there are found and reverted after the turn, not blocked)';

/**
 * Fixtures live in /var/tmp: outside the sandbox's private /tmp, as a real project is. The project
 * beside the worktree is not shown inside (only the worktree and what it needs are). Cases that are
 * about /tmp itself make their folders there.
 */
const VISIBLE_TEMP = '/var/tmp';
let base: string;
let hiddenBase: string;
let project: string;
let worktree: string;
beforeAll(async () => {
  base = await mkdtemp(join(VISIBLE_TEMP, 'baton-sandbox-'));
  hiddenBase = await mkdtemp(join(tmpdir(), 'baton-sandbox-'));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(hiddenBase, { recursive: true, force: true });
});
beforeEach(() => useCase(base));

/** A project with its .baton/ folder, and the turn's worktree beside it (as under Baton's data folder). */
async function useCase(parent: string): Promise<void> {
  const here = await mkdtemp(join(parent, 'case-'));
  project = join(here, 'project');
  worktree = join(here, 'worktree');
  await mkdir(join(project, '.baton'), { recursive: true });
  await writeFile(join(project, '.baton', 'ledger.jsonl'), 'the ledger\n');
  await mkdir(worktree);
}

async function sh(sandbox: Sandbox, command: string, env: NodeJS.ProcessEnv = process.env) {
  return runCommand(command, { cwd: worktree, ...sandbox.spawnOptions(worktree, env), timeoutMs: 20_000 });
}

describe('bubblewrap: only the worktree is writable', () => {
  it.skipIf(noBwrap)('a command writes inside the worktree but cannot read or write beside it, in the project’s .baton/', async () => {
    const sandbox = await openSandbox('required', [worktree]);
    expect(sandbox.active).toBe(true);
    expect(sandbox.note).toBe(
      '[sandbox] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable (shown read-only: nothing)',
    );
    const result = await sh(
      sandbox,
      `echo inside > made.txt && mkdir -p src && echo code > src/a.js; cat ../project/.baton/ledger.jsonl; echo forged > ../project/.baton/ledger.jsonl; echo x > ../project/.baton/new.txt; echo x > ../outside.txt; echo done`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('done');
    // The project beside the worktree is not there at all: neither readable nor writable.
    expect(result.stdout).not.toContain('the ledger');
    expect(result.stderr).toMatch(/No such file or directory|Read-only file system/);
    expect(await readFile(join(worktree, 'made.txt'), 'utf8')).toBe('inside\n');
    expect(await readFile(join(worktree, 'src/a.js'), 'utf8')).toBe('code\n');
    expect(await readFile(join(project, '.baton', 'ledger.jsonl'), 'utf8')).toBe('the ledger\n');
    expect(existsSync(join(project, '.baton', 'new.txt'))).toBe(false);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
  });

  it.skipIf(noBwrap)('no capabilities inside: even as root, remounting or unmounting the read-only / does not open it', async () => {
    const sandbox = await openSandbox('required', [worktree]);
    const result = await sh(
      sandbox,
      'grep CapEff /proc/self/status; mount -o remount,rw / 2>&1; mount --bind / /tmp 2>&1; umount -l / 2>&1; echo x > ../outside.txt',
    );
    expect(result.stdout).toMatch(/CapEff:\s+0+\n/);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
  });

  it.skipIf(noBwrap)('a project under /tmp is not even visible: a write beside the worktree lands in the private /tmp and is gone', async () => {
    await useCase(hiddenBase);
    const sandbox = await openSandbox('required', [worktree]);
    const result = await sh(
      sandbox,
      'ls ../project/.baton 2>&1; echo x > ../outside.txt && echo wrote; mkdir -p ../project/.baton && echo x > ../project/.baton/new.txt && echo wrote-baton',
    );
    expect(result.stdout).toMatch(/No such file or directory/);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
    expect(existsSync(join(project, '.baton', 'new.txt'))).toBe(false);
    expect(await readdir(join(project, '.baton'))).toEqual(['ledger.jsonl']);
  });

  it.skipIf(noBwrap)('a folder under /tmp can be shown read-only on request', async () => {
    await useCase(hiddenBase);
    const sandbox = await openSandbox('required', [worktree], { readOnly: [project] });
    const result = await sh(sandbox, 'cat ../project/.baton/ledger.jsonl; echo forged > ../project/.baton/ledger.jsonl');
    expect(result.stdout).toBe('the ledger\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(await readFile(join(project, '.baton', 'ledger.jsonl'), 'utf8')).toBe('the ledger\n');
  });

  it.skipIf(noBwrap)('/tmp inside is private: writes there do not reach the real /tmp, and TMPDIR points at it', async () => {
    const name = `baton-sandbox-leak-${randomBytes(6).toString('hex')}`;
    const sandbox = await openSandbox('auto', [worktree]);
    const result = await sh(sandbox, `echo secret > /tmp/${name} && cat /tmp/${name} && echo "tmpdir=$TMPDIR"`, {
      ...process.env,
      TMPDIR: join(base, 'elsewhere'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('secret');
    expect(result.stdout).toContain('tmpdir=/tmp');
    expect(existsSync(join('/tmp', name))).toBe(false);
  });

  it.skipIf(noBwrap)('the network is shared: a test reaches its database on loopback', async () => {
    const server: Server = createServer((socket) => socket.end('pong from the host\n'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const port = (server.address() as { port: number }).port;
      const sandbox = await openSandbox('required', [worktree]);
      const client = `require('net').connect(${port}, '127.0.0.1').on('data', (d) => process.stdout.write(d)).on('error', (e) => { console.error(e.message); process.exit(3); })`;
      const result = await sh(sandbox, `"${process.execPath}" -e "${client}"`, {
        ...process.env,
        DATABASE_URL: `postgresql://app:s3cret@127.0.0.1:${port}/db`,
      });
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('pong from the host\n');
      expect(result.code).toBe(0);
    } finally {
      server.close();
    }
  });

  it.skipIf(noBwrap)('a node_modules link to a main checkout under /tmp still resolves, read-only', async () => {
    await useCase(hiddenBase);
    // worktree/node_modules → project/node_modules → real modules, all under the hidden /tmp.
    const modules = join(project, '..', 'installed-modules');
    await mkdir(join(modules, 'left-pad'), { recursive: true });
    await writeFile(join(modules, 'left-pad', 'index.js'), "module.exports = 'padded';\n");
    await symlink(modules, join(project, 'node_modules'));
    await symlink(join(project, 'node_modules'), join(worktree, 'node_modules'));
    const sandbox = await openSandbox('required', [worktree]);
    const result = await sh(sandbox, `"${process.execPath}" -e "console.log(require('left-pad'))"; echo x > node_modules/left-pad/evil.js`);
    expect(result.stdout).toBe('padded\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(modules, 'left-pad', 'evil.js'))).toBe(false);
  });

  it.skipIf(noBwrap)('a worktree’s git metadata under /tmp is readable, not writable', async () => {
    await useCase(hiddenBase);
    const gitdir = join(project, '.git', 'worktrees', 'turn');
    await mkdir(gitdir, { recursive: true });
    await writeFile(join(gitdir, 'commondir'), '../..\n');
    await writeFile(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(worktree, '.git'), `gitdir: ${gitdir}\n`);
    const sandbox = await openSandbox('required', [worktree]);
    const result = await sh(sandbox, `cat "${join(project, '.git', 'HEAD')}"; echo x > "${join(project, '.git', 'HEAD')}"`);
    expect(result.stdout).toBe('ref: refs/heads/main\n');
    expect(result.stderr).toMatch(/Read-only file system/);
    expect(await readFile(join(project, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
  });

  it.skipIf(noBwrap)('a timeout stops every process the sandboxed command started', async () => {
    const marker = `${30 + Math.floor(Math.random() * 1000) / 1000}`;
    const sandbox = await openSandbox('required', [worktree]);
    await expect(
      runCommand(`sh -c "sleep ${marker}" & sleep ${marker}`, { cwd: worktree, ...sandbox.spawnOptions(worktree, process.env), timeoutMs: 500 }),
    ).rejects.toThrow(/longer than 0.5 s/);
    await new Promise((done) => setTimeout(done, 300));
    expect(await processesRunning(`sleep${'\0'}${marker}`)).toBe(0);
  });

  it.skipIf(noBwrap)('the orchestrator’s test run is sandboxed too: only its run folder is writable, hidden folders are empty', async () => {
    const secret = join(project, '.baton', 'ledger.jsonl');
    await mkdir(join(worktree, 'test'));
    await writeFile(
      join(worktree, 'test/a.test.mjs'),
      [
        "import test from 'node:test';",
        "import assert from 'node:assert';",
        "import { existsSync, writeFileSync } from 'node:fs';",
        "test('sees the database url', () => assert.ok(process.env.DATABASE_URL));",
        "test('cannot write outside the run folder', () => assert.throws(() => writeFileSync('../outside.txt', 'x'), /EROFS|EACCES|ENOENT/));",
        `test('cannot touch the project', () => assert.throws(() => writeFileSync(${JSON.stringify(secret)}, 'forged'), /EROFS|ENOENT/));`,
        `test('cannot see a hidden folder', () => assert.equal(existsSync(${JSON.stringify(secret)}), false));`,
        '',
      ].join('\n'),
    );
    execFileSync('git', ['init', '-q'], { cwd: worktree });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: worktree });
    const site = { dir: join(worktree, '..', 'run', 'tree'), scratch: join(worktree, '..', 'run', 'scratch') };
    const prepared = await prepareRun({ worktree, site, command: 'node --test', testGlobs: ['test/**'], locked: [], order: 'as-given' });
    const result = await executeRun(prepared, {
      command: 'node --test',
      format: 'junit',
      reportPath: null,
      env: { DATABASE_URL: 'postgresql://postgres:s3cret@127.0.0.1:1/db' },
      pass: [],
      hide: [join(project, '.baton')],
      timeoutMs: 30_000,
      sandbox: 'required',
    });
    expect(result.sandbox).toMatch(/^\[sandbox\] bubblewrap/);
    expect(result.integrity).toEqual([]);
    expect(result.report.cases.map((c) => [c.name, c.status])).toEqual([
      ['sees the database url', 'passed'],
      ['cannot write outside the run folder', 'passed'],
      ['cannot touch the project', 'passed'],
      ['cannot see a hidden folder', 'passed'],
    ]);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
    expect(await readFile(secret, 'utf8')).toBe('the ledger\n');
  });
});

describe('the sandbox setting', () => {
  it('"required" without bubblewrap refuses with what is missing and what to do', async () => {
    const refused = openSandbox('required', [worktree], { binary: MISSING });
    await expect(refused).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(refused).rejects.toThrow(
      `The sandbox is "required" ("sandbox" in .baton/project.json) but bubblewrap cannot be used: ${MISSING} not found on PATH.`,
    );
    await expect(refused).rejects.toThrow(/apt-get install bubblewrap.* or set "sandbox" to "auto"/);
  });

  it('"auto" without bubblewrap runs unsandboxed and says why', async () => {
    const sandbox = await openSandbox('auto', [worktree], { binary: MISSING });
    expect(sandbox.active).toBe(false);
    expect(sandbox.note).toBe(`[sandbox] not available (${MISSING} not found on PATH): running unsandboxed${UNSANDBOXED_NOTE}`);
    expect(sandbox.spawnOptions(worktree, { A: '1' })).toEqual({ env: { A: '1' } });
    // Absent means auto.
    expect((await openSandbox(undefined, [worktree], { binary: MISSING })).note).toBe(sandbox.note);
  });

  it('"off" runs unsandboxed even where bubblewrap works: a write beside the worktree happens', async () => {
    const sandbox = await openSandbox('off', [worktree]);
    expect(sandbox.active).toBe(false);
    expect(sandbox.note).toBe(`[sandbox] off ("sandbox": "off" in .baton/project.json): running unsandboxed${UNSANDBOXED_NOTE}`);
    const result = await sh(sandbox, 'echo x > ../outside.txt');
    expect(result.code).toBe(0);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(true);
  });

  it('detection is probed once per process', async () => {
    expect(detectBubblewrap(MISSING)).toBe(detectBubblewrap(MISSING));
    expect(await detectBubblewrap(MISSING)).toMatchObject({ ok: false, reason: `${MISSING} not found on PATH` });
  });
});

describe('the scripted agent in the sandbox', () => {
  const escape = parseScenario(
    JSON.stringify({ turns: [{ role: 'driver', item: 'T1', write: { 'src/a.js': 'ok' }, run: ['echo x > ../outside.txt; echo ran'] }] }),
    'scenario.json',
  );
  const request = (): TurnRequest => ({ role: 'driver', step: 'green', item: 'T1', attempt: 1, worktree, prompt: '', failure: null, env: {} });

  it.skipIf(noBwrap)('a run command writing outside the worktree does not create the file', async () => {
    const result = await scriptedAgent(escape, { sandbox: 'required' }).turn(request());
    expect(result.transcript).toMatch(/^\[sandbox\] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable/m);
    expect(result.transcript).toContain('ran');
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
    expect(await readFile(join(worktree, 'src/a.js'), 'utf8')).toBe('ok');
  });

  it('unsandboxed (bubblewrap missing, "auto") the same turn does write outside, and the transcript says so once', async () => {
    const result = await scriptedAgent(escape, { sandbox: 'auto', bwrap: MISSING }).turn(request());
    const lines = result.transcript.split('\n');
    expect(lines.filter((l) => l.startsWith('[sandbox]'))).toEqual([
      `[sandbox] not available (${MISSING} not found on PATH): running unsandboxed${UNSANDBOXED_NOTE}`,
    ]);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(true);
  });

  it('"required" without bubblewrap refuses the turn before it changes anything', async () => {
    await expect(scriptedAgent(escape, { sandbox: 'required', bwrap: MISSING }).turn(request())).rejects.toThrow(
      /bubblewrap cannot be used.*apt-get install bubblewrap/,
    );
    expect(existsSync(join(worktree, 'src/a.js'))).toBe(false);
    expect(existsSync(join(worktree, '..', 'outside.txt'))).toBe(false);
  });

  it('createAgent passes the project’s sandbox setting to the scripted agent', async () => {
    await writeFile(join(project, '.baton', 'scenario.json'), JSON.stringify(escape));
    const agent = await createAgent('navigator', 'scripted', { root: project, scenario: '.baton/scenario.json', sandbox: 'required', bwrap: MISSING });
    await expect(agent.turn(request())).rejects.toThrow(SandboxUnavailableError);
    const off = await createAgent('navigator', 'scripted', { root: project, scenario: '.baton/scenario.json', sandbox: 'off' });
    expect((await off.turn(request())).transcript).toContain('[sandbox] off');
  });
});

/** How many processes have exactly this NUL-separated command line. */
async function processesRunning(cmdline: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const text = await readFile(join('/proc', pid, 'cmdline'), 'utf8').catch(() => '');
    if (text.replace(/\0$/, '') === cmdline) count += 1;
  }
  return count;
}

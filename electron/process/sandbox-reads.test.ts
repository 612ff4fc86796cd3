/**
 * A hostile neighbour's reads (issue 31): an agent turn (the `command` adapter, a plain program) and
 * the orchestrator's test run (code under test, at import time) each try to read a decoy 0600 file
 * in the user's home, `/etc/shadow`, and list what the machine holds beyond its runtime. Under
 * bubblewrap each read is refused: the home, `/root`, `/home`, `/var`, `/sys` are not there, the
 * secrets of `/etc` read empty, and HOME is a private folder.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandAgent } from '../agents/command-agent';
import { makeTempDir } from '../project/temp-project.fixture';
import { executeRun, prepareRun } from '../runner/controlled-run';
import { detectBubblewrap } from './sandbox';

const support = await detectBubblewrap();
if (!support.ok) console.warn(`sandbox-reads: skipped, bubblewrap does not work on this machine (${support.reason}): ${support.fix}.`);

const DECOY_TEXT = `decoy-${randomBytes(8).toString('hex')}`;
const decoy = join(homedir(), `.baton-decoy-${randomBytes(4).toString('hex')}`);
let dir: string;

/** What a neighbour tries, as JSON: each read's outcome (the text, or the error code). */
const PROBE = `
const fs = process.getBuiltinModule('node:fs');
const read = (p) => { try { return fs.readFileSync(p, 'utf8'); } catch (e) { return e.code; } };
const list = (p) => { try { return fs.readdirSync(p).length; } catch (e) { return e.code; } };
const seen = {
  decoy: read(${JSON.stringify(decoy)}),
  shadow: read('/etc/shadow'),
  home: list(${JSON.stringify(homedir())}),
  root: list('/root'),
  homes: list('/home'),
  variable: list('/var'),
  sys: list('/sys'),
  envHome: process.env.HOME,
};
`;

beforeAll(async () => {
  await writeFile(decoy, DECOY_TEXT, { mode: 0o600 });
  dir = await makeTempDir('baton-sandbox-reads-');
});
afterAll(async () => {
  await rm(decoy, { force: true });
  await rm(dir, { recursive: true, force: true });
});

function expectNothingSeen(seen: Record<string, unknown>): void {
  expect(JSON.stringify(seen)).not.toContain(DECOY_TEXT);
  expect(seen).toMatchObject({ decoy: 'ENOENT', root: 'ENOENT', homes: 'ENOENT', variable: 'ENOENT', sys: 'ENOENT' });
  // Covered by an empty device: nothing of it reads (EACCES, as devices are not usable on a sandbox mount, or empty).
  expect(['EACCES', '']).toContain(seen.shadow);
  expect(seen.home).toBe('ENOENT');
  expect(seen.envHome).not.toBe(homedir());
}

describe.skipIf(!support.ok)('a hostile neighbour reads nothing of the machine', () => {
  it('an agent turn cannot read the user’s files, the system’s secrets or anything beyond the runtime', async () => {
    const worktree = join(dir, 'worktree');
    await mkdir(worktree, { recursive: true });
    const program = join(dir, 'neighbour.mjs');
    await writeFile(program, `${PROBE}\nfs.writeFileSync('seen.json', JSON.stringify(seen));\n`);
    const turn = await commandAgent({ config: { adapter: 'command', command: [process.execPath, program] }, sandbox: 'required' }).turn({
      role: 'driver',
      step: 'green',
      item: 'T1',
      attempt: 1,
      worktree,
      prompt: 'look around',
      failure: null,
      env: {},
    });
    expect(turn.exitCode, turn.transcript).toBe(0);
    expect(turn.transcript).toMatch(/\[sandbox\] bubblewrap: only the worktree is writable; nothing of the machine but its runtime is readable/);
    expectNothingSeen(JSON.parse(await readFile(join(worktree, 'seen.json'), 'utf8')) as Record<string, unknown>);
  });

  it('code under test, at import time in the orchestrator’s test run, cannot either: nothing reaches the runner output', async () => {
    const worktree = join(dir, 'project');
    await mkdir(join(worktree, 'test'), { recursive: true });
    await writeFile(join(worktree, 'package.json'), '{"type":"module"}\n');
    await writeFile(
      join(worktree, 'test', 'a.test.js'),
      `import { it } from 'node:test';\n${PROBE}\nconsole.log('SEEN ' + JSON.stringify(seen));\nit('runs', () => {});\n`,
    );
    execFileSync('git', ['init', '-q'], { cwd: worktree });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start'], { cwd: worktree });
    const site = { dir: join(dir, 'run', 'tree'), scratch: join(dir, 'run', 'scratch') };
    const prepared = await prepareRun({ worktree, site, command: 'node --test', testGlobs: ['test/**'], locked: [], order: 'as-given' });
    const result = await executeRun(prepared, {
      command: 'node --test',
      format: 'junit',
      reportPath: null,
      env: {},
      pass: [],
      hide: [],
      timeoutMs: 60_000,
      sandbox: 'required',
    });
    const line = /SEEN (\{.*\})/.exec(result.stdout)?.[1];
    expect(line, result.stdout + result.stderr).toBeDefined();
    expectNothingSeen(JSON.parse(line!) as Record<string, unknown>);
    expect(result.stdout + result.stderr).not.toContain(DECOY_TEXT);
  });
});

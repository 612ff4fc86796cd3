/**
 * The second run of a pair is shaped unlike the first (test-run.ts): another run folder, named at
 * random, and — under bubblewrap — process ids 32 to 63 in rather than a PID namespace's first few. Code that answers right only when it recognises the first run's shape makes the pair disagree:
 * flaky. Both runs keep a PID namespace of their own, and the driver that holds the report key runs
 * from the sealed runtime (sealed-node.ts): no test reads another process's memory (issue 31).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempProvider, type TempProvider } from '../branches/pglite/pglite.fixture';
import { git } from '../platform/git';
import { detectBubblewrap } from '../process/sandbox';
import type { ProjectSettings } from '../project/settings';
import { runTree, runTwice } from './test-run';

let t: TempProvider;
let repo: string;
let runs: string;
const bwrap = await detectBubblewrap();
if (!bwrap.ok) console.warn(`test-run-shape: the PID test is skipped: bubblewrap does not work here (${bwrap.reason}). apt-get install bubblewrap.`);

const test = (body: string) =>
  `import { it } from 'node:test';\nimport assert from 'node:assert/strict';\nit('answers', () => { ${body} });\nit('adds', () => { assert.equal(1 + 1, 2); });\n`;

beforeAll(async () => {
  t = await makeTempProvider();
  await t.provider.ensureRoot('main');
  repo = await mkdtemp(join(os.tmpdir(), 'baton-shape-'));
  runs = await mkdtemp(join(os.tmpdir(), 'baton-shape-runs-'));
  await mkdir(join(repo, 'test'));
  await writeFile(join(repo, 'package.json'), '{"type":"module"}\n');
  await git(repo, ['init', '-q', '-b', 'main']);
  await git(repo, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'start']);
}, 120_000);
afterAll(async () => {
  await t?.dispose();
  await rm(repo, { recursive: true, force: true });
  await rm(runs, { recursive: true, force: true });
}, 60_000);

const settings = (sandbox: 'auto' | 'off') =>
  ({ testCommand: 'node --test test/', testGlobs: ['test/**'], reportFormat: 'junit', sandbox, migrations: null }) as unknown as ProjectSettings;

async function pair(body: string, sandbox: 'auto' | 'off' = 'off') {
  await writeFile(join(repo, 'test', 'a.test.js'), test(body));
  return runTwice({
    provider: t.provider,
    parentDatabase: 'main',
    settings: settings(sandbox),
    worktree: repo,
    site: { dir: join(runs, 'tree'), scratch: join(runs, 'scratch') },
    locked: [],
    hide: [],
  });
}

describe('the second run of a pair, shaped unlike the first', () => {
  it('honest tests agree; the second run’s folder is gone afterwards', async () => {
    const outcome = await pair("assert.equal('x'.repeat(2), 'xx');");
    expect([outcome.integrity, outcome.flaky]).toEqual([[], []]);
    expect(outcome.second?.report.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect((await readdir(runs)).sort()).toEqual(['scratch', 'tree']);
  }, 120_000);

  it('code that answers right only in the run folder it expects: the pair disagrees', async () => {
    const outcome = await pair("assert.ok(process.cwd().endsWith('/tree'));");
    expect(outcome.run.report.cases.find((c) => c.name === 'answers')?.status).toBe('passed');
    expect(outcome.flaky).toEqual(['test/a.test.js › answers']);
  }, 120_000);

  it.skipIf(!bwrap.ok)(
    'code that answers right only under a PID namespace’s small ids: the pair disagrees',
    async () => {
      const outcome = await pair('assert.ok(process.pid < 20);', 'auto');
      expect(outcome.run.report.cases.find((c) => c.name === 'answers')?.status).toBe('passed');
      expect(outcome.flaky).toEqual(['test/a.test.js › answers']);
      expect(existsSync(join(runs, 'tree'))).toBe(true);
    },
    120_000,
  );

  it.skipIf(!bwrap.ok)(
    'in both runs a test sees only its own namespace’s processes and reads no other process’s memory, the key holder’s included',
    async () => {
      const probe = [
        "const fs = process.getBuiltinModule('node:fs');",
        "const pids = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).map(Number);",
        // Process 1 is bubblewrap's init, which holds nothing of the run's.
        'const readable = pids.filter((pid) => { if (pid === process.pid || pid === 1) return false; try { fs.closeSync(fs.openSync(`/proc/${pid}/mem`, "r")); return true; } catch { return false; } });',
        'const parent = fs.readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").includes("baton-run.mjs");',
        'assert.deepEqual({ readable, many: pids.length > 50, parent }, { readable: [], many: false, parent: true });',
      ].join('\n');
      const outcome = await pair(probe, 'auto');
      expect([outcome.integrity, outcome.flaky]).toEqual([[], []]);
      expect(outcome.run.report.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
      expect(outcome.second?.report.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    },
    120_000,
  );

  it('background work (mutation testing) runs its tests at the lowest CPU priority, in the sandbox too; a verdict’s runs at their own', async () => {
    const probe = "assert.equal(process.getBuiltinModule('node:os').getPriority(), 19);";
    await writeFile(join(repo, 'test', 'a.test.js'), test(probe));
    await git(repo, ['add', '-A']);
    await git(repo, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'probe']);
    const tree = await git(repo, ['rev-parse', 'HEAD^{tree}']);
    const request = {
      provider: t.provider,
      parentDatabase: 'main',
      settings: settings(bwrap.ok ? 'auto' : 'off'),
      worktree: repo,
      site: { dir: join(runs, 'tree'), scratch: join(runs, 'scratch') },
      locked: [],
      hide: [],
      tree,
    };
    const background = await runTree({ ...request, background: true });
    expect(background.integrity).toEqual([]);
    expect(background.report.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    const verdict = await runTree(request);
    expect(verdict.report.cases.find((c) => c.name === 'answers')?.status).toBe(os.getPriority() === 19 ? 'passed' : 'failed');
  }, 120_000);
});

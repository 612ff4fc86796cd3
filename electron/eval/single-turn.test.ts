/**
 * A single-turn workflow's agent cannot see what would let it pass without doing the work (issue
 * 36): an agent that goes looking, from inside its turn, for the task's held-out suite, the task's
 * folder, another run's folder or Baton's own installation finds nothing there. The agent here is
 * a command program whose targets are written in its source (a path on its command line would be
 * made readable, as a program's own files are); it writes what it found into its worktree. The
 * sandbox shows a turn only the system's folders, its worktree and what that needs, and the harness
 * hides these folders by name besides; without bubblewrap the test is skipped, saying so.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../platform/package-root';
import { detectBubblewrap } from '../process/sandbox';
import { defaultCorpus, readTask } from './corpus';
import { runSingleTurn } from './single-turn';
import type { EvalTask } from './types';
import { resolveWorkflows } from './workflows';

const bwrap = await detectBubblewrap();
if (!bwrap.ok)
  console.warn(
    `single-turn.test.ts skipped: it checks what the sandbox hides, and bubblewrap does not work here (${bwrap.reason}). apt-get install bubblewrap.`,
  );

let base = '';
let task: EvalTask;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'baton-eval-snoop-'));
  await cp(join(defaultCorpus(), 'wallet'), join(base, 'corpus', 'wallet'), { recursive: true });
  task = await readTask(join(base, 'corpus', 'wallet'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe.skipIf(!bwrap.ok)('a single-turn agent looking for the held-out suite', () => {
  it('finds neither the held-out suite, the task folder, another run nor Baton, and its turn still runs', async () => {
    const evalDir = join(base, 'eval');
    const other = join(evalDir, 'runs', 'wallet', 'baseline', 'honest', 'rep-1');
    await mkdir(other, { recursive: true });
    await writeFile(join(other, 'result.json'), '{"secret": "another run"}\n');
    const targets = {
      heldout: join(task.heldout, 'wallet.test.js'),
      heldoutDir: task.heldout,
      request: join(task.dir, 'request.md'),
      otherRun: join(other, 'result.json'),
      baton: join(packageRoot(import.meta.url), 'package.json'),
    };
    const snoop = join(base, 'agent', 'snoop.mjs');
    await mkdir(join(base, 'agent'));
    await writeFile(
      snoop,
      `import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
const targets = ${JSON.stringify(targets)};
const found = {};
for (const [name, path] of Object.entries(targets)) {
  try { found[name] = name === 'heldoutDir' ? readdirSync(path) : readFileSync(path, 'utf8'); } catch (error) { found[name] = 'refused: ' + error.code; }
}
mkdirSync('src', { recursive: true });
writeFileSync('src/found.json', JSON.stringify(found));
`,
    );
    const [baseline] = await resolveWorkflows('baseline');
    const folder = join(evalDir, 'runs', 'wallet', 'baseline', 'snoop', 'rep-1');
    await mkdir(folder, { recursive: true });
    const outcome = await runSingleTurn({
      task,
      workflow: baseline!,
      agent: {
        name: 'snoop',
        settingFor: () => ({ adapter: 'command', command: [process.execPath, snoop], timeoutSeconds: 60 }),
        missingFor: async () => null,
      },
      folder,
      evalDir,
      seed: 1,
      timeLimitMs: 120_000,
    });
    // The turn ran (it wrote its findings) and ended well; it wrote no tests, so nothing was delivered.
    const found = JSON.parse(await readFile(join(outcome.deliveredTree, 'src', 'found.json'), 'utf8')) as Record<string, string | string[]>;
    expect(Object.keys(found).sort()).toEqual(Object.keys(targets).sort());
    for (const [name, what] of Object.entries(found)) expect([name, what]).toEqual([name, expect.stringMatching(/^refused: E(NOENT|ACCES|PERM)$/)]);
    expect(outcome.outcome).toBe('it wrote no tests');
    expect(outcome.delivered).toBe(false);
  }, 180_000);
});

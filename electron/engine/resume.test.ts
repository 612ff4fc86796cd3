/**
 * Crash safety: a real `baton run` child process is killed (SIGKILL) at each transition of a
 * cycle — plan, red, lock, green, refactor, review, one item each — and just after a violation
 * record (a seventh item's Driver edits its locked test), and started again. The run must reach the
 * same final statuses, with an intact ledger, the violation recorded once, no leftover throwaway
 * branches and no leftover turn worktrees.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent, RunSummary } from '../../shared/run';
import { verifyChain } from '../ledger';
import { createProvider } from '../branches/providers';
import { removeDir } from '../project/temp-project.fixture';
import { loadSettings } from './run-feature';
import { calcSource, makeCycleProject, testFile, type CycleProject } from './cycle-project.fixture';
import { THROWAWAY_PREFIX } from './test-run';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { projectDataDir } from '../platform/data-dir';

const BIN = resolve(import.meta.dirname, '..', '..', 'bin', 'baton.mjs');
const KILL_AT = ['plan', 'red', 'lock', 'green', 'refactor', 'review', 'violation'] as const;
const ITEMS = KILL_AT.map((_, i) => `T${i + 1}`);
const VIOLATOR = ITEMS.at(-1)!;

/** Runs `baton run --events`; kills it with SIGKILL when `killWhen` matches an event. Resolves with the events seen and how it ended. */
function runOnce(
  project: CycleProject,
  killWhen: ((e: RunEvent) => boolean) | null,
): Promise<{ events: RunEvent[]; killed: boolean; code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'run', project.root, '--until', 'acceptance', '--events'], {
      env: { ...process.env, BATON_DATA_DIR: join(project.dataDir, '..', 'baton-data') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const events: RunEvent[] = [];
    let killed = false;
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const event = JSON.parse(line) as RunEvent;
      events.push(event);
      if (!killed && killWhen?.(event)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', fail);
    child.on('close', (code) => done({ events, killed, code, stderr }));
  });
}

describe('resume after a kill at every transition of a cycle', () => {
  let project: CycleProject;
  let finalSummary: RunSummary | null = null;
  const kills: string[] = [];

  beforeAll(async () => {
    // Every item: a failing test, then the code that makes every test so far pass, then a refactor.
    const turns = ITEMS.flatMap((item, i) => [
      { role: 'navigator', item, write: { [`test/${item}.test.js`]: testFile([[`${item} adds`, `assert.equal(calc.f${item}?.(${i}, 1), ${i + 1});`]]) } },
      {
        role: 'driver',
        item,
        // The last item's Driver also weakens its locked test: a violation, restored; its code still passes.
        write: {
          'src/calc.js': calcSource(ITEMS.slice(0, i + 1)),
          ...(item === VIOLATOR ? { [`test/${item}.test.js`]: testFile([[`${item} adds`, 'assert.ok(true);']]) } : {}),
        },
      },
      { role: 'driver', item, step: 'refactor', write: { 'src/calc.js': calcSource(ITEMS.slice(0, i + 1), '/** Sums, one per item. */\n') } },
    ]);
    project = await makeCycleProject(ITEMS, { turns } as never, { repairBudget: 1 });
    // Where the CLI keeps this project's databases (BATON_DATA_DIR below): seeded, its first branch skips initdb.
    await seedTemplate(projectDataDir(await realpath(project.root), join(project.dataDir, '..', 'baton-data')));
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('kills a real child process at each transition, restarts it, and finishes the same', async () => {
    for (const [i, state] of KILL_AT.entries()) {
      const item = ITEMS[i]!;
      const { killed, stderr } = await runOnce(project, (e) =>
        state === 'violation'
          ? e.kind === 'recorded' && e.type === 'cycle.violation' && e.item === item
          : e.kind === 'cycle.state' && e.item === item && e.state === state,
      );
      expect(killed, `the run should reach ${item} ${state}; stderr:\n${stderr}`).toBe(true);
      kills.push(`${item}@${state}`);
    }
    const last = await runOnce(project, null);
    expect(last.killed).toBe(false);
    expect(last.code, last.stderr).toBe(0);
    finalSummary = (last.events.find((e) => e.kind === 'run.finished') as { summary: RunSummary } | undefined)?.summary ?? null;
    expect(kills).toHaveLength(KILL_AT.length);
  }, 600_000);

  it('every item ends refactored (green, then a kept refactor), as without the kills', async () => {
    const { featureStatus } = await import('./status');
    const status = await featureStatus(project.root);
    expect(status.items.byStatus).toEqual({ refactored: ITEMS.length });
    expect(status.escalations).toEqual([]);
    expect(finalSummary === null || finalSummary.phase === 'acceptance').toBe(true);
  });

  it('the ledger is intact and holds one GREEN verdict per item', async () => {
    const report = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(report.chain.ok).toBe(true);
    expect(report.problems).toEqual([]);
    const { Ledger } = await import('../ledger');
    const { records } = await Ledger.forArtifactRoot(join(project.root, '.baton')).read();
    for (const item of ITEMS) expect(records.filter((r) => r.subject.item === item && r.type === 'cycle.greened')).toHaveLength(1);
    // Killed just after it was written, the violation is not written again by the resumed run.
    expect(records.filter((r) => r.subject.item === VIOLATOR && r.type === 'cycle.violation')).toHaveLength(1);
  });

  it('no throwaway branch and no turn worktree is left behind', async () => {
    const settings = await loadSettings(project.root);
    const dataDir = projectDataDir(await realpath(project.root), join(project.dataDir, '..', 'baton-data'));
    const provider = await createProvider('pglite', { settings, dataDir, env: process.env });
    try {
      expect((await provider.list()).filter((b) => b.name.startsWith(THROWAWAY_PREFIX))).toEqual([]);
    } finally {
      await provider.close();
    }
    const turns = join(dataDir, 'turns');
    expect(existsSync(turns) ? await readdir(turns) : []).toEqual([]);
  });
});

/**
 * Frozen means frozen while running: an approved test list, spec or design edited before or during
 * a run stops it before any agent turn (a `run.blocked` record naming the gate and the file, an
 * Inbox entry), and restoring the file lets the next run go on. Real runs: git, PGlite, node:test.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import type { RunEvent } from '../../shared/run';
import { main } from '../cli/main';
import { Ledger } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { loadProject } from '../core/load-project';
import { runFeature } from './run-feature';
import { greenTurn, makeCycleProject, redTurn, type CycleProject } from './cycle-project.fixture';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const SCENARIO = { turns: [redTurn('T1'), greenTurn('T1'), redTurn('T2'), greenTurn('T2', ['T1'])] };

const FEATURE = '.baton/features/F-1';

describe('a drifted gate stops the run', () => {
  let project: CycleProject;
  const file = (name: string) => join(project.root, FEATURE, name);
  const records = async (): Promise<readonly LedgerRecord[]> => (await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records;
  const cycleRecords = async () => (await records()).filter((r) => r.type.startsWith('cycle.'));

  beforeEach(async () => {
    project = await makeCycleProject(['T1', 'T2'], SCENARIO as never, { repairBudget: 0 });
    await seedTemplate(project.dataDir);
  }, 120_000);
  afterEach(() => removeDir(join(project.root, '..')));

  it('an approved test list cut down before the run: nothing is built, run.blocked names the gate and the file, the Inbox shows it; restored, the run goes on', async () => {
    const original = await readFile(file('test-list.json'), 'utf8');
    const list = JSON.parse(original) as { items: unknown[] };
    await writeFile(file('test-list.json'), JSON.stringify({ items: list.items.slice(0, 1) }, null, 2));

    const events: RunEvent[] = [];
    const summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, onEvent: (e) => events.push(e) });
    expect(summary.blocked).not.toBeNull();
    expect(summary.blocked!.gates).toEqual([{ gate: 'test_list', story: null, status: 'drifted', files: [`${FEATURE}/test-list.json`] }]);
    expect(summary.blocked!.message).toContain('the test_list gate of F-1 has drifted (test-list.json changed since it was approved');
    expect(summary.stoppedAt).toMatch(/^blocked: /);
    // Before any agent turn: no cycle started, no turn ran.
    expect(await cycleRecords()).toEqual([]);
    expect(events.some((e) => e.kind === 'turn.started')).toBe(false);
    const blocked = (await records()).filter((r) => r.type === 'run.blocked');
    expect(blocked).toHaveLength(1);
    expect(blocked[0]!.data).toMatchObject({ step: 'gate:test_list', gates: [{ gate: 'test_list', status: 'drifted', files: [`${FEATURE}/test-list.json`] }] });
    expect(events).toContainEqual({ kind: 'run.blocked', feature: 'F-1', message: summary.blocked!.message, record: blocked[0]!.hash });

    // The Inbox has it to resolve, with the gate as it is now.
    const loaded = await loadProject(project.root);
    if (!loaded.ok) throw new Error(loaded.error.message);
    expect(loaded.value.view.features[0]!.runBlock).toMatchObject({
      record: { hash: blocked[0]!.hash },
      gates: [{ gate: 'test_list', status: 'drifted', files: [`${FEATURE}/test-list.json`] }],
    });

    // The CLI says so and exits 1; running again on the same drift does not grow the ledger.
    const out: string[] = [];
    const code = await main(['run', project.root, '--until', 'acceptance'], { out: (t) => out.push(t), err: () => undefined });
    expect(code).toBe(1);
    expect(out.join('\n')).toContain('Stopped: blocked: Stopped before');
    expect((await records()).filter((r) => r.type === 'run.blocked')).toHaveLength(1);

    // Restored: the block clears and the run builds both items.
    await writeFile(file('test-list.json'), original);
    const reloaded = await loadProject(project.root);
    if (!reloaded.ok) throw new Error(reloaded.error.message);
    expect(reloaded.value.view.features[0]!.runBlock).toBeNull();
    const resumed = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });
    expect(resumed.blocked).toBeNull();
    expect(resumed.items.total).toBe(2);
    expect((resumed.items.byStatus.green ?? 0) + (resumed.items.byStatus.refactored ?? 0)).toBe(2);
  }, 300_000);

  it('a spec edited during the run stops it before the next step; no later item is built', async () => {
    let edited = false;
    const summary = await runFeature({
      root: project.root,
      until: 'acceptance',
      dataDir: project.dataDir,
      onEvent: (e) => {
        // As soon as T1 is locked, someone edits an approved story.
        if (!edited && e.kind === 'cycle.state' && e.item === 'T1' && e.state === 'green') {
          edited = true;
          void writeFile(
            file('stories/S-1/story.json'),
            JSON.stringify({ id: 'S-1', title: 'Add, and also subtract', as_a: 'user', i_want: 'more', so_that: 'scope creeps' }),
          );
        }
      },
    });
    expect(edited).toBe(true);
    expect(summary.blocked?.gates.map((g) => [g.gate, g.files])).toEqual([['spec', [`${FEATURE}/stories/S-1/story.json`]]]);
    const all = await records();
    expect(all.filter((r) => r.subject.item === 'T2' && r.type.startsWith('cycle.'))).toEqual([]);
    const block = all.find((r) => r.type === 'run.blocked')!;
    expect(block.data).toMatchObject({ phase: 'building', item: 'T1' });

    // Restored, the next run resumes mid-cycle and builds the rest.
    await writeFile(
      file('stories/S-1/story.json'),
      `${JSON.stringify({ id: 'S-1', title: 'Add', as_a: 'user', i_want: 'to add', so_that: 'I know the sum' }, null, 2)}\n`,
    );
    const resumed = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });
    expect(resumed.blocked).toBeNull();
    expect(resumed.phase).toBe('acceptance');
    expect((resumed.items.byStatus.green ?? 0) + (resumed.items.byStatus.refactored ?? 0)).toBe(2);
  }, 300_000);
});

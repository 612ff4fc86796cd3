/**
 * A story discarded at acceptance, on a real project with two stacked stories: `baton reject
 * --discard` is refused for a story a later one is built on and for a gate that is not a story's
 * acceptance; discarding the last story sets its items aside, removes its experiment pair, and the
 * run goes on with the other story alone — merged into the feature branch without the discarded code.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { main } from '../cli/main';
import { annotateGates, approveGate, gateEvidence } from '../gates';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { removeDir } from '../project/temp-project.fixture';
import { greenTurn, makeCycleProject, redTurn, type CycleProject } from './cycle-project.fixture';
import { runFeature } from './run-feature';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
const PO = 'Ada <ada@example.com>';
const FEATURE = '.baton/features/F-1';
const TWO_STORIES = {
  [`${FEATURE}/stories/S-2/story.json`]: { id: 'S-2', title: 'Double', as_a: 'user', i_want: 'to double', so_that: 'I save time' },
  [`${FEATURE}/stories/S-2/acs/AC-2.json`]: { id: 'AC-2', given: 'a number', when: 'I double it', then: 'I get twice it' },
  [`${FEATURE}/test-list.json`]: {
    items: [
      { id: 'T1', description: 'item T1', ac_id: 'AC-1', status: 'pending' },
      { id: 'T2', description: 'item T2', ac_id: 'AC-2', status: 'pending' },
    ],
  },
};
const SCENARIO = { turns: [redTurn('T1'), greenTurn('T1'), redTurn('T2'), greenTurn('T2', ['T1'])] };

async function reject(root: string, ...args: string[]) {
  const out: string[] = [];
  const code = await main(
    ['reject', root, '--feature', 'F-1', '--gate', 'acceptance', '--reason', 'Not in this release.', '--approver', PO, '--json', ...args],
    {
      out: (t) => out.push(t),
      err: () => undefined,
    },
  );
  return { code, json: JSON.parse(out.join('\n')) as { ok: boolean; record?: LedgerRecord; error?: { code: string; message: string } } };
}

describe('a story discarded at acceptance (real runs)', () => {
  let project: CycleProject;
  const ledger = () => Ledger.forArtifactRoot(join(project.root, '.baton'));
  const git = async (...args: string[]) => (await exec('git', args, { cwd: project.root })).stdout;

  beforeAll(async () => {
    project = await makeCycleProject(['T1', 'T2'], SCENARIO as never, { extra: TWO_STORIES });
    await seedTemplate(project.dataDir);
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('builds both stories, S-2 stacked on S-1', async () => {
    expect((await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 })).phase).toBe('acceptance');
    const planned = (await ledger().read()).records.filter((r) => r.type === RECORD_TYPES.cyclePlanned);
    expect(planned.map((r) => [r.subject.item, r.data.experiment])).toEqual([
      ['T1', 'baton/f-1--s-1'],
      ['T2', 'baton/f-1--s-2'],
    ]);
    await exec('git', ['merge-base', '--is-ancestor', 'baton/f-1--s-1', 'baton/f-1--s-2'], { cwd: project.root });
  }, 240_000);

  it('refuses to discard a story another is built on, and any gate but a story acceptance', async () => {
    const stacked = await reject(project.root, '--story', 'S-1', '--discard');
    expect(stacked).toMatchObject({ code: 1, json: { ok: false, error: { code: 'has-children' } } });
    expect(stacked.json.error?.message).toContain('baton/f-1--s-2');
    const spec = await main(['reject', project.root, '--feature', 'F-1', '--gate', 'spec', '--reason', 'x', '--approver', PO, '--discard', '--json'], {
      out: () => undefined,
      err: () => undefined,
    });
    expect(spec).toBe(1);
    expect((await ledger().read()).records.filter((r) => r.type === RECORD_TYPES.gateRejected)).toEqual([]);
  });

  it('discards the last story: its items set aside, its pair removed, the other story merged without it', async () => {
    const discarded = await reject(project.root, '--story', 'S-2', '--discard');
    expect(discarded).toMatchObject({ code: 0, json: { ok: true, record: { type: RECORD_TYPES.gateRejected, data: { discard: true } } } });
    let approved: Promise<unknown> | null = null;
    const approveS1 = async () => {
      const view = await readProject(project.root);
      if (!view.ok) throw new Error(view.error.message);
      const ref = { feature: 'F-1', gate: 'acceptance' as const, story: 'S-1' };
      const evidence = await gateEvidence(view.value, ledger(), ref);
      if (!evidence.ok) throw new Error(evidence.error.message);
      const expected = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
      return approveGate(view.value, ledger(), { ...ref, approver: PO, expect: expected });
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 120_000);
    const summary = await runFeature({
      root: project.root,
      until: 'deploy',
      dataDir: project.dataDir,
      gatePollMs: 50,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.kind === 'waiting' && event.gate === 'acceptance') approved ??= approveS1();
      },
    }).finally(() => clearTimeout(timer));
    expect(JSON.stringify(await approved)).toContain('"ok":true');
    expect(summary.phase).toBe('deployGate');
    expect(summary.items.byStatus).toMatchObject({ skipped: 1 });

    const records = (await ledger().read()).records;
    const dropped = records.filter((r) => r.type === RECORD_TYPES.storyDiscarded);
    expect(dropped.map((r) => [r.subject.story, r.data.items, r.data.by, r.data.rejection])).toEqual([['S-2', ['T2'], PO, discarded.json.record!.hash]]);
    expect(records.filter((r) => r.type === RECORD_TYPES.gateRevising)).toEqual([]);
    expect(records.filter((r) => r.type === RECORD_TYPES.storyMerged).map((r) => r.subject.story)).toEqual(['S-1']);
    expect(records.some((r) => r.type === RECORD_TYPES.branchDeleted && r.data.gitBranch === 'baton/f-1--s-2')).toBe(true);
    expect(await git('branch', '--list', 'baton/f-1--*')).toBe('');
    // What screens show: the story is discarded, not a rejection waiting for someone.
    const read = await readProject(project.root);
    if (!read.ok) throw new Error(read.error.message);
    const shown = (await annotateGates(read.value, records)).features[0]!.stories.map((s) => [s.id, s.status]);
    expect(shown).toContainEqual(['S-2', 'discarded']);
    expect(shown).not.toContainEqual(['S-1', 'discarded']);
    // The feature branch has S-1's test and not S-2's.
    expect(await git('show', 'baton/f-1:test/T1.test.js')).toContain('T1 adds');
    await expect(git('show', 'baton/f-1:test/T2.test.js')).rejects.toThrow();
  }, 300_000);
});

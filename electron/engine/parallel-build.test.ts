/**
 * Parallel lanes (issue 17): stories whose story.json declares them independent are built at the
 * same time, each on its own experiment pair cut from the feature pair, with its own test-run folder;
 * the ledger stays one verifiable chain. Stories that declare nothing are built one after another,
 * each stacked on the one before, whatever `parallel` says. Real git, PGlite, node:test runs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { featureBranch, storyBranch } from '../../shared/branches';
import { RECORD_TYPES, recordsOf } from '../../shared/records';
import { Ledger, verifyChain } from '../ledger';
import { removeDir } from '../project/temp-project.fixture';
import { makeLanesProject } from './lanes-project.fixture';
import { git } from './git';
import { runFeature } from './run-feature';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { approveGate, gateEvidence } from '../gates';
import { readProject } from '../project';

let base: string | null = null;
afterEach(async () => {
  if (base) await removeDir(base);
  base = null;
});

/** Two stories, each with one item whose code is a file of its own; `declare` is what each story.json says of independence. */
async function twoStories(declare: Record<string, unknown>, parallel: number) {
  const project = await makeLanesProject(['T1', 'T2'], declare, parallel);
  base = join(project.root, '..');
  await seedTemplate(project.dataDir);
  const summary = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir });
  const { records } = await Ledger.forArtifactRoot(join(project.root, '.baton')).read();
  const seqOf = (type: typeof RECORD_TYPES.cyclePlanned | typeof RECORD_TYPES.cycleFinished, item: string) =>
    recordsOf(records, type).find((r) => r.subject.item === item)!.seq;
  const contains = (ancestor: string, branch: string) =>
    git(project.root, ['merge-base', '--is-ancestor', `refs/heads/${ancestor}`, `refs/heads/${branch}`]).then(
      () => true,
      () => false,
    );
  return { project, summary, records, seqOf, contains };
}

describe('building independent stories in parallel', () => {
  it('builds two independent stories at once, on pairs cut from the feature pair, in one verifiable chain', async () => {
    const { project, summary, records, seqOf, contains } = await twoStories({ independent: true, independence: 'stands alone' }, 2);
    expect(summary.phase).toBe('acceptance');
    const finished = recordsOf(records, RECORD_TYPES.cycleFinished);
    expect(finished.map((r) => [r.subject.item, r.data.status]).sort()).toEqual([
      ['T1', 'done'],
      ['T2', 'done'],
    ]);
    // At once: each item was planned before the other finished.
    expect(seqOf(RECORD_TYPES.cyclePlanned, 'T2')).toBeLessThan(seqOf(RECORD_TYPES.cycleFinished, 'T1'));
    expect(seqOf(RECORD_TYPES.cyclePlanned, 'T1')).toBeLessThan(seqOf(RECORD_TYPES.cycleFinished, 'T2'));
    // Side by side: neither story's branch holds the other's code; both hold the feature branch.
    const [s1, s2] = [storyBranch('F-1', 'S-1'), storyBranch('F-1', 'S-2')];
    expect(await contains(s1, s2)).toBe(false);
    expect(await contains(s2, s1)).toBe(false);
    expect(await contains(featureBranch('F-1'), s2)).toBe(true);
    // The second lane ran its tests in a folder of its own.
    expect(existsSync(join(project.dataDir, 'run', 'lane-1'))).toBe(true);
    // Accepted: both lanes are merged into the feature branch, each with its record.
    const ledger = Ledger.forArtifactRoot(join(project.root, '.baton'));
    for (const story of ['S-1', 'S-2']) {
      const view = await readProject(project.root);
      if (!view.ok) throw new Error(view.error.message);
      const ref = { feature: 'F-1', gate: 'acceptance' as const, story };
      const evidence = await gateEvidence(view.value, ledger, ref);
      if (!evidence.ok) throw new Error(evidence.error.message);
      const expected = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
      const approved = await approveGate(view.value, ledger, { ...ref, approver: 'Ada <ada@example.com>', expect: expected });
      expect(approved.ok).toBe(true);
    }
    const shipped = await runFeature({ root: project.root, until: 'deploy', dataDir: project.dataDir, gatePollMs: 50 });
    expect(shipped.phase).toBe('deployGate');
    const merged = recordsOf((await ledger.read()).records, RECORD_TYPES.storyMerged);
    expect(merged.map((r) => r.data.story).sort()).toEqual(['S-1', 'S-2']);
    const files = await git(project.root, ['ls-tree', '-r', '--name-only', `refs/heads/${featureBranch('F-1')}`, 'src']);
    expect(files.split('\n').sort()).toEqual(['src/T1.js', 'src/T2.js', 'src/calc.js']);
    const chain = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(chain.chain.ok).toBe(true);
    expect(chain.problems).toEqual([]);
  }, 300_000);

  it('builds them one at a time with `parallel: 1`, still side by side', async () => {
    const { summary, records, seqOf, contains } = await twoStories({ independent: true, independence: 'stands alone' }, 1);
    // T2's RED is held only by its own lane's locks: T1's test is not on its branch, and is not missing from it.
    expect(summary.phase).toBe('acceptance');
    expect(recordsOf(records, RECORD_TYPES.cycleViolation)).toEqual([]);
    expect(recordsOf(records, RECORD_TYPES.cycleFinished).map((r) => r.data.status)).toEqual(['done', 'done']);
    expect(seqOf(RECORD_TYPES.cycleFinished, 'T1')).toBeLessThan(seqOf(RECORD_TYPES.cyclePlanned, 'T2'));
    expect(await contains(storyBranch('F-1', 'S-1'), storyBranch('F-1', 'S-2'))).toBe(false);
  }, 300_000);

  it('stacks stories that declare nothing, one after another, whatever `parallel` says', async () => {
    const { project, summary, seqOf, contains } = await twoStories({}, 2);
    expect(summary.phase).toBe('acceptance');
    expect(seqOf(RECORD_TYPES.cycleFinished, 'T1')).toBeLessThan(seqOf(RECORD_TYPES.cyclePlanned, 'T2'));
    expect(await contains(storyBranch('F-1', 'S-1'), storyBranch('F-1', 'S-2'))).toBe(true);
    expect(existsSync(join(project.dataDir, 'run', 'lane-1'))).toBe(false);
  }, 300_000);
});

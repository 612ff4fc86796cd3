/**
 * Parallel lanes (issue 17): stories whose story.json declares them independent are built at the
 * same time, each on its own experiment pair cut from the feature pair, with its own test-run folder;
 * the ledger stays one verifiable chain. Stories that declare nothing are built one after another,
 * each stacked on the one before, whatever `parallel` says. Once accepted and merged, the lanes are
 * tested together (issue 30): the merged suite on a fresh database, migrations in file order. Real
 * git, PGlite, node:test runs.
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
import { annotateGates, approveGate, gateEvidence } from '../gates';
import { readProject } from '../project';
import { featureStatus } from './status';

let base: string | null = null;
afterEach(async () => {
  if (base) await removeDir(base);
  base = null;
});

/** Two stories, each with one item whose code is a file of its own (or, `conflicting`, a migration redefining one function); `declare` is what each story.json says of independence. */
async function twoStories(declare: Record<string, unknown>, parallel: number, options: { conflicting?: boolean } = {}) {
  const project = await makeLanesProject(['T1', 'T2'], declare, parallel, options);
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

/** The PO accepts every story, then the run goes on to the deploy gate: it merges the stories and verifies the merged feature. */
async function acceptAndGoOn(project: { root: string; dataDir: string }) {
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
  const records = (await ledger.read()).records;
  return { ledger, shipped, records, verified: recordsOf(records, RECORD_TYPES.featureVerified) };
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
    // Accepted: both lanes are merged into the feature branch, each with its record, and tested together.
    const { shipped, records: after, verified } = await acceptAndGoOn(project);
    expect(shipped.phase).toBe('deployGate');
    const merged = recordsOf(after, RECORD_TYPES.storyMerged);
    expect(merged.map((r) => r.data.story).sort()).toEqual(['S-1', 'S-2']);
    // The merged tree is no lane's: its whole suite ran, twice, and passed.
    expect(
      verified.map((r) => [r.data.verdict, r.data.tested, r.data.failing]),
      `${shipped.phase}: ${shipped.stoppedAt}`,
    ).toEqual([['passed', null, []]]);
    expect(verified[0]!.data.totals?.passed).toBe(2);
    expect(verified[0]!.data.tree).toBe(await git(project.root, ['rev-parse', `refs/heads/${featureBranch('F-1')}^{tree}`]));
    expect(verified[0]!.blobs.map((b) => b.name)).toContain('runner/second/stdout.txt');
    const files = await git(project.root, ['ls-tree', '-r', '--name-only', `refs/heads/${featureBranch('F-1')}`, 'src']);
    expect(files.split('\n').sort()).toEqual(['src/T1.js', 'src/T2.js', 'src/calc.js']);
    const chain = await verifyChain(join(project.root, '.baton', 'ledger'));
    expect(chain.chain.ok).toBe(true);
    expect(chain.problems).toEqual([]);
  }, 300_000);

  it('builds them one at a time with `parallel: 1`, still side by side; merged, their migrations conflict and nothing after acceptance runs', async () => {
    // Each story redefines step(n) in a migration of its own: each passes on its branch, not merged (lanes-project.fixture.ts).
    const { project, summary, records, seqOf, contains } = await twoStories({ independent: true, independence: 'stands alone' }, 1, { conflicting: true });
    // T2's RED is held only by its own lane's locks: T1's test is not on its branch, and is not missing from it.
    expect(summary.phase).toBe('acceptance');
    expect(recordsOf(records, RECORD_TYPES.cycleViolation)).toEqual([]);
    expect(recordsOf(records, RECORD_TYPES.cycleFinished).map((r) => r.data.status)).toEqual(['done', 'done']);
    expect(seqOf(RECORD_TYPES.cycleFinished, 'T1')).toBeLessThan(seqOf(RECORD_TYPES.cyclePlanned, 'T2'));
    expect(await contains(storyBranch('F-1', 'S-1'), storyBranch('F-1', 'S-2'))).toBe(false);

    const { shipped, records: after, verified } = await acceptAndGoOn(project);
    expect(recordsOf(after, RECORD_TYPES.storyMerged).map((r) => r.data.story)).toEqual(['S-1', 'S-2']);
    // Migrations in file order (002 then 003) leave S-1's step: T2's test fails, and both stories are named.
    expect(verified, `${shipped.phase}: ${shipped.stoppedAt}`).toHaveLength(1);
    const { verdict, failing, stories, lanes, tested } = verified[0]!.data;
    expect([verdict, tested, stories, lanes]).toEqual(['failed', null, ['S-1', 'S-2'], [['S-1'], ['S-2']]]);
    expect(failing.map((f) => [f.test, f.stories])).toEqual([[expect.stringContaining('T2 steps in the database'), ['S-2']]]);
    // The run stopped before the deploy gate, saying what failed and what to do.
    expect(shipped.phase).toBe('escalated');
    expect(recordsOf(after, RECORD_TYPES.deployRan)).toEqual([]);
    expect(shipped.stoppedAt).toMatch(/^stopped after acceptance: The merged feature F-1 .*T2 steps in the database.* \(story S-2\) fails/);
    expect(shipped.stoppedAt).toContain(`"depends_on": ["S-1"] in S-2's story.json`);
    // The deploy gate cannot be decided, from the same fold everywhere: the Inbox and `baton gates` (blockedBy), `baton status`.
    const view = await readProject(project.root);
    if (!view.ok) throw new Error(view.error.message);
    const deploy = (await annotateGates(view.value, after)).features[0]!.gates.find((g) => g.name === 'deploy')!;
    expect(deploy.blockedBy).toEqual({ kind: 'evidence', gate: null, message: expect.stringContaining('T2 steps in the database') });
    expect((await featureStatus(project.root, 'F-1')).stoppedAt).toBe(shipped.stoppedAt);
    // A resumed run repeats nothing: the record for this tree stands, and the run stops again.
    const again = await runFeature({ root: project.root, until: 'deploy', dataDir: project.dataDir, gatePollMs: 50 });
    expect(again.phase).toBe('escalated');
    expect(recordsOf((await Ledger.forArtifactRoot(join(project.root, '.baton')).read()).records, RECORD_TYPES.featureVerified)).toHaveLength(1);
  }, 300_000);

  it('stacks stories that declare nothing, one after another, whatever `parallel` says', async () => {
    const { project, summary, seqOf, contains } = await twoStories({}, 2);
    expect(summary.phase).toBe('acceptance');
    expect(seqOf(RECORD_TYPES.cycleFinished, 'T1')).toBeLessThan(seqOf(RECORD_TYPES.cyclePlanned, 'T2'));
    expect(await contains(storyBranch('F-1', 'S-1'), storyBranch('F-1', 'S-2'))).toBe(true);
    expect(existsSync(join(project.dataDir, 'run', 'lane-1'))).toBe(false);
    // One lane, no migration of its own: T2's GREEN already ran the merged tree, so nothing runs again.
    const { shipped, records, verified } = await acceptAndGoOn(project);
    expect(shipped.phase).toBe('deployGate');
    const greened = recordsOf(records, RECORD_TYPES.cycleGreened).find((r) => r.subject.item === 'T2')!;
    expect(verified.map((r) => [r.data.verdict, r.data.tested, r.data.tree])).toEqual([['passed', greened.hash, greened.data.tree]]);
  }, 300_000);
});

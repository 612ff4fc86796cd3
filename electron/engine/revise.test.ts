/**
 * A story sent back at acceptance, on a real project: the next run takes the rejection up once
 * (`gate.revising`), runs the story's items a new round with the Product Owner's note, and then
 * waits at acceptance for a decision on the revised work — it does not send the same work back
 * again and again. While the revision is unbuilt, approving the story is refused. The story is built
 * on its own experiment pair, merged into the feature branch once accepted, and the pair removed.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import type { RunEvent } from '../../shared/run';
import { approveGate, foldGates, gateEvidence, gateKey, rejectGate } from '../gates';
import { Ledger } from '../ledger';
import { readProject } from '../project';
import { removeDir } from '../project/temp-project.fixture';
import { calcSource, greenTurn, makeCycleProject, redTurn, testFile, type CycleProject } from './cycle-project.fixture';
import { takeUpRejections } from './revise';
import { runFeature } from './run-feature';
import { seedTemplate } from '../branches/pglite/pglite.fixture';

const exec = promisify(execFile);
const PO = 'Ada <ada@example.com>';
const NOTE = 'It must also subtract: sT1(5, 3) is 2.';
const SCENARIO = {
  turns: [
    redTurn('T1'),
    greenTurn('T1'),
    { role: 'navigator', item: 'T1', round: 2, write: { 'test/T1-sub.test.js': testFile([['T1 subtracts', 'assert.equal(calc.sT1?.(5, 3), 2);']]) } },
    { role: 'driver', item: 'T1', round: 2, write: { 'src/calc.js': `${calcSource(['T1'])}export const sT1 = (a, b) => a - b;\n` } },
  ],
};

describe('a story sent back at acceptance (real runs)', () => {
  let project: CycleProject;
  const ledger = () => Ledger.forArtifactRoot(join(project.root, '.baton'));
  const records = async () => [...(await ledger().read()).records];
  const view = async () => {
    const read = await readProject(project.root);
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  const approveStory = async () => {
    const ref = { feature: 'F-1', gate: 'acceptance' as const, story: 'S-1' };
    const evidence = await gateEvidence(await view(), ledger(), ref);
    if (!evidence.ok) throw new Error(evidence.error.message);
    const expected = Object.fromEntries(evidence.value.artifacts.filter((a) => a.sha256).map((a) => [a.name, a.sha256!]));
    return approveGate(await view(), ledger(), { ...ref, approver: PO, expect: expected });
  };
  const status = async () => foldGates(await records()).get(gateKey({ feature: 'F-1', story: 'S-1', gate: 'acceptance' }))?.status;

  beforeAll(async () => {
    project = await makeCycleProject(['T1'], SCENARIO as never);
    await seedTemplate(project.dataDir);
  }, 60_000);
  afterAll(() => removeDir(join(project.root, '..')));

  it('builds, then waits at acceptance', async () => {
    const first = await runFeature({ root: project.root, until: 'acceptance', dataDir: project.dataDir, gatePollMs: 50 });
    expect(first.phase).toBe('acceptance');
    const rejected = await rejectGate(await view(), ledger(), { feature: 'F-1', gate: 'acceptance', story: 'S-1', approver: PO, reason: NOTE });
    expect(rejected.ok).toBe(true);
    expect(await status()).toBe('rejected');
  }, 240_000);

  it('refuses approving a story whose revision has not been built', async () => {
    // What the next run does first: take the rejection up. Until the item's new round finishes, the old evidence is no evidence.
    const [revising] = await takeUpRejections(ledger(), {
      feature: 'F-1',
      gates: ['acceptance'],
      stories: ['S-1'],
      items: (await view()).features[0]!.testList,
    });
    expect(revising?.data).toMatchObject({ gate: 'acceptance', by: PO, note: NOTE, items: ['T1'] });
    expect(await status()).toBe('open');
    // Taken up once: a second call records nothing.
    expect(await takeUpRejections(ledger(), { feature: 'F-1', gates: ['acceptance'], stories: ['S-1'] })).toEqual([]);
    const refused = await approveStory();
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatchObject({ code: 'not-built', message: expect.stringContaining('T1 has not finished the new round') });
  });

  it('runs the item a new round with the note, then waits for a new decision instead of sending it back again', async () => {
    const events: RunEvent[] = [];
    const controller = new AbortController();
    let approved: Promise<unknown> | null = null;
    const run = runFeature({
      root: project.root,
      until: 'deploy',
      dataDir: project.dataDir,
      gatePollMs: 50,
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        // The PO decides once the run waits at acceptance for the revised story.
        if (event.kind === 'waiting' && event.gate === 'acceptance') approved ??= approveStory();
      },
    });
    const timer = setTimeout(() => controller.abort(), 100_000);
    const summary = await run.finally(() => clearTimeout(timer));
    expect(JSON.stringify(await approved)).toContain('"ok":true');
    expect(summary.phase).toBe('deployGate');

    const all = await records();
    // One revising record for the one rejection, and the gate's waits did not loop through building.
    expect(all.filter((r) => r.type === RECORD_TYPES.gateRevising)).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'lifecycle.state' && e.state === 'building')).toHaveLength(1);
    const round2 = all.filter((r) => r.subject.cycle === 'F-1/T1#2');
    expect(round2.find((r) => r.type === RECORD_TYPES.cycleGreen)?.data.verdict).toBe('green');
    // The note reached the agents' prompt.
    const red = round2.find((r) => r.type === RECORD_TYPES.cycleRed)!;
    const prompt = await ledger().readBlob(red.blobs.find((b) => b.name.endsWith('prompt.md'))!.sha256);
    expect(prompt?.toString()).toContain(NOTE);
    expect(await status()).toBe('approved');
    // Built on the story's experiment pair, merged into the feature branch on acceptance, the pair removed.
    expect(new Set(all.filter((r) => r.type === RECORD_TYPES.cyclePlanned).map((r) => r.data.experiment))).toEqual(new Set(['baton/f-1--s-1']));
    const merged = all.filter((r) => r.type === RECORD_TYPES.storyMerged);
    expect(merged.map((r) => [r.subject.story, r.data.experiment, r.data.into])).toEqual([['S-1', 'baton/f-1--s-1', 'baton/f-1']]);
    expect((await exec('git', ['log', '-1', '--format=%s%n%P', 'baton/f-1'], { cwd: project.root })).stdout).toMatch(
      new RegExp(`^Baton: story S-1 accepted.*\\n\\w+ ${merged[0]!.data.commit}`),
    );
    await expect(exec('git', ['rev-parse', '--verify', 'refs/heads/baton/f-1--s-1'], { cwd: project.root })).rejects.toThrow();
    expect(all.some((r) => r.type === RECORD_TYPES.branchDeleted && r.data.gitBranch === 'baton/f-1--s-1')).toBe(true);
    // The revised code is on the feature branch.
    expect((await exec('git', ['show', 'baton/f-1:src/calc.js'], { cwd: project.root })).stdout).toContain('export const sT1');
  }, 300_000);
});

/**
 * Where a run stopped, in words a person acts on: a gate the run waits at is "approve it" only when
 * it can be approved; otherwise the summary (the run's, `baton status`'s) says what holds it back,
 * in the Inbox's words (issue 34: a word that can be wrong is worse than none).
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { makeBatonProject, type TestProject } from '../gates/gate-project.fixture';
import { LIFECYCLE_VERSION, lifecycleMachine } from '../orchestrator/lifecycle-machine';
import { StateStore } from './state-store';
import { summarize } from './summary';

let project: TestProject | undefined;
afterEach(async () => project?.cleanup());

describe('the summary at a gate', () => {
  it('a gate held back says why (an earlier gate, then the missing deploy evidence Run cannot write); a decidable one says approve it', async () => {
    const p = (project = await makeBatonProject());
    const at = async () => (await summarize(p.root, 'F-1', 'deployGate', p.ledger)).stoppedAt;
    expect(await at()).toMatch(/^waiting at the deploy gate, which cannot be approved yet: the test_list gate comes first and is open/);

    for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
    await p.prove();
    expect((await p.approve('acceptance', 'S-1')).ok).toBe(true);
    expect(await at()).toBe('waiting at the deploy gate: approve it in the Inbox or with `baton approve`');

    await rm(p.file('deploy-evidence.json'));
    expect(await at()).toMatch(
      /^waiting at the deploy gate, which cannot be approved yet: \.baton\/features\/F-1\/deploy-evidence\.json is missing; no deploy is set up, so Run cannot write it: add "deploy" to \.baton\/project\.json/,
    );
    // The spec gate, decided, is not what the run waits at: the summary speaks of the phase's own gate only.
    expect((await summarize(p.root, 'F-1', 'specGate', p.ledger)).stoppedAt).toBe('waiting at the spec gate: approve it in the Inbox or with `baton approve`');
  });
});

describe('the summary of a step that failed', () => {
  it('says the step and its error, never "every escalation is decided", when nothing is left to decide', async () => {
    const p = (project = await makeBatonProject());
    const store = StateStore.forProject(p.root, 'F-1');
    const save = (context: object) =>
      store.write('lifecycle', { machine: lifecycleMachine.id, version: LIFECYCLE_VERSION, snapshot: { value: 'escalated', status: 'done', context } });
    await save({ feature: 'F-1', feedback: null, failedStep: 'promote', reason: 'The promote step failed: the tier database refused 002_reorder_level.sql.' });
    expect((await summarize(p.root, 'F-1', 'escalated', p.ledger)).stoppedAt).toBe(
      'escalated: The promote step failed: the tier database refused 002_reorder_level.sql. Fix what it names, then run again: the run resumes at that step',
    );
    // The summary reaches the UI and the webhook: a password in the error's words is not in it.
    await save({
      feature: 'F-1',
      feedback: null,
      failedStep: 'promote',
      reason: 'The promote step failed: cannot reach postgresql://admin:s3cretpw@db:5432/tier (password=s3cretpw).',
    });
    const said = (await summarize(p.root, 'F-1', 'escalated', p.ledger)).stoppedAt;
    expect(said).toMatch(/^escalated: The promote step failed: cannot reach postgresql:\/\/admin:\*\*\*@db:5432\/tier/);
    expect(said).not.toContain('s3cretpw');
    // Escalated items that were all decided (no failed step): what to do next, as before.
    await save({ feature: 'F-1', feedback: null, failedStep: null, reason: '1 item escalated: see the inbox.' });
    expect((await summarize(p.root, 'F-1', 'escalated', p.ledger)).stoppedAt).toBe('escalated: every escalation is decided; run again to go on');
  });
});

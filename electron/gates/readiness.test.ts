/**
 * Which waiting gates can be decided now: the Inbox's "ready to decide", "waiting on evidence" and
 * "waiting on an earlier gate" come from the very checks an approval runs (blockedBy).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { RUN_DEPLOYS } from '../../shared/gate-words';
import { detectDefaults } from '../project/settings';
import { DEPLOY_EVIDENCE, gateOf, makeBatonProject, type TestProject } from './gate-project.fixture';

describe('whether a waiting gate can be decided now', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await makeBatonProject();
  });
  afterEach(() => p.cleanup());

  it('is ready for the first gate, and waits on the earlier gate for the others', async () => {
    const view = await p.view();
    expect(gateOf(view, 'spec').blockedBy).toBeNull();
    expect(gateOf(view, 'design').blockedBy).toMatchObject({ kind: 'earlier-gate', gate: 'spec' });
    expect(gateOf(view, 'deploy').blockedBy).toMatchObject({ kind: 'earlier-gate', gate: 'test_list' });
    expect(gateOf(view, 'acceptance', 'S-1').blockedBy).toMatchObject({ kind: 'earlier-gate', gate: 'test_list' });
  });

  it('an approved gate waits for nothing', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const view = await p.view();
    expect(gateOf(view, 'spec')).toMatchObject({ status: 'approved', blockedBy: null });
    expect(gateOf(view, 'design').blockedBy).toBeNull();
  });

  describe('deploy evidence', () => {
    beforeEach(async () => {
      for (const gate of ['spec', 'design', 'test_list'] as const) expect((await p.approve(gate)).ok).toBe(true);
    });

    it('valid evidence: ready to decide', async () => {
      expect(gateOf(await p.view(), 'deploy').blockedBy).toBeNull();
    });

    it('{"fake": true}: waiting on evidence, and an approval is refused naming the missing fields', async () => {
      await p.write('deploy-evidence.json', { fake: true });
      const block = gateOf(await p.view(), 'deploy').blockedBy;
      expect(block).toMatchObject({ kind: 'evidence' });
      expect(block!.message).toContain('missing ran, target, url, health, verify, started_at, finished_at');
      const refused = await p.approve('deploy');
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('invalid-artifact');
        expect(refused.error.message).toContain(
          'deploy-evidence.json is not valid deploy evidence: missing ran, target, url, health, verify, started_at, finished_at',
        );
      }
    });

    it('no evidence file at all: waiting on evidence, not ready; Run is said to write it only when a deploy is set up', async () => {
      const { rm, writeFile } = await import('node:fs/promises');
      await rm(p.file('deploy-evidence.json'));
      expect(gateOf(await p.view(), 'deploy').blockedBy).toMatchObject({
        kind: 'evidence',
        message: expect.stringContaining('deploy-evidence.json is missing; no deploy is set up, so Run cannot write it: add "deploy" to .baton/project.json'),
      });
      const probe = { name: 'shop', defaultBranch: 'main', readText: async () => null, exists: () => false };
      const settings = { ...(await detectDefaults(probe)), deploy: { start: 'node server.js', health: '/health', verify: 'npm run smoke' } };
      await writeFile(join(p.root, '.baton', 'project.json'), JSON.stringify(settings));
      expect(gateOf(await p.view(), 'deploy').blockedBy).toMatchObject({
        kind: 'evidence',
        message: expect.stringContaining(`deploy-evidence.json is missing; ${RUN_DEPLOYS}`),
      });
    });

    it('evidence of a failed health check or verify run is valid evidence of a failure, never approvable', async () => {
      await p.write('deploy-evidence.json', { ...DEPLOY_EVIDENCE, health: { ...DEPLOY_EVIDENCE.health, ok: false, status: 503 } });
      expect(gateOf(await p.view(), 'deploy').blockedBy!.message).toContain('health check failed (health.ok is false, status 503)');
      await p.write('deploy-evidence.json', { ...DEPLOY_EVIDENCE, verify: { ...DEPLOY_EVIDENCE.verify, passed: false } });
      expect(gateOf(await p.view(), 'deploy').blockedBy!.message).toContain('verify run failed');
      await p.write('deploy-evidence.json', { ...DEPLOY_EVIDENCE, started_at: '2026-12-02T00:00:00Z' });
      expect(gateOf(await p.view(), 'deploy').blockedBy!.message).toContain('finished_at is before started_at');
    });
  });

  it('an artifact an approval would refuse: waiting on its artifacts', async () => {
    await p.write('stories/S-1/story.json', { id: 'S-1' });
    expect(gateOf(await p.view(), 'spec').blockedBy).toMatchObject({ kind: 'artifacts', message: expect.stringContaining('is not a valid story.json') });
  });

  it("a story in Consort's field names is a valid story to approve", async () => {
    await p.write('stories/S-1/story.json', { id: 'S-1', asA: 'shopper', iWantTo: 'pay by card', soThat: 'I get my order' });
    expect(gateOf(await p.view(), 'spec').blockedBy).toBeNull();
    expect((await p.approve('spec')).ok).toBe(true);
  });

  it('a withdrawn gate whose artifacts did not change waits for a change', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const { withdrawGate } = await import('./decide');
    expect((await withdrawGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: 'Ada <ada@example.com>', reason: 'not yet' })).ok).toBe(
      true,
    );
    expect(gateOf(await p.view(), 'spec').blockedBy).toMatchObject({ kind: 'unchanged' });
  });
});

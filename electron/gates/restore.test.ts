/**
 * Restoring a drifted gate's approved files from the ledger: exactly the drift the person saw, the
 * approved bytes back, files added since removed, and everything replaced kept in the ledger.
 */
import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gateOf, makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';
import { restoreGate } from './restore';

describe('restoreGate', () => {
  let p: TestProject;
  beforeEach(async () => {
    p = await makeBatonProject();
    expect((await p.approve('spec')).ok).toBe(true);
  });
  afterEach(() => p.cleanup());

  const driftNow = async () => Object.fromEntries(gateOf(await p.view(), 'spec').drift.map((d) => [d.artifact, d.actual]));

  it('puts changed and deleted files back, removes added ones, and keeps what it replaced in the ledger', async () => {
    const story = await fs.readFile(p.file('stories/S-1/story.json'), 'utf8');
    const ac1 = await fs.readFile(p.file('stories/S-1/acs/AC-1.json'), 'utf8');
    await p.write('stories/S-1/story.json', { id: 'S-1', title: 'Pay by card, or by cheque' });
    await fs.rm(p.file('stories/S-1/acs/AC-1.json'));
    await p.write('stories/S-1/acs/AC-3.json', { id: 'AC-3', given: 'g', when: 'w', then: 't' });
    expect(gateOf(await p.view(), 'spec').status).toBe('drifted');

    const result = await restoreGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: await driftNow() });
    if (!result.ok) throw new Error(result.error.message);
    expect(await fs.readFile(p.file('stories/S-1/story.json'), 'utf8')).toBe(story);
    expect(await fs.readFile(p.file('stories/S-1/acs/AC-1.json'), 'utf8')).toBe(ac1);
    await expect(fs.stat(p.file('stories/S-1/acs/AC-3.json'))).rejects.toThrow();
    expect(gateOf(await p.view(), 'spec')).toMatchObject({ status: 'approved', drift: [] });

    expect(result.value).toMatchObject({
      type: 'gate.restored',
      actor: { kind: 'person', id: PERSON },
      data: { gate: 'spec', removed: ['stories/S-1/acs/AC-3.json'] },
    });
    expect((result.value.data.restored as { artifact: string }[]).map((r) => r.artifact).sort()).toEqual([
      'stories/S-1/acs/AC-1.json',
      'stories/S-1/story.json',
    ]);
    // Nothing is lost: the edited story and the added AC are blobs of the record.
    const names = result.value.blobs.map((b) => b.name).sort();
    expect(names).toEqual(['removed/stories/S-1/acs/AC-3.json', 'replaced/stories/S-1/story.json']);
    const kept = await p.ledger.readBlob(result.value.blobs.find((b) => b.name === 'replaced/stories/S-1/story.json')!.sha256);
    expect(JSON.parse(kept!.toString('utf8'))).toEqual({ id: 'S-1', title: 'Pay by card, or by cheque' });
  });

  it('refuses a drift other than the one shown, and changes nothing', async () => {
    await p.write('stories/S-1/story.json', { id: 'S-1', title: 'first edit' });
    const shown = await driftNow();
    await p.write('stories/S-1/story.json', { id: 'S-1', title: 'second edit, unseen' });
    const result = await restoreGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: shown });
    expect(result).toMatchObject({ ok: false, error: { code: 'stale-artifact' } });
    expect(JSON.parse(await fs.readFile(p.file('stories/S-1/story.json'), 'utf8')).title).toBe('second edit, unseen');
    expect((await p.records()).map((r) => r.type)).toEqual(['gate.approved']);
  });

  it('refuses a gate that has not drifted, one never approved, a nameless person and a read-only project', async () => {
    const view = await p.view();
    expect(await restoreGate(view, p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: {} })).toMatchObject({
      ok: false,
      error: { code: 'not-drifted' },
    });
    expect(await restoreGate(view, p.ledger, { feature: 'F-1', gate: 'design', approver: PERSON, expect: {} })).toMatchObject({
      ok: false,
      error: { code: 'not-approved' },
    });
    expect(await restoreGate(view, p.ledger, { feature: 'F-1', gate: 'spec', approver: ' ', expect: {} })).toMatchObject({
      ok: false,
      error: { code: 'no-identity' },
    });
    expect(
      await restoreGate({ ...view, readOnly: true, bundle: '/tmp/review.baton' }, p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, expect: {} }),
    ).toMatchObject({ ok: false, error: { code: 'read-only' } });
  });
});

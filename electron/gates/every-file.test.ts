/**
 * Gated folders count every file: under an approved gate, a hidden story folder, an AC with an
 * upper-case extension and a dotfile are each drift ("not in the approval") until approved, unless
 * project.json's `gateIgnore` (or the built-in OS junk list) names them. The evidence, the approval
 * and the drift all enumerate with the one function, so what is approved is what is checked.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { textSha256 } from '../ledger';
import { detectDefaults } from '../project/settings';
import { artifactsIn, gateArtifacts } from './definitions';
import { gateEvidence } from './evidence';
import { gateOf, makeBatonProject, type TestProject } from './gate-project.fixture';
import { verifyGates } from './verify-gates';

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

/** A valid project.json (as `baton init` writes it) with `extra` merged in. */
const writeSettings = async (extra: Record<string, unknown>): Promise<void> => {
  const settings = await detectDefaults({ name: 'shop', defaultBranch: 'main', readText: () => Promise.resolve(null), exists: () => false });
  await fs.writeFile(path.join(p.root, '.baton', 'project.json'), JSON.stringify({ ...settings, ...extra }, null, 2));
};

const driftNames = async (gate: string, story: string | null = null): Promise<string[]> => gateOf(await p.view(), gate, story).drift.map((d) => d.artifact);

const STORY = { id: 'S-9', title: 'Hidden', as_a: 'shopper', i_want: 'to hide', so_that: 'nobody sees' };

describe('a gate counts every file under its folders', () => {
  it('treats a hidden story folder, an AC-99.JSON and a dotfile added under an approved spec as drift not in the approval', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    await p.write('stories/.S-9/story.json', STORY);
    await p.write('stories/S-1/acs/AC-99.JSON', { id: 'AC-99', given: 'g', when: 'w', then: 't' });
    await p.write('stories/S-1/.hidden', 'not for review\n');

    const spec = gateOf(await p.view(), 'spec');
    expect(spec.status).toBe('drifted');
    expect(spec.drift).toEqual(
      expect.arrayContaining([
        { artifact: 'stories/.S-9/story.json', expected: null, actual: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { artifact: 'stories/S-1/acs/AC-99.JSON', expected: null, actual: expect.stringMatching(/^[0-9a-f]{64}$/) },
        { artifact: 'stories/S-1/.hidden', expected: null, actual: textSha256('not for review\n') },
      ]),
    );
    expect(spec.drift).toHaveLength(3);
    const { problems } = await verifyGates(await p.view(), await p.records());
    expect(problems.map((x) => x.file).sort()).toEqual([
      '.baton/features/F-1/stories/.S-9/story.json',
      '.baton/features/F-1/stories/S-1/.hidden',
      '.baton/features/F-1/stories/S-1/acs/AC-99.JSON',
    ]);
    expect(problems.every((x) => x.message.startsWith('added after the spec gate was approved'))).toBe(true);
  });

  it("counts a dotfile in a story's folder against that story's acceptance too", async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.approve('design')).ok).toBe(true);
    expect((await p.approve('test_list')).ok).toBe(true);
    await p.prove();
    expect((await p.approve('acceptance', 'S-1')).ok).toBe(true);
    await p.write('stories/S-1/acs/.notes', 'x\n');
    expect(await driftNames('acceptance', 'S-1')).toEqual(['stories/S-1/acs/.notes']);
    expect(await driftNames('design')).toEqual([]);
  });

  it('approves the added files as part of the gate, so the same set is then checked', async () => {
    await p.write('stories/S-1/.hidden', 'reviewed\n');
    await p.write('stories/S-1/acs/AC-99.JSON', { id: 'AC-99', given: 'g', when: 'w', then: 't' });
    const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec' });
    expect(evidence.ok && evidence.value.artifacts.map((a) => a.name)).toEqual(expect.arrayContaining(['stories/S-1/.hidden', 'stories/S-1/acs/AC-99.JSON']));
    const approved = await p.approve('spec');
    expect(approved.ok).toBe(true);
    const record = (await p.records()).find((r) => r.type === RECORD_TYPES.gateApproved)!;
    expect(Object.keys(record.data['artifacts'] as object)).toEqual(expect.arrayContaining(['stories/S-1/.hidden', 'stories/S-1/acs/AC-99.JSON']));
    expect(gateOf(await p.view(), 'spec')).toMatchObject({ status: 'approved', drift: [] });

    await p.write('stories/S-1/.hidden', 'changed unseen\n');
    expect(await driftNames('spec')).toEqual(['stories/S-1/.hidden']);
  });

  it('leaves out what gateIgnore and the built-in list name, but never a story or an AC', async () => {
    await writeSettings({ gateIgnore: ['**/*.swp', 'stories/*/scratch/**', '**/*.json'] });
    expect((await p.approve('spec')).ok).toBe(true);
    await p.write('stories/S-1/acs/.AC-1.json.swp', 'editor swap\n');
    await p.write('stories/S-1/scratch/idea.md', 'maybe later\n');
    await p.write('stories/.DS_Store', 'finder\n');
    await p.write('stories/S-1/Thumbs.db', 'explorer\n');
    expect(gateOf(await p.view(), 'spec')).toMatchObject({ status: 'approved', drift: [] });

    // `**/*.json` cannot hide what Baton reads as a story or an acceptance criterion.
    await p.write('stories/S-1/acs/AC-3.json', { id: 'AC-3', given: 'g', when: 'w', then: 't' });
    await p.write('stories/S-1/.unlisted', 'x\n');
    expect(await driftNames('spec')).toEqual(['stories/S-1/.unlisted', 'stories/S-1/acs/AC-3.json']);
  });

  it('counts every file when project.json does not validate (fail closed)', async () => {
    await writeSettings({ gateIgnore: 'not a list' });
    await p.write('stories/S-1/x.swp', 'x\n');
    expect(await gateArtifacts(path.join(p.root, '.baton'), 'F-1', 'spec')).toContain('stories/S-1/x.swp');
  });
});

describe('the enumeration of a gate folder', () => {
  it('lists nested files of any extension, never loops on a symlink cycle, and names a link leading outside', async () => {
    await p.write('stories/S-1/media/deep/diagram.PNG', 'png\n');
    await fs.symlink('..', p.file('stories/S-1/acs/loop'));
    await fs.symlink(path.dirname(p.root), p.file('stories/S-1/outside'));
    const names = await artifactsIn(p.file(''), 'acceptance', 'S-1');
    expect(names).toEqual([
      'stories/S-1/acs/AC-1.json',
      'stories/S-1/acs/AC-2.json',
      'stories/S-1/media/deep/diagram.PNG',
      'stories/S-1/outside',
      'stories/S-1/story.json',
    ]);
    // A link that leads outside the project is content nobody can review: the gate cannot be approved.
    const evidence = await gateEvidence(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec' });
    expect(evidence.ok && evidence.value.approvable).toMatchObject({
      ok: false,
      reason: expect.stringContaining('stories/S-1/outside leads outside the project'),
    });
  });
});

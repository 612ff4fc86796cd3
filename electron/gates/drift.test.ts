import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jcsSha256, textSha256 } from '../ledger';
import { rejectGate } from './decide';
import { verifyGates } from './verify-gates';
import { gateOf, makeBatonProject, PERSON, type TestProject } from './gate-project.fixture';

let p: TestProject;
beforeEach(async () => {
  p = await makeBatonProject();
});
afterEach(() => p.cleanup());

describe('drift in a Baton project', () => {
  it('treats a file added under an approved gate (a new AC) as drift, until the gate is approved again', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const ac = { id: 'AC-3', given: 'an expired card', when: 'I pay', then: 'I am asked for another' };
    await p.write('stories/S-1/acs/AC-3.json', ac);

    const drifted = gateOf(await p.view(), 'spec');
    expect(drifted.status).toBe('drifted');
    expect(drifted.drift).toEqual([{ artifact: 'stories/S-1/acs/AC-3.json', expected: null, actual: jcsSha256(ac) }]);
    const report = await verifyGates(await p.view(), await p.records());
    expect(report.problems).toEqual([
      { file: '.baton/features/F-1/stories/S-1/acs/AC-3.json', message: expect.stringContaining('added after the spec gate was approved') },
    ]);

    expect((await p.approve('spec')).ok).toBe(true);
    expect(gateOf(await p.view(), 'spec')).toMatchObject({ status: 'approved', drift: [] });
  });

  it('counts an added file too large to read (hashed as a stream) and a symlink out of the project as drift, and verify reports both', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const big = Buffer.alloc(11 * 1024 * 1024, 'a');
    await p.write('stories/S-1/notes.bin', big.toString('latin1'));
    await fs.symlink('/etc/hostname', p.file('stories/S-1/outside.txt'));
    const drifted = gateOf(await p.view(), 'spec');
    expect(drifted.status).toBe('drifted');
    expect(drifted.drift).toEqual(
      expect.arrayContaining([
        { artifact: 'stories/S-1/notes.bin', expected: null, actual: createHash('sha256').update(big).digest('hex') },
        { artifact: 'stories/S-1/outside.txt', expected: null, actual: expect.stringMatching(/^[0-9a-f]{64}$/) },
      ]),
    );
    const report = await verifyGates(await p.view(), await p.records());
    expect(report.problems.map((problem) => problem.file)).toEqual(
      expect.arrayContaining(['.baton/features/F-1/stories/S-1/notes.bin', '.baton/features/F-1/stories/S-1/outside.txt']),
    );
  });

  it('lets a gate drifted by an added file be rejected and blocks the gates after it, like any drift', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    await p.write('stories/S-1/acs/AC-3.json', { id: 'AC-3', given: 'g', when: 'w', then: 't' });
    const design = await p.approve('design');
    expect(design.ok ? null : design.error.code).toBe('prerequisite');
    const rejected = await rejectGate(await p.view(), p.ledger, { feature: 'F-1', gate: 'spec', approver: PERSON, reason: 'AC-3 is out of scope' });
    expect(rejected.ok).toBe(true);
  });

  it('marks an approved gate drifted when one byte of an approved artifact changes, and clears when restored', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const approved = gateOf(await p.view(), 'spec');
    expect(approved).toMatchObject({ status: 'approved', drift: [], pendingSince: null, approver: 'Ada Lovelace <ada@example.com>' });
    expect(approved.artifacts.map((a) => a.name)).toContain('stories/S-1/acs/AC-1.json');

    const file = p.file('stories/S-1/acs/AC-1.json');
    const original = await fs.readFile(file, 'utf8');
    const changed = original.replace('the order is paid', 'the order is paiD');
    await fs.writeFile(file, changed);

    const drifted = gateOf(await p.view(), 'spec');
    expect(drifted.status).toBe('drifted');
    expect(drifted.drift).toEqual([
      { artifact: 'stories/S-1/acs/AC-1.json', expected: jcsSha256(JSON.parse(original)), actual: jcsSha256(JSON.parse(changed)) },
    ]);
    expect(drifted.pendingSince).not.toBeNull();

    const report = await verifyGates(await p.view(), await p.records());
    expect(report.gates.find((g) => g.gate === 'spec')?.status).toBe('drifted');
    expect(report.problems).toEqual([
      {
        file: '.baton/features/F-1/stories/S-1/acs/AC-1.json',
        message: expect.stringContaining(
          `changed after the spec gate was approved (expected ${jcsSha256(JSON.parse(original))}, found ${jcsSha256(JSON.parse(changed))})`,
        ),
      },
    ]);

    await fs.writeFile(file, original);
    expect(gateOf(await p.view(), 'spec')).toMatchObject({ status: 'approved', drift: [] });
    expect((await verifyGates(await p.view(), await p.records())).problems).toEqual([]);
  });

  it('ignores reformatting of a JSON artifact (canonical hash) but not of a text artifact', async () => {
    await p.write('ux-guide.md', '# UX\n\nButtons say what they do.\n');
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.approve('design')).ok).toBe(true);
    const arch = p.file('architecture.json');
    await fs.writeFile(arch, JSON.stringify(JSON.parse(await fs.readFile(arch, 'utf8'))));
    await p.write('ux-guide.md', '# UX  \r\n\r\nButtons say what they do.\n');
    expect(gateOf(await p.view(), 'design').status).toBe('approved');
    await p.write('ux-guide.md', '# UX\n\nButtons say what they mean.\n');
    const design = gateOf(await p.view(), 'design');
    expect(design.status).toBe('drifted');
    expect(design.drift).toEqual([
      { artifact: 'ux-guide.md', expected: textSha256('# UX\n\nButtons say what they do.\n'), actual: textSha256('# UX\n\nButtons say what they mean.\n') },
    ]);
  });

  it('reports a deleted approved artifact as missing, naming when it was approved', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    expect((await p.approve('design')).ok).toBe(true);
    await fs.rm(p.file('db-design.json'));
    const design = gateOf(await p.view(), 'design');
    expect(design.status).toBe('drifted');
    expect(design.drift).toEqual([{ artifact: 'db-design.json', expected: expect.stringMatching(/^[0-9a-f]{64}$/), actual: null }]);
    const { problems } = await verifyGates(await p.view(), await p.records());
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe('.baton/features/F-1/db-design.json');
    expect(problems[0]!.message).toMatch(/^missing; it was approved at \d{4}-\d\d-\d\dT/);
  });

  it('shows every gate of every feature, one acceptance per story, open with pendingSince until decided', async () => {
    const view = await p.view();
    const gates = view.features[0]!.gates;
    expect(gates.map((g) => (g.story ? `${g.name}:${g.story}` : g.name))).toEqual(['spec', 'design', 'test_list', 'acceptance:S-1', 'deploy', 'promote']);
    expect(gates.every((g) => g.status === 'open')).toBe(true);
    const times = await Promise.all(['stories/S-1/story.json', 'stories/S-1/acs/AC-1.json', 'stories/S-1/acs/AC-2.json'].map((f) => fs.stat(p.file(f))));
    const newest = times.map((t) => t.mtime).sort((a, b) => b.getTime() - a.getTime())[0]!;
    expect(gateOf(view, 'acceptance', 'S-1').pendingSince).toBe(newest.toISOString());
    expect(gateOf(view, 'deploy').pendingSince).toBe((await fs.stat(p.file('deploy-evidence.json'))).mtime.toISOString());
  });

  it('still reports an approval whose feature folder was deleted', async () => {
    expect((await p.approve('spec')).ok).toBe(true);
    const view = await p.view();
    const records = await p.records();
    await fs.rm(p.file(''), { recursive: true });
    await fs.mkdir(p.file('', 'F-2'), { recursive: true });
    await p.write('feature.json', { id: 'F-2', name: 'Other' }, 'F-2');
    const { gates, problems } = await verifyGates({ ...view, features: [] }, records);
    expect(gates).toEqual([expect.objectContaining({ feature: 'F-1', gate: 'spec', status: 'drifted' })]);
    expect(problems.map((x) => x.file)).toContain('.baton/features/F-1/feature.json');
  });
});

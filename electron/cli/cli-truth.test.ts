/**
 * What the CLI says is what the ledger holds (issue 34, "CLI truth"), on a real project run to its
 * acceptance gate (the tamper lab's, built once per run; every test works on its own copy): who
 * rejected or withdrew a gate, each story's status and each acceptance row's story, a failing
 * test's message in its record, and a run lock copied along with the project.
 */
import { realpath, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { seedTemplate } from '../branches/pglite/pglite.fixture';
import { RECORDED_MESSAGE_CHARS } from '../engine/step-support';
import { Ledger } from '../ledger';
import { projectDataDir } from '../platform/data-dir';
import { ATTACK_TIMEOUT, baton, BUILD_TIMEOUT, TamperLab, type Copy } from './tamper.fixture';

const lab = new TamperLab();
beforeAll(() => lab.build(), BUILD_TIMEOUT);
afterAll(() => lab.dispose());

const RITA = 'Rita Reviewer <rita@example.com>';
const ACCEPTANCE = ['--feature', 'F-1', '--story', 'S-1', '--gate', 'acceptance'];

interface InspectJson {
  features: { stories: { id: string; status: string }[]; gates: { name: string; story: string | null; status: string; decidedBy: { who: string } | null }[] }[];
}
const inspect = async (copy: Copy): Promise<InspectJson['features'][number]> =>
  (JSON.parse((await baton(copy.config, 'inspect', copy.root, '--json')).out) as InspectJson).features[0]!;

describe('baton gates and baton inspect', () => {
  it(
    'name who rejected a gate and who withdrew one, never "-"',
    async () => {
      const copy = await lab.copy();
      const rejected = await baton(copy.config, 'reject', copy.root, ...ACCEPTANCE, '--reason', 'The sum is wrong', '--approver', RITA);
      expect(rejected.code, rejected.err).toBe(0);
      const withdrawn = await baton(copy.config, 'withdraw', copy.root, '--feature', 'F-1', '--gate', 'test_list', '--reason', 'Needs T3', '--approver', RITA);
      expect(withdrawn.code, withdrawn.err).toBe(0);

      const gates = await baton(copy.config, 'gates', copy.root);
      expect(gates.out).toMatch(/^ {2}gate +status +decided by +decided at +notes$/m);
      expect(gates.out).toMatch(new RegExp(`^ {2}acceptance \\(S-1\\) +rejected +rejected by ${RITA} +\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z +The sum is wrong$`, 'm'));
      expect(gates.out).toMatch(new RegExp(`^ {2}test_list +withdrawn +withdrawn by ${RITA} +\\d{4}-`, 'm'));
      const text = await baton(copy.config, 'inspect', copy.root);
      expect(text.out).toMatch(new RegExp(`^ {4}acceptance \\(S-1\\) +rejected +rejected by ${RITA} +\\d{4}-`, 'm'));
      const acceptance = (await inspect(copy)).gates.find((g) => g.name === 'acceptance');
      expect(acceptance).toMatchObject({ story: 'S-1', status: 'rejected', decidedBy: { who: RITA } });
    },
    ATTACK_TIMEOUT,
  );

  it(
    "give each story the status its ledger proves (built, accepted, shipped) and each acceptance row its story's id",
    async () => {
      const copy = await lab.copy();
      const before = await inspect(copy);
      expect(before.stories).toEqual([{ id: 'S-1', status: 'awaiting-acceptance' }]);
      expect(before.gates.filter((g) => g.name === 'acceptance').map((g) => g.story)).toEqual(['S-1']);
      expect((await baton(copy.config, 'inspect', copy.root)).out).toMatch(/^ {4}S-1 +awaiting-acceptance$/m);

      const approved = await baton(copy.config, 'approve', copy.root, ...ACCEPTANCE, '--yes', '--approver', RITA);
      expect(approved.code, approved.err).toBe(0);
      expect((await inspect(copy)).stories).toEqual([{ id: 'S-1', status: 'accepted' }]);

      // What `baton promote` records once the feature is merged and migrated (its own tests run it for real).
      const ledger = Ledger.forArtifactRoot(join(copy.root, '.baton'));
      await ledger.append({
        type: RECORD_TYPES.promoteDone,
        actor: { kind: 'orchestrator', id: 'baton' },
        subject: { feature: 'F-1' },
        data: {
          feature: 'F-1',
          tier: 'main',
          tierCommit: 'a'.repeat(40),
          featureCommit: 'b'.repeat(40),
          mergeCommit: 'c'.repeat(40),
          snapshot: 's',
          applied: [],
        },
      });
      expect((await inspect(copy)).stories).toEqual([{ id: 'S-1', status: 'shipped' }]);
      expect((await baton(copy.config, 'inspect', copy.root)).out).toMatch(/^ {4}S-1 +shipped$/m);
    },
    ATTACK_TIMEOUT,
  );
});

describe('baton log', () => {
  it(
    "keeps a failing test's message in its run record, bounded, with no terminal control codes",
    async () => {
      const copy = await lab.copy();
      const log = JSON.parse((await baton(copy.config, 'log', copy.root, '--json')).out) as {
        records: { type: string; subject: { item?: string }; data: { cases?: { id: string; status: string; message: string | null }[] } }[];
      };
      const red = log.records.find((r) => r.type === RECORD_TYPES.cycleRed && r.subject.item === 'T1')!;
      const failing = red.data.cases!.filter((c) => c.status === 'failed');
      expect(failing.map((c) => c.id)).toEqual([expect.stringContaining('T1 adds')]);
      // node:assert's own words for `assert.equal(undefined, 5)`.
      expect(failing[0]!.message).toMatch(/undefined !== 5|strictly equal/);
      expect([...failing[0]!.message!].length).toBeLessThanOrEqual(RECORDED_MESSAGE_CHARS + 1);
      // eslint-disable-next-line no-control-regex -- the assertion is that none is there
      expect(failing[0]!.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
      // A passing test has nothing to say.
      const passing = log.records.flatMap((r) => (r.type === RECORD_TYPES.cycleGreen ? (r.data.cases ?? []) : [])).filter((c) => c.status === 'passed');
      expect(passing.length).toBeGreaterThan(0);
      expect(passing.every((c) => c.message === null)).toBe(true);
    },
    ATTACK_TIMEOUT,
  );
});

describe('a run lock copied with the project', () => {
  /** `baton run` on the copy, its databases seeded, with `lock` as its run lock file. */
  async function runWithLock(copy: Copy, lock: Record<string, unknown>) {
    await writeFile(join(copy.root, '.baton', 'state', 'run.lock'), JSON.stringify({ pid: process.pid, at: '2026-01-01T00:00:00.000Z', ...lock }));
    const dataDir = join(copy.base, 'data');
    await seedTemplate(projectDataDir(await realpath(copy.root), dataDir));
    const saved = process.env.BATON_DATA_DIR;
    process.env.BATON_DATA_DIR = dataDir;
    try {
      return await baton(copy.config, 'run', copy.root, '--until', 'acceptance');
    } finally {
      if (saved === undefined) delete process.env.BATON_DATA_DIR;
      else process.env.BATON_DATA_DIR = saved;
    }
  }

  it('is ignored and replaced, saying so, when it names another folder or another machine; one held here still refuses', async () => {
    const copy = await lab.copy();
    const here = await realpath(copy.root);
    // The original's live run (this very process) named its own folder: in the copy, that lock holds nothing.
    const copied = await runWithLock(copy, { host: hostname(), folder: '/elsewhere/app' });
    expect(copied.code, copied.err).toBe(0);
    expect(copied.err).toContain(
      `Ignored the run lock ${join(copy.root, '.baton', 'state', 'run.lock')}: it was copied with the project from another folder ` +
        `(pid ${process.pid} on ${hostname()} in /elsewhere/app, since 2026-01-01T00:00:00.000Z); no run holds it here, so this run replaced it.`,
    );
    const moved = await runWithLock(copy, { host: 'another-machine.example', folder: here });
    expect(moved.code, moved.err).toBe(0);
    expect(moved.err).toMatch(/Ignored the run lock .*: it was copied with the project from another machine \(pid \d+ on another-machine\.example in /);

    const held = await runWithLock(copy, { host: hostname(), folder: here });
    expect(held.code).toBe(1);
    expect(held.err).toContain(`Another Baton run (pid ${process.pid} on ${hostname()} in ${here}, since 2026-01-01T00:00:00.000Z) is working on this project`);
  }, 180_000);
});

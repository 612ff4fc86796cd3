/**
 * The tamper suite, part 3: files and words an attacker slips past the gates, on copies of one real
 * project (two items run to acceptance, so spec, design and test_list are approved and built on).
 * A hidden story folder and an AC with an upper-case extension added under the approved spec gate
 * are drift; `--expect __proto__=…` and an approver name carrying a terminal escape or a line break
 * are refused with nothing appended; deleting the feature's folder does not leave its approvals
 * silently standing in `baton gates`.
 */
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_TYPES } from '../../shared/records';
import { ATTACK_TIMEOUT, baton, BUILD_TIMEOUT, eventsFile, readRecords, TamperLab, verify, writeRecords, type Copy } from './tamper.fixture';

const FEATURE = '.baton/features/F-1';
const ADA = 'Ada <ada@example.com>';
const ACCEPTANCE = ['--feature', 'F-1', '--story', 'S-1', '--gate', 'acceptance'];

const lab = new TamperLab();
beforeAll(() => lab.build(), BUILD_TIMEOUT);
afterAll(() => lab.dispose());

const problem = (fields: { file?: string; seq?: number; message: RegExp }) => {
  const { message, ...rest } = fields;
  return expect.objectContaining({ ...rest, message: expect.stringMatching(message) });
};

/** Writes `rel` (inside the copy) with `value` as JSON. */
const put = async (copy: Copy, rel: string, value: unknown) => {
  await mkdir(join(copy.root, rel, '..'), { recursive: true });
  await writeFile(join(copy.root, rel), `${JSON.stringify(value, null, 2)}\n`);
};

/** The drift verify shows on the spec gate, and the problem naming the added file. */
const expectAddedUnderSpec = async (copy: Copy, name: string) => {
  const { code, report } = await verify(copy);
  expect(code).toBe(1);
  const spec = report.gates.find((g) => g.gate === 'spec')!;
  expect(spec.drift).toContainEqual({ artifact: name, expected: null, actual: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(report.problems).toContainEqual(problem({ file: `${FEATURE}/${name}`, message: /added after the spec gate was approved/ }));
};

/** The current hashes of the acceptance gate's artifacts, as `baton approve` lists them. */
const acceptanceHashes = async (copy: Copy): Promise<string[]> => {
  const listed = await baton(copy.config, 'approve', copy.root, ...ACCEPTANCE, '--approver', ADA);
  expect(listed.code).toBe(2);
  return [...listed.err.matchAll(/^\s+(\S+=[0-9a-f]{64})$/gm)].map((m) => m[1]!);
};

/** Runs `baton approve` and asserts it was refused (non-zero) with the ledger byte for byte as before. */
const refusedApproval = async (copy: Copy, ...args: string[]) => {
  const before = await readFile(eventsFile(copy.root));
  const run = await baton(copy.config, 'approve', copy.root, ...ACCEPTANCE, ...args, '--json');
  expect(run.code).not.toBe(0);
  expect((await readFile(eventsFile(copy.root))).equals(before)).toBe(true);
  return run;
};

describe('symlinks at a parent of the ledger', () => {
  it(
    '`.baton/ledger` replaced by a link to a folder outside (holding a copy of the ledger): verify refuses to read it and exits 1, naming the link',
    async () => {
      const copy = await lab.copy();
      const ledger = join(copy.root, '.baton', 'ledger');
      const outside = join(copy.base, 'elsewhere');
      await cp(ledger, outside, { recursive: true });
      await rm(ledger, { recursive: true });
      await symlink(outside, ledger);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems.map((p) => p.message).join('\n')).toMatch(
        /is inside .*\.baton\/ledger, a symbolic link: Baton reads a ledger only from the project's own folders/,
      );
    },
    ATTACK_TIMEOUT,
  );

  it(
    'checkpoints.jsonl made a link to /etc/passwd after signing: not read, a problem naming it, verify exits 1',
    async () => {
      const copy = await lab.copy();
      expect((await baton(copy.config, 'sign', copy.root)).code).toBe(0);
      const checkpoints = join(copy.root, '.baton', 'ledger', 'checkpoints.jsonl');
      await rm(checkpoints);
      await symlink('/etc/passwd', checkpoints);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      const messages = report.problems.map((p) => p.message).join('\n');
      expect(messages).toMatch(/checkpoints\.jsonl is a symbolic link/);
      expect(messages).not.toMatch(/root:/);
    },
    ATTACK_TIMEOUT,
  );
});

describe("symlinks on Baton's writes", () => {
  it(
    '`.baton/ledger/blobs` replaced by a link to an empty folder outside: an approval is refused naming the link, nothing is written there, the ledger is unchanged',
    async () => {
      const copy = await lab.copy();
      const blobs = join(copy.root, '.baton', 'ledger', 'blobs');
      const outside = join(copy.base, 'blobs-elsewhere');
      await mkdir(outside);
      await rm(blobs, { recursive: true });
      await symlink(outside, blobs);
      const hashes = await acceptanceHashes(copy);
      const run = await refusedApproval(copy, '--approver', ADA, ...hashes.flatMap((h) => ['--expect', h]));
      expect(run.out + run.err).toMatch(
        /\.baton\/ledger\/blobs is a symbolic link \(to .*blobs-elsewhere\), and Baton writes only into the project's own folders/,
      );
      expect(await readdir(outside)).toEqual([]);
    },
    ATTACK_TIMEOUT,
  );

  it(
    '`.baton/features` replaced by a link to a folder outside: `baton feature new` is refused naming the link, and creates (or deletes) nothing there',
    async () => {
      const copy = await lab.copy();
      const features = join(copy.root, '.baton', 'features');
      const outside = join(copy.base, 'features-elsewhere');
      await cp(features, outside, { recursive: true });
      await rm(features, { recursive: true });
      await symlink(outside, features);
      const before = await readdir(outside);
      const request = join(copy.base, 'request.md');
      await writeFile(request, 'Gift cards that can be topped up and spent.\n');
      const events = await readFile(eventsFile(copy.root));
      const run = await baton(copy.config, 'feature', 'new', copy.root, '--title', 'Gift cards', '--request', request, '--approver', ADA);
      expect(run.code).not.toBe(0);
      expect(run.out + run.err).toMatch(/\.baton\/features is a symbolic link/);
      expect(await readdir(outside)).toEqual(before);
      expect((await readFile(eventsFile(copy.root))).equals(events)).toBe(true);
    },
    ATTACK_TIMEOUT,
  );
});

describe('gated files and gate words', () => {
  it(
    "an approval whose approver was edited in place (its hash now fails) decides nothing in `baton gates`: Mallory's name is shown nowhere",
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const spec = records.find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec')!;
      await writeRecords(
        copy.root,
        records.map((r) => (r === spec ? { ...r, data: { ...r.data, approver: 'Mallory <mallory@example.com>' } } : r)),
      );
      const gates = await baton(copy.config, 'gates', copy.root, '--json');
      expect(gates.out).not.toContain('Mallory');
      const shown = JSON.parse(gates.out) as { features: { gates: { name: string; status: string }[] }[] };
      expect(shown.features[0]!.gates.find((g) => g.name === 'spec')!.status).not.toBe('approved');
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(problem({ seq: spec.seq, message: /content was changed after it was written/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'the control: the untouched copy verifies, `baton gates` is clean, and an honest approval appends exactly one record',
    async () => {
      const copy = await lab.copy();
      const { code, report } = await verify(copy);
      expect(report.problems).toEqual([]);
      expect(code).toBe(0);
      const gates = await baton(copy.config, 'gates', copy.root, '--json');
      expect(gates.code).toBe(0);
      const before = (await readFile(eventsFile(copy.root), 'utf8')).split('\n').filter(Boolean).length;
      const hashes = await acceptanceHashes(copy);
      expect(hashes).toHaveLength(2);
      const approved = await baton(copy.config, 'approve', copy.root, ...ACCEPTANCE, '--approver', ADA, ...hashes.flatMap((h) => ['--expect', h]), '--json');
      expect(approved.code).toBe(0);
      expect((await readFile(eventsFile(copy.root), 'utf8')).split('\n').filter(Boolean)).toHaveLength(before + 1);
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a hidden story folder (stories/.S-9/story.json) added under the approved spec gate is drift',
    async () => {
      const copy = await lab.copy();
      await put(copy, `${FEATURE}/stories/.S-9/story.json`, {
        id: 'S-9',
        title: 'Hidden',
        as_a: 'attacker',
        i_want: 'an unreviewed story',
        so_that: 'it ships',
      });
      await expectAddedUnderSpec(copy, 'stories/.S-9/story.json');
    },
    ATTACK_TIMEOUT,
  );

  it(
    'an AC file named AC-99.JSON (upper-case extension) is drift',
    async () => {
      const copy = await lab.copy();
      await put(copy, `${FEATURE}/stories/S-1/acs/AC-99.JSON`, { id: 'AC-99', given: 'anything', when: 'it runs', then: 'it is accepted' });
      await expectAddedUnderSpec(copy, 'stories/S-1/acs/AC-99.JSON');
    },
    ATTACK_TIMEOUT,
  );

  it(
    'approve --expect __proto__=<hash> is refused and records nothing, alone or beside the real hashes',
    async () => {
      const copy = await lab.copy();
      const hashes = await acceptanceHashes(copy);
      const proto = `__proto__=${'a'.repeat(64)}`;
      const alone = await refusedApproval(copy, '--approver', ADA, '--expect', proto);
      expect(alone.err).toContain('__proto__');
      const beside = await refusedApproval(copy, '--approver', ADA, ...[...hashes, proto].flatMap((h) => ['--expect', h]));
      expect(beside.err).toContain('__proto__');
    },
    ATTACK_TIMEOUT,
  );

  it.each([
    ['a terminal escape and a newline', 'Eve\u001b[2J\nApproved-by: Ada <ada@example.com>'],
    ['a newline', 'Eve <eve@example.com>\nApproved-by: Ada <ada@example.com>'],
  ])(
    'an approver name with %s is refused and records nothing',
    async (_what, approver) => {
      const copy = await lab.copy();
      const run = await refusedApproval(copy, '--approver', approver, '--yes');
      expect(run.err).toMatch(/approver name/i);
      expect(JSON.parse(run.out)).toMatchObject({ ok: false, error: { message: expect.stringContaining('Nothing was recorded') } });
    },
    ATTACK_TIMEOUT,
  );

  it(
    '`baton gates --json` after the feature folder is deleted: its approvals show drifted (every file missing), exit 1',
    async () => {
      const copy = await lab.copy();
      await rm(join(copy.root, FEATURE), { recursive: true });
      const gates = await baton(copy.config, 'gates', copy.root, '--json');
      expect(gates.code).toBe(1);
      const shown = JSON.parse(gates.out) as {
        features: unknown[];
        missingFeatures?: { id: string; gates: { name: string; status: string; drift: { artifact: string; actual: string | null }[] }[] }[];
      };
      expect(shown.features).toEqual([]);
      const missing = shown.missingFeatures?.find((f) => f.id === 'F-1');
      expect(missing?.gates.map((g) => [g.name, g.status])).toEqual([
        ['spec', 'drifted'],
        ['design', 'drifted'],
        ['test_list', 'drifted'],
      ]);
      expect(missing?.gates.find((g) => g.name === 'spec')?.drift).toContainEqual({ artifact: 'feature.json', expected: expect.any(String), actual: null });
      const verified = await verify(copy);
      expect(verified.code).toBe(1);
      expect(verified.report.problems).toContainEqual(problem({ file: `${FEATURE}/feature.json`, message: /^missing; it was approved/ }));
    },
    ATTACK_TIMEOUT,
  );
});

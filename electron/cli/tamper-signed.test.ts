/**
 * The tamper suite, part 2: signed checkpoints against an attacker with write access to the project
 * folder (not to the victim's config folder, where the victim's key and trust lists live). Each
 * attack on its own copy of one real project; `baton sign` and `baton verify` run in-process, each
 * with the BATON_CONFIG_DIR of whoever runs it. A record forged after the signed head, a chain
 * rewritten and re-signed with the attacker's own key, a key vouched for by project.json, a rotated
 * key, an edited checkpoint, checkpoints deleted, and a ledger cut short with git's branches too.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import {
  anchoredCommits,
  ATTACK_TIMEOUT,
  baton,
  BUILD_TIMEOUT,
  checkpointsFile,
  eventsFile,
  forgeAfter,
  readRecords,
  rechain,
  TamperLab,
  verify,
  writeRecords,
  type Copy,
} from './tamper.fixture';

const CHECKPOINTS = '.baton/ledger/checkpoints.jsonl';
const MALLORY = 'Mallory <mallory@example.com>';

const lab = new TamperLab();
beforeAll(() => lab.build(), BUILD_TIMEOUT);
afterAll(() => lab.dispose());

/** `baton sign <copy> --json [flags]` as the owner of `config`: exit 0, and the checkpoint it made. */
const sign = async (config: string, copy: Copy, ...flags: string[]) => {
  const run = await baton(config, 'sign', copy.root, '--json', ...flags);
  expect(run.code).toBe(0);
  return JSON.parse(run.out) as { seq: number; head: string; publicKey: string; retired: string | null };
};

const problem = (fields: { file?: string; seq?: number; message: RegExp }) => {
  const { message, ...rest } = fields;
  return expect.objectContaining({ ...rest, message: expect.stringMatching(message) });
};

interface Checkpoint {
  seq: number;
  head: string;
  time: string;
  publicKey: string;
  signature: string;
}
const readCheckpoints = async (copy: Copy): Promise<Checkpoint[]> =>
  (await readFile(checkpointsFile(copy.root), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Checkpoint);
const writeCheckpoints = (copy: Copy, lines: readonly Checkpoint[]) =>
  writeFile(checkpointsFile(copy.root), lines.map((c) => `${JSON.stringify(c)}\n`).join(''));

/** The spec approval's approver rewritten, every hash after it recomputed: the chain is intact. */
const rewriteApprover = async (copy: Copy) => {
  const records = await readRecords(copy.root);
  const approval = records.find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec')!;
  await writeRecords(copy.root, rechain(records.map((r) => (r.seq === approval.seq ? { ...r, data: { ...r.data, approver: MALLORY } } : r))));
};

/** An approval of the story's acceptance gate Mallory never had the right to make, with the story's real hashes and blobs. */
const forgedAcceptance = (records: readonly LedgerRecord[]): LedgerRecord => {
  const spec = records.find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec')!;
  const story = (name: string) => name.startsWith('stories/S-1/');
  const artifacts = Object.fromEntries(Object.entries(spec.data.artifacts as Record<string, unknown>).filter(([name]) => story(name)));
  return forgeAfter(records, {
    at: new Date().toISOString(),
    type: RECORD_TYPES.gateApproved,
    actor: { kind: 'person', id: MALLORY },
    subject: { feature: 'F-1', story: 'S-1', gate: 'acceptance' },
    data: { gate: 'acceptance', approver: MALLORY, artifacts },
    blobs: spec.blobs.filter((b) => story(b.name)),
  });
};

describe('signed checkpoints', () => {
  it(
    'the control: an unsigned copy verifies (exit 0, unsigned) and --strict asks for a checkpoint',
    async () => {
      const copy = await lab.copy();
      const { code, report } = await verify(copy);
      expect(report.problems).toEqual([]);
      expect(report.signature).toBe('unsigned');
      expect(code).toBe(0);
      const strict = await verify(copy, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.strict).toEqual([expect.stringMatching(/^no signed checkpoint/)]);
    },
    ATTACK_TIMEOUT,
  );

  it(
    '6. a record forged after the signed head: plain verify passes with an unsigned tail of 1, --strict fails naming it',
    async () => {
      const copy = await lab.copy();
      const signed = await sign(copy.config, copy);
      const records = await readRecords(copy.root);
      expect(signed).toMatchObject({ seq: records.length, head: records.at(-1)!.hash });
      const clean = await verify(copy);
      expect(clean.code).toBe(0);
      expect(clean.report).toMatchObject({ signature: 'signed', checkpoints: { count: 1, signedSeq: records.length, unsignedTail: 0 } });
      expect((await verify(copy, '--strict')).code).toBe(0);

      await writeFile(eventsFile(copy.root), `${JSON.stringify(forgedAcceptance(records))}\n`, { flag: 'a' });
      const plain = await verify(copy);
      expect(plain.report.chain.ok).toBe(true);
      expect(plain.report.checkpoints).toMatchObject({ signedSeq: records.length, unsignedTail: 1 });
      expect(plain.code).toBe(0);
      const strict = await verify(copy, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.strict).toEqual([`unsigned tail: 1 record after the checkpoint at #${records.length}: run \`baton sign\``]);
    },
    ATTACK_TIMEOUT,
  );

  it(
    "7. the chain rewritten and re-signed with the attacker's own key: untrusted (strict names the key); kept beside the victim's checkpoint: invalid",
    async () => {
      const copy = await lab.copy();
      const legit = await sign(copy.config, copy);
      const victims = await readFile(checkpointsFile(copy.root), 'utf8');
      await rewriteApprover(copy);
      await rm(checkpointsFile(copy.root));
      const attacker = await sign(await lab.person(copy, 'attacker'), copy);
      expect(attacker.publicKey).not.toBe(legit.publicKey);

      const plain = await verify(copy);
      expect(plain.report.signature).toBe('untrusted');
      expect(plain.report.checkpoints?.untrustedKeys).toEqual([attacker.publicKey]);
      // The rewrite itself: the commits name records the rewritten ledger no longer holds.
      expect(plain.code).toBe(1);
      expect(plain.report.problems).toContainEqual(
        problem({ file: '.baton/ledger/events.jsonl', message: /^commit [0-9a-f]{12} .*which the ledger does not hold/ }),
      );
      const strict = await verify(copy, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.strict).toContainEqual(
        expect.stringContaining(`checkpoints signed by a key on no trusted list (${attacker.publicKey.slice(0, 16)}…)`),
      );

      // The attacker keeps the victim's checkpoints and appends theirs: the victim's no longer matches.
      await writeFile(checkpointsFile(copy.root), victims + (await readFile(checkpointsFile(copy.root), 'utf8')));
      const kept = await verify(copy);
      expect(kept.code).toBe(1);
      expect(kept.report.signature).toBe('invalid');
      expect(kept.report.problems).toContainEqual(
        problem({
          file: CHECKPOINTS,
          seq: legit.seq,
          message: new RegExp(`^the ledger no longer matches the checkpoint at record #${legit.seq} .*line 1: .*signed ${legit.head.slice(0, 12)}…`),
        }),
      );
    },
    ATTACK_TIMEOUT,
  );

  it(
    "8. a key in project.json's trustedKeys makes its checkpoint signed; --own-trust ignores that list",
    async () => {
      const copy = await lab.copy();
      const teammate = await sign(await lab.person(copy, 'teammate'), copy);
      const before = await verify(copy);
      expect(before.report).toMatchObject({ signature: 'untrusted', checkpoints: { untrustedKeys: [teammate.publicKey] } });

      const settingsFile = join(copy.root, '.baton', 'project.json');
      const settings = JSON.parse(await readFile(settingsFile, 'utf8')) as Record<string, unknown>;
      await writeFile(settingsFile, `${JSON.stringify({ ...settings, trustedKeys: [{ key: teammate.publicKey, name: 'Teammate' }] }, null, 2)}\n`);
      const listed = await verify(copy);
      expect(listed.code).toBe(0);
      expect(listed.report).toMatchObject({ signature: 'signed', checkpoints: { untrustedKeys: [] } });
      expect((await verify(copy, '--strict')).code).toBe(0);

      const own = await verify(copy, '--own-trust');
      expect(own.report).toMatchObject({ signature: 'untrusted', checkpoints: { untrustedKeys: [teammate.publicKey] } });
      const ownStrict = await verify(copy, '--strict', '--own-trust');
      expect(ownStrict.code).toBe(1);
      expect(ownStrict.report.strict).toContainEqual(expect.stringContaining(teammate.publicKey.slice(0, 16)));
    },
    ATTACK_TIMEOUT,
  );

  it(
    '9. sign --rotate: prints the new key and the retired one; the retired key still vouches for its checkpoint for the same user',
    async () => {
      const copy = await lab.copy();
      const first = await sign(copy.config, copy);
      const rotated = await baton(copy.config, 'sign', copy.root, '--rotate');
      expect(rotated.code).toBe(0);
      const current = /with key ([A-Za-z0-9_-]{43})/.exec(rotated.out)?.[1];
      expect(current).toBeDefined();
      expect(current).not.toBe(first.publicKey);
      expect(rotated.out).toContain(`Retired key ${first.publicKey}`);
      expect((await readCheckpoints(copy)).map((c) => c.publicKey)).toEqual([first.publicKey, current]);
      const { code, report } = await verify(copy);
      expect(code).toBe(0);
      expect(report).toMatchObject({ signature: 'signed', checkpoints: { count: 2, untrustedKeys: [] } });
      // Someone else, who trusts neither key, sees both as untrusted.
      const stranger = await verify({ root: copy.root, config: await lab.person(copy, 'stranger') });
      expect(stranger.report.signature).toBe('untrusted');
      expect([...(stranger.report.checkpoints?.untrustedKeys ?? [])].sort()).toEqual([first.publicKey, current].sort());
    },
    ATTACK_TIMEOUT,
  );

  it.each([
    ['time', (c: Checkpoint): Checkpoint => ({ ...c, time: '2020-01-01T00:00:00.000Z' })],
    ['seq', (c: Checkpoint): Checkpoint => ({ ...c, seq: c.seq - 1 })],
  ])(
    "10. a checkpoint's %s edited: invalid, naming the checkpoint",
    async (_field, edit) => {
      const copy = await lab.copy();
      await sign(copy.config, copy);
      const [checkpoint] = await readCheckpoints(copy);
      const edited = edit(checkpoint!);
      await writeCheckpoints(copy, [edited]);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.signature).toBe('invalid');
      expect(report.problems).toContainEqual(
        problem({
          file: CHECKPOINTS,
          seq: edited.seq,
          message: new RegExp(`^the signature of the checkpoint at record #${edited.seq} .* does not verify: the checkpoint was edited`),
        }),
      );
    },
    ATTACK_TIMEOUT,
  );

  it(
    'checkpoints.jsonl deleted: plain verify says unsigned, --strict fails',
    async () => {
      const copy = await lab.copy();
      await sign(copy.config, copy);
      await rm(checkpointsFile(copy.root));
      expect((await verify(copy)).report.signature).toBe('unsigned');
      const strict = await verify(copy, '--strict');
      expect(strict.code).toBe(1);
      expect(strict.report.strict).toEqual([expect.stringMatching(/^no signed checkpoint/)]);
    },
    ATTACK_TIMEOUT,
  );

  it(
    "rolled back to the victim's own older signed state (ledger cut to an older checkpoint, that checkpoint file put back, git's baton branches deleted): this machine's witness says rolled back, --strict too",
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const whole = await readFile(eventsFile(copy.root), 'utf8');
      // The victim signed once at an older state, kept by the attacker, and again at the head.
      const older = records.find((r) => r.type === RECORD_TYPES.branchCreated)!.seq;
      await writeRecords(copy.root, records.slice(0, older));
      await sign(copy.config, copy);
      const olderCheckpoints = await readFile(checkpointsFile(copy.root), 'utf8');
      await writeFile(eventsFile(copy.root), whole);
      const newest = await sign(copy.config, copy);
      expect((await verify(copy, '--strict')).code).toBe(0);
      // The attack: everything put back to the older signed state, with no trailer left to see it.
      await writeRecords(copy.root, records.slice(0, older));
      await writeFile(checkpointsFile(copy.root), olderCheckpoints);
      await rm(join(copy.root, '.git', 'refs', 'heads', 'baton'), { recursive: true });
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      // The folder alone is consistent: signed to its end…
      expect(report.signature).toBe('signed');
      expect(report.checkpoints?.unsignedTail).toBe(0);
      // …but this machine has seen it signed further.
      expect(report.problems).toContainEqual(
        problem({
          file: CHECKPOINTS,
          seq: newest.seq,
          message: new RegExp(
            `^rolled back: this machine has seen record #${newest.seq} \\(head ${newest.head.slice(0, 12)}…\\) signed by key .* but the ledger ends at record #${older} `,
          ),
        }),
      );
      expect((await verify(copy, '--strict')).code).toBe(1);
      // Another reviewer's machine, which never saw the newer state, cannot tell (the limit a shared witness lifts).
      expect((await verify({ root: copy.root, config: join(copy.base, 'other-reviewer') })).code).toBe(0);
    },
    ATTACK_TIMEOUT,
  );

  it(
    "the ledger cut short and git's baton branches deleted too (no trailer left to see it): the checkpoint names the record that is gone",
    async () => {
      const copy = await lab.copy();
      const signed = await sign(copy.config, copy);
      const records = await readRecords(copy.root);
      const firstBuilt = records.find((r) => r.type === RECORD_TYPES.branchCreated)!;
      await writeRecords(copy.root, records.slice(0, firstBuilt.seq - 1));
      // Without git: the orchestrator's branches live under refs/heads/baton/ (loose refs in a fresh repository).
      await rm(join(copy.root, '.git', 'refs', 'heads', 'baton'), { recursive: true });
      expect(await readFile(join(copy.root, '.git', 'packed-refs'), 'utf8').catch(() => '')).not.toContain('refs/heads/baton/');
      expect(await anchoredCommits(copy.root)).toEqual([]);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.signature).toBe('invalid');
      expect(report.problems).toContainEqual(
        problem({
          file: CHECKPOINTS,
          seq: signed.seq,
          message: new RegExp(`vouches for record #${signed.seq}, but the ledger has no record #${signed.seq} now`),
        }),
      );
    },
    ATTACK_TIMEOUT,
  );
});

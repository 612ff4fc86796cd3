/**
 * The tamper suite, part 1: what an attacker with write access to the project folder can do to the
 * ledger itself, each attack on its own copy of one real project (two items run to acceptance, real
 * git), each checked with `baton verify <copy> --json`: the exit code, and a problem naming the
 * record, the file or the commit. Edits in place, removed, reordered, repeated or torn records and
 * damaged blobs break the chain; a ledger cut short, emptied, deleted or rechained after an edit
 * chains perfectly, and only git's Baton-Evidence trailers show what is gone.
 */
import { appendFile, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { loadProject } from '../core/load-project';
import {
  anchoredCommits,
  ATTACK_TIMEOUT,
  blobFile,
  BUILD_TIMEOUT,
  eventsFile,
  problemText,
  readRecords,
  rechain,
  short,
  TamperLab,
  verify,
  writeRecords,
  type AnchoredCommit,
  type Copy,
  type Report,
} from './tamper.fixture';

const EVENTS = '.baton/ledger/events.jsonl';
const MALLORY = 'Mallory <mallory@example.com>';

const lab = new TamperLab();
beforeAll(() => lab.build(), BUILD_TIMEOUT);
afterAll(() => lab.dispose());

/** A problem with these fields (message: a pattern it matches). */
const problem = (fields: { file?: string; seq?: number; message: RegExp }) => {
  const { message, ...rest } = fields;
  return expect.objectContaining({ ...rest, message: expect.stringMatching(message) });
};

/** The commit problem verify reports for `commit` whose evidence `hash` the ledger no longer holds. */
const lostEvidence = (commit: AnchoredCommit, hash: string) =>
  problem({ file: EVENTS, message: new RegExp(`^commit ${short(commit.sha)} .* names evidence record ${short(hash)}…, which the ledger does not hold`) });

/** Each anchored commit with the seq of the (first) record its trailer names in `records`. */
const anchoredSeqs = async (copy: Copy, records: readonly LedgerRecord[]) => {
  const seqOf = new Map(records.map((r) => [r.hash, r.seq]));
  return (await anchoredCommits(copy.root)).map((commit) => ({ commit, hash: commit.evidence[0]!, seq: seqOf.get(commit.evidence[0]!)! }));
};

const namesCommit = (report: Report, commit: AnchoredCommit) => problemText(report).some((p) => p.includes(`commit ${short(commit.sha)} `));

/** Applies `edit` to the copy's parsed records and writes them back as they are (no rehashing). */
const editRecords = async (copy: Copy, edit: (records: LedgerRecord[]) => LedgerRecord[]) => writeRecords(copy.root, edit(await readRecords(copy.root)));

describe('the control', () => {
  it(
    'an untouched copy verifies: exit 0, every record anchored, no problems',
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const anchored = await anchoredSeqs(copy, records);
      // The fixture is what the attacks need: four orchestrator commits, each naming a record the ledger holds.
      expect(anchored.map((a) => a.commit.subject)).toEqual([
        'feat(T2): GREEN',
        'test(T2): RED, tests locked',
        'feat(T1): GREEN',
        'test(T1): RED, tests locked',
      ]);
      expect(anchored.every((a) => a.seq > 0)).toBe(true);
      expect(records.some((r) => r.type === RECORD_TYPES.cycleViolation)).toBe(true);
      const { code, report } = await verify(copy);
      expect(report.problems).toEqual([]);
      expect(report).toMatchObject({ ok: true, records: records.length, chain: { ok: true }, signature: 'unsigned' });
      expect(code).toBe(0);
    },
    ATTACK_TIMEOUT,
  );
});

describe('already caught by the chain (regression guard)', () => {
  it(
    "an in-place edit of a record's data: names that record",
    async () => {
      const copy = await lab.copy();
      await editRecords(copy, (records) => records.map((r) => (r.seq === 1 ? { ...r, data: { ...r.data, approver: MALLORY } } : r)));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain).toEqual({ ok: false, brokenAt: 1 });
      expect(report.problems).toContainEqual(problem({ file: EVENTS, seq: 1, message: /^record #1 .*content was changed after it was written/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a record deleted from the middle: the record after the gap names the missing one',
    async () => {
      const copy = await lab.copy();
      await editRecords(copy, (records) => records.filter((r) => r.seq !== 12));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain.brokenAt).toBe(13);
      expect(report.problems).toContainEqual(problem({ file: EVENTS, seq: 13, message: /record #12 is missing/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'two records swapped: both are named',
    async () => {
      const copy = await lab.copy();
      await editRecords(copy, (records) => records.map((r, i) => (i === 12 ? records[13]! : i === 13 ? records[12]! : r)));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(problem({ file: EVENTS, seq: 14, message: /record #13 is missing/ }));
      expect(report.problems).toContainEqual(problem({ file: EVENTS, seq: 13, message: /out of order or repeated/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a record duplicated: the copy is named',
    async () => {
      const copy = await lab.copy();
      await editRecords(copy, (records) => [...records.slice(0, 13), records[12]!, ...records.slice(13)]);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain.brokenAt).toBe(13);
      expect(report.problems).toContainEqual(problem({ file: EVENTS, seq: 13, message: /^record #13 \(line 14\).*out of order or repeated/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a torn last line (half a record): names the incomplete line',
    async () => {
      const copy = await lab.copy();
      const lines = (await readFile(eventsFile(copy.root), 'utf8')).split('\n').filter(Boolean);
      const last = lines.at(-1)!;
      await appendFile(eventsFile(copy.root), last.slice(0, Math.floor(last.length / 2)));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(problem({ file: EVENTS, message: new RegExp(`incomplete line \\(line ${lines.length + 1}:`) }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a flipped byte in a blob: names the blob file and the record',
    async () => {
      const copy = await lab.copy();
      const { sha256, name } = (await readRecords(copy.root))[0]!.blobs[0]!;
      const bytes = await readFile(blobFile(copy.root, sha256));
      bytes[bytes.length - 3]! ^= 0x01;
      await writeFile(blobFile(copy.root, sha256), bytes);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(
        problem({ file: `.baton/ledger/blobs/${sha256}`, seq: 1, message: new RegExp(`^blob "${name}" of record #1 .* was changed`) }),
      );
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a deleted blob: names the blob file and the first record that holds it',
    async () => {
      const copy = await lab.copy();
      const red = (await readRecords(copy.root)).find((r) => r.type === RECORD_TYPES.cycleRed)!;
      const { sha256 } = red.blobs[0]!;
      await rm(blobFile(copy.root, sha256));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(
        problem({ file: `.baton/ledger/blobs/${sha256}`, seq: red.seq, message: /is missing: the evidence it held is gone/ }),
      );
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a blob replaced by a symbolic link to the same content: refused, not followed',
    async () => {
      const copy = await lab.copy();
      const { sha256 } = (await readRecords(copy.root))[0]!.blobs[0]!;
      const elsewhere = join(copy.base, 'elsewhere');
      await writeFile(elsewhere, await readFile(blobFile(copy.root, sha256)));
      await rm(blobFile(copy.root, sha256));
      await symlink(elsewhere, blobFile(copy.root, sha256));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.problems).toContainEqual(problem({ file: `.baton/ledger/blobs/${sha256}`, seq: 1, message: /symbolic link/ }));
    },
    ATTACK_TIMEOUT,
  );

  it(
    'a gated artifact edited after approval (feature.json): drift names the file',
    async () => {
      const copy = await lab.copy();
      await writeFile(join(copy.root, '.baton/features/F-1/feature.json'), `${JSON.stringify({ id: 'F-1', name: 'Calculator', description: 'Subtracts.' })}\n`);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      const spec = report.gates.find((g) => g.gate === 'spec')!;
      expect(spec.drift).toEqual([expect.objectContaining({ artifact: 'feature.json', actual: expect.stringMatching(/^[0-9a-f]{64}$/) })]);
      expect(report.problems).toContainEqual(problem({ file: '.baton/features/F-1/feature.json', message: /changed after the spec gate was approved/ }));
    },
    ATTACK_TIMEOUT,
  );
});

describe('caught only by git: the chain is intact, the commits name records it no longer holds', () => {
  it(
    '1. truncation: the last records cut off (a GREEN among them) names the GREEN commit',
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const green = records.filter((r) => r.type === RECORD_TYPES.cycleGreen && r.data.verdict === 'green').at(-1)!;
      const anchored = await anchoredSeqs(copy, records);
      // N = every record from the last GREEN on.
      await writeRecords(copy.root, records.slice(0, green.seq - 1));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain.ok).toBe(true);
      expect(report.records).toBe(green.seq - 1);
      const cut = anchored.filter((a) => a.seq >= green.seq);
      expect(cut.map((a) => a.hash)).toContain(green.hash);
      for (const { commit, hash } of cut) expect(report.problems).toContainEqual(lostEvidence(commit, hash));
      // The commits whose records remain are not named.
      for (const { commit } of anchored.filter((a) => a.seq < green.seq)) expect(namesCommit(report, commit)).toBe(false);
    },
    ATTACK_TIMEOUT,
  );

  const wholeLedgerGone = async (copy: Copy, records: readonly LedgerRecord[]) => {
    const anchored = await anchoredSeqs(copy, records);
    const { code, report } = await verify(copy);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.records).toBe(0);
    expect(report.problems).toContainEqual(
      problem({ file: EVENTS, message: new RegExp(`^the ledger has no records, but ${anchored.length} commit trailers name evidence`) }),
    );
    expect(anchored.filter(({ commit }) => namesCommit(report, commit))).not.toEqual([]);
    const tip = anchored[0]!.commit;
    for (const gate of ['spec', 'design', 'test_list']) {
      expect(report.problems).toContainEqual(
        problem({
          file: EVENTS,
          message: new RegExp(`^the ${gate} gate of F-1 has no decision in the ledger, but baton/f-1--s-1 holds commits .*\\(${short(tip.sha)} `),
        }),
      );
    }
  };

  it(
    '2. events.jsonl emptied: no records, yet commit trailers name evidence and built commits need the spec, design and test_list approvals',
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      await writeFile(eventsFile(copy.root), '');
      await wholeLedgerGone(copy, records);
      // The app's Problems list says it too: the gates read "open", and that is not to be believed.
      const loaded = await loadProject(copy.root);
      if (!loaded.ok) throw new Error(loaded.error.message);
      expect(loaded.value.view.problems.map((p) => p.message)).toContainEqual(expect.stringMatching(/^the spec gate of F-1 has no decision in the ledger/));
      await loaded.value.dispose();
    },
    ATTACK_TIMEOUT,
  );

  it(
    '3. the whole .baton/ledger folder deleted: the same, never "ok"',
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      await rm(join(copy.root, '.baton', 'ledger'), { recursive: true, force: true });
      await wholeLedgerGone(copy, records);
    },
    ATTACK_TIMEOUT,
  );

  it(
    "4. the spec approval's approver rewritten and the whole chain recomputed: every anchored commit is named",
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const approval = records.find((r) => r.type === RECORD_TYPES.gateApproved && r.subject.gate === 'spec')!;
      const anchored = await anchoredSeqs(copy, records);
      await writeRecords(copy.root, rechain(records.map((r) => (r.seq === approval.seq ? { ...r, data: { ...r.data, approver: MALLORY } } : r))));
      const rewritten = await readRecords(copy.root);
      expect(rewritten.find((r) => r.seq === approval.seq)!.data.approver).toBe(MALLORY);
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain.ok).toBe(true);
      expect(anchored.every((a) => a.seq > approval.seq)).toBe(true);
      for (const { commit, hash } of anchored) expect(report.problems).toContainEqual(lostEvidence(commit, hash));
    },
    ATTACK_TIMEOUT,
  );

  it(
    '5. the violation record dropped and the chain recomputed: the commits after it are named, those before it are not',
    async () => {
      const copy = await lab.copy();
      const records = await readRecords(copy.root);
      const violation = records.find((r) => r.type === RECORD_TYPES.cycleViolation)!;
      const anchored = await anchoredSeqs(copy, records);
      await writeRecords(copy.root, rechain(records.filter((r) => r.seq !== violation.seq)));
      const { code, report } = await verify(copy);
      expect(code).toBe(1);
      expect(report.chain.ok).toBe(true);
      expect(report.records).toBe(records.length - 1);
      const after = anchored.filter((a) => a.seq > violation.seq);
      expect(after.length).toBeGreaterThan(0);
      for (const { commit, hash } of after) expect(report.problems).toContainEqual(lostEvidence(commit, hash));
      for (const { commit } of anchored.filter((a) => a.seq < violation.seq)) expect(namesCommit(report, commit)).toBe(false);
    },
    ATTACK_TIMEOUT,
  );
});

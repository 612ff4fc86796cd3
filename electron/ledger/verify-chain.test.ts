/** The tamper suite: each edit an attacker (or a crash) could make is found at the right record. */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { recordHash } from './hashing';
import { appendSome, makeTempLedger, ORCHESTRATOR, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';
import { sampleData } from '../../shared/records.fixture';
import { RECORD_TYPES } from '../../shared/records';

const EVENTS = '.baton/ledger/events.jsonl';

let t: TempLedger;
let records: LedgerRecord[];
let lines: string[];
beforeEach(async () => {
  t = await makeTempLedger();
  records = await appendSome(t.ledger, 6); // records 2, 4 and 6 carry a blob
  lines = await readLines(t.events);
});
afterEach(() => removeTemp(t.root));

const blobFile = (record: LedgerRecord) => path.join(t.dir, 'blobs', record.blobs[0]!.sha256);

describe('verifyChain', () => {
  it('passes an intact ledger and reports its head', async () => {
    expect(await verifyChain(t.dir)).toEqual({ records: 6, head: records[5]!.hash, chain: { ok: true }, problems: [] });
  });

  it('passes a folder with no ledger yet', async () => {
    expect(await verifyChain(path.join(t.root, 'nowhere'))).toEqual({ records: 0, head: null, chain: { ok: true }, problems: [] });
  });

  it('finds one changed field, at that record only', async () => {
    await writeLines(
      t.events,
      lines.map((line, i) => (i === 2 ? line.replace('"i":3', '"i":33') : line)),
    );
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 3 });
    expect(report.problems).toEqual([
      {
        file: EVENTS,
        seq: 3,
        message: expect.stringMatching(/^record #3 \(line 3\): its content was changed after it was written \(it hashes to [0-9a-f]{12}…, but its hash says/),
      },
    ]);
  });

  it('finds a changed record whose hash was recomputed, at the next record (its prev no longer matches)', async () => {
    const forged = { ...(JSON.parse(lines[2]!) as LedgerRecord), data: { i: 33 } };
    const line = JSON.stringify({ ...forged, hash: recordHash(forged) });
    await writeLines(
      t.events,
      lines.map((l, i) => (i === 2 ? line : l)),
    );
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 4 });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ seq: 4, message: expect.stringMatching(/prev .* is not the hash of the record before it \(#3/) });
  });

  it('finds a deleted record where the gap is', async () => {
    await writeLines(
      t.events,
      lines.filter((_line, i) => i !== 2),
    );
    const report = await verifyChain(t.dir);
    expect(report.records).toBe(5);
    expect(report.chain).toEqual({ ok: false, brokenAt: 4 });
    expect(report.problems).toEqual([
      { file: EVENTS, seq: 4, message: expect.stringMatching(/^record #4 \(line 3\): it follows record #2, so record #3 is missing; its prev/) },
    ]);
  });

  it('finds two swapped records', async () => {
    await writeLines(t.events, [lines[0]!, lines[1]!, lines[3]!, lines[2]!, lines[4]!, lines[5]!]);
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 4 });
    expect(report.problems.map((p) => p.seq)).toEqual([4, 3, 5]);
    expect(report.problems[1]!.message).toMatch(/^record #3 \(line 4\): it follows record #4: records are out of order or repeated/);
  });

  it('finds a file truncated mid-line as an incomplete final line', async () => {
    const text = await fs.readFile(t.events, 'utf8');
    await fs.writeFile(t.events, text.slice(0, text.length - Math.floor(lines[5]!.length / 2)));
    const report = await verifyChain(t.dir);
    expect(report.records).toBe(5);
    expect(report.chain).toEqual({ ok: false, brokenAt: 6 });
    expect(report.problems).toEqual([
      { file: EVENTS, message: expect.stringMatching(/^the file ends with an incomplete line \(line 6: \d+ bytes .*--repair-tail/) },
    ]);
  });

  it('finds one changed byte in a blob, at the record that names it', async () => {
    const file = blobFile(records[3]!);
    const bytes = await fs.readFile(file);
    bytes[0] = bytes[0]! ^ 0x01;
    await fs.writeFile(file, bytes);
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 4 });
    expect(report.problems).toEqual([
      {
        file: `.baton/ledger/blobs/${records[3]!.blobs[0]!.sha256}`,
        seq: 4,
        message: expect.stringMatching(/^blob "stdout" of record #4 \(.+\) was changed: its content hashes to [0-9a-f]{12}…, not to its name/),
      },
    ]);
  });

  it('finds a deleted blob', async () => {
    await fs.rm(blobFile(records[5]!));
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 6 });
    expect(report.problems).toEqual([
      { file: expect.stringContaining('.baton/ledger/blobs/'), seq: 6, message: expect.stringMatching(/^blob "stdout" of record #6 .* is missing/) },
    ]);
  });

  it('reads a blob larger than one read whole, and finds a change in its last byte', async () => {
    const big = randomBytes(200_000); // incompressible, so stored as it is: bigger than the 64 KiB read
    const record = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'big', content: big }] });
    expect((await verifyChain(t.dir)).problems).toEqual([]);
    const file = path.join(t.dir, 'blobs', record.blobs[0]!.sha256);
    big[big.length - 1] = big[big.length - 1]! ^ 0x01;
    await fs.writeFile(file, big);
    expect((await verifyChain(t.dir)).chain).toEqual({ ok: false, brokenAt: 7 });
  });

  it('finds a gzip blob that does not inflate, and checks a blob that inflates fine', async () => {
    await fs.writeFile(blobFile(records[1]!), gzipSync(`output of run 2\n`));
    await fs.writeFile(blobFile(records[3]!), Buffer.from([0x1f, 0x8b, 0, 0]));
    const report = await verifyChain(t.dir);
    expect(report.problems).toEqual([{ file: expect.any(String), seq: 4, message: expect.stringMatching(/does not decompress/) }]);
  });

  it('hashes a large gzip blob as it inflates: an intact one passes, one that inflates to other content or past its size does not', async () => {
    // 12 MiB of text compresses well, so it is stored gzip'd and verify takes the streaming path.
    const big = Buffer.alloc(12 * 1024 * 1024, 'baton ');
    const record = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'big', content: big }] });
    const file = path.join(t.dir, 'blobs', record.blobs[0]!.sha256);
    expect((await fs.readFile(file)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect((await verifyChain(t.dir)).problems).toEqual([]);

    await fs.writeFile(file, gzipSync(Buffer.alloc(big.length, 'batons')));
    expect((await verifyChain(t.dir)).problems).toEqual([
      { file: expect.any(String), seq: 7, message: expect.stringMatching(/was changed: its content hashes to/) },
    ]);
    // A bomb: far more than its record says. Hashing stops one byte past the recorded size.
    await fs.writeFile(file, gzipSync(Buffer.alloc(big.length * 4, 'baton ')));
    expect((await verifyChain(t.dir)).problems).toEqual([
      { file: expect.any(String), seq: 7, message: expect.stringMatching(/was changed|has \d+ bytes, but the record says/) },
    ]);
    await fs.writeFile(file, Buffer.concat([gzipSync(big).subarray(0, 1000), Buffer.alloc(10)]));
    expect((await verifyChain(t.dir)).problems).toEqual([{ file: expect.any(String), seq: 7, message: expect.stringMatching(/does not decompress/) }]);
  });

  it('reports the first damage in file order and every later one', async () => {
    await fs.rm(blobFile(records[1]!));
    await writeLines(
      t.events,
      lines.map((line, i) => (i === 4 ? '{"broken": ' : line)),
    );
    const report = await verifyChain(t.dir, { displayRoot: t.artifactRoot });
    expect(report.chain).toEqual({ ok: false, brokenAt: 2 });
    expect(report.problems.map((p) => [p.file.slice(0, 13), p.seq])).toEqual([
      ['ledger/blobs/', 2],
      ['ledger/events', undefined],
    ]);
    expect(report.problems[1]!.message).toMatch(/^line 5 is not valid JSON/);
  });
});

describe('verifyChain: record data against the catalogue (shared/records.ts)', () => {
  /** Rewrites record `seq` with `change` and re-chains everything after it, as a tool with the folder could. */
  const rewrite = async (seq: number, change: (r: LedgerRecord) => LedgerRecord) => {
    const parsed = (await readLines(t.events)).map((l) => JSON.parse(l) as LedgerRecord);
    let prev = parsed[seq - 2]?.hash;
    const out = parsed.map((r) => {
      if (r.seq < seq) return r;
      const body = { ...(r.seq === seq ? change(r) : r), prev: prev! };
      const rehashed = { ...body, hash: recordHash(body) };
      prev = rehashed.hash;
      return rehashed;
    });
    await writeLines(
      t.events,
      out.map((r) => JSON.stringify(r)),
    );
  };

  it('reports a well-chained record whose data does not match its type, by seq and field', async () => {
    await rewrite(3, (r) => ({ ...r, type: RECORD_TYPES.cycleGreen, data: { ...sampleData(RECORD_TYPES.cycleGreen), violations: 'none' } }));
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: true });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatchObject({ seq: 3 });
    expect(report.problems[0]!.message).toMatch(/record #3 .*cycle\.green data does not match.*data\.violations/);
  });

  it('passes a well-formed catalogued record and leaves types it does not know alone', async () => {
    await rewrite(3, (r) => ({ ...r, type: RECORD_TYPES.cycleGreen, data: sampleData(RECORD_TYPES.cycleGreen) }));
    await rewrite(4, (r) => ({ ...r, type: 'consort.something', data: { anything: [1, 'two'] } }));
    expect((await verifyChain(t.dir)).problems).toEqual([]);
  });

  it('refuses to append a catalogued record whose data does not match, writing nothing', async () => {
    const before = await fs.readFile(t.events, 'utf8');
    // A writer that got around the types (the schema is the runtime half of the same check).
    const type: string = RECORD_TYPES.itemStatus;
    await expect(t.ledger.append({ type, actor: ORCHESTRATOR, data: { ...sampleData(RECORD_TYPES.itemStatus), status: 'done-ish' } })).rejects.toThrow(
      /item\.status record's data does not match its schema .*data\.status/,
    );
    expect(await fs.readFile(t.events, 'utf8')).toBe(before);
  });
});

import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GENESIS_HASH, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { recordHash, sha256Hex } from './hashing';
import { Ledger, type LedgerTx } from './ledger';
import { appendSome, makeTempLedger, ORCHESTRATOR, PERSON, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';

let t: TempLedger;
beforeEach(async () => {
  t = await makeTempLedger();
});
afterEach(() => removeTemp(t.root));

describe('Ledger append and read', () => {
  it('reads a missing ledger as empty, without creating anything', async () => {
    expect(await t.ledger.read()).toEqual({ records: [], problems: [], tornTail: null });
    await expect(fs.stat(t.dir)).rejects.toThrow(/ENOENT/);
  });

  it('writes a record that reads back identically, with defaults and a hash over the rest', async () => {
    const record = await t.ledger.append({ type: 'note.kept', actor: PERSON });
    expect(record).toEqual({
      seq: 1,
      at: '2025-01-01T00:00:01.000Z',
      type: 'note.kept',
      actor: PERSON,
      subject: {},
      data: {},
      blobs: [],
      prev: GENESIS_HASH,
      hash: recordHash(record),
    });
    expect(await fs.readFile(t.events, 'utf8')).toBe(`${JSON.stringify(record)}\n`);
    const fresh = await new Ledger(t.dir).read();
    expect(fresh.records).toEqual([record]);
  });

  it('chains records: seq counts from 1 and each prev is the hash before it', async () => {
    const records = await appendSome(t.ledger, 4);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    expect(records.map((r) => r.prev)).toEqual([GENESIS_HASH, ...records.slice(0, 3).map((r) => r.hash)]);
    expect((await new Ledger(t.dir).read()).records).toEqual(records);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 4, head: records[3]!.hash, chain: { ok: true }, problems: [] });
  });

  it('hashes exactly what it writes (undefined dropped, dates as strings)', async () => {
    await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, data: { gone: undefined, when: new Date(0), list: [undefined] } });
    const [record] = (await t.ledger.read()).records;
    expect(record!.data).toEqual({ when: '1970-01-01T00:00:00.000Z', list: [null] });
    expect((await verifyChain(t.dir)).chain.ok).toBe(true);
  });

  it('refuses an append without a type, an actor id or a JSON-able value, writing nothing', async () => {
    await expect(t.ledger.append({ type: 'x', actor: { kind: 'person', id: ' ' } })).rejects.toThrow(/actor has no id/);
    await expect(t.ledger.append({ type: '', actor: PERSON })).rejects.toThrow(/no type/);
    const unhashable = { type: 'x', actor: PERSON, data: { text: '\ud800' }, blobs: [{ name: 'b', content: 'z' }] };
    await expect(t.ledger.append(unhashable)).rejects.toThrow(/canonical JSON: Lone surrogate/);
    expect((await t.ledger.read()).records).toEqual([]);
    await expect(fs.stat(path.join(t.dir, 'blobs'))).rejects.toThrow(/ENOENT/);
  });

  it('sees records another Ledger on the same folder appended', async () => {
    await appendSome(t.ledger, 2);
    await appendSome(new Ledger(t.dir), 1);
    const next = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR });
    expect(next.seq).toBe(4);
    expect((await verifyChain(t.dir)).chain.ok).toBe(true);
  });

  it('reports an events file it cannot read as a problem instead of throwing', async () => {
    await fs.mkdir(t.events, { recursive: true }); // a folder where the file should be
    const snapshot = await t.ledger.read();
    expect(snapshot.records).toEqual([]);
    expect(snapshot.problems).toEqual([{ file: '.baton/ledger/events.jsonl', message: 'is a folder where a file was expected (EISDIR); rename or remove it' }]);
  });

  it('reports a line that is not JSON by its line number and still loads the rest', async () => {
    await appendSome(t.ledger, 3);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!, 'not json', lines[2]!]);
    const snapshot = await new Ledger(t.dir).read();
    expect(snapshot.records.map((r) => r.seq)).toEqual([1, 3]);
    expect(snapshot.problems).toEqual([{ file: '.baton/ledger/events.jsonl', message: expect.stringMatching(/^line 2 is not valid JSON/) }]);
  });
});

describe('blobs', () => {
  it('stores each content once, named by its SHA-256, and reads it back', async () => {
    const a = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'stdout', content: 'same\n' }] });
    const b = await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'copy', content: new TextEncoder().encode('same\n') }] });
    expect(a.blobs).toEqual([{ name: 'stdout', sha256: sha256Hex('same\n'), bytes: 5 }]);
    expect(b.blobs[0]!.sha256).toBe(a.blobs[0]!.sha256);
    expect(await fs.readdir(path.join(t.dir, 'blobs'))).toEqual([sha256Hex('same\n')]);
    expect((await t.ledger.readBlob(sha256Hex('same\n')))?.toString()).toBe('same\n');
  });

  it('gzips a blob on disk when that is smaller, and always one that itself starts like gzip', async () => {
    const big = 'the same line again\n'.repeat(500);
    const looksGzipped = Buffer.from([0x1f, 0x8b, 1, 2, 3]);
    const record = await t.ledger.append({
      type: 'x',
      actor: ORCHESTRATOR,
      blobs: [
        { name: 'log', content: big },
        { name: 'gz', content: looksGzipped },
      ],
    });
    const stored = await fs.readFile(path.join(t.dir, 'blobs', sha256Hex(big)));
    expect(stored.length).toBeLessThan(big.length / 10);
    expect([stored[0], stored[1]]).toEqual([0x1f, 0x8b]);
    expect((await t.ledger.readBlob(sha256Hex(big)))?.toString()).toBe(big);
    expect(await t.ledger.readBlob(record.blobs[1]!.sha256)).toEqual(looksGzipped);
    expect((await verifyChain(t.dir)).problems).toEqual([]);
  });

  it('refuses to write blobs through a link at blobs/ (naming it) and appends nothing; a link planted under a blob name is replaced, not written through', async () => {
    await t.ledger.append({ type: 'x', actor: ORCHESTRATOR });
    const outside = path.join(t.root, 'outside');
    await fs.mkdir(outside);
    await fs.rm(path.join(t.dir, 'blobs'), { recursive: true, force: true });
    await fs.symlink(outside, path.join(t.dir, 'blobs'));
    await expect(t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'log', content: 'secret' }] })).rejects.toThrow(
      /blobs is a symbolic link .*Baton writes only into the project's own folders/,
    );
    expect(await fs.readdir(outside)).toEqual([]);
    expect((await t.ledger.read()).records).toHaveLength(1);

    await fs.rm(path.join(t.dir, 'blobs'));
    await fs.mkdir(path.join(t.dir, 'blobs'));
    const victim = path.join(outside, 'victim');
    await fs.writeFile(victim, 'the user file');
    await fs.symlink(victim, path.join(t.dir, 'blobs', sha256Hex('content')));
    await t.ledger.append({ type: 'x', actor: ORCHESTRATOR, blobs: [{ name: 'c', content: 'content' }] });
    expect(await fs.readFile(victim, 'utf8')).toBe('the user file');
    expect((await t.ledger.readBlob(sha256Hex('content')))?.toString()).toBe('content');
    expect((await verifyChain(t.dir)).problems).toEqual([]);
  });

  it('returns null for a blob that does not exist or a name that is not a SHA-256', async () => {
    expect(await t.ledger.readBlob('0'.repeat(64))).toBeNull();
    expect(await t.ledger.readBlob('../events.jsonl')).toBeNull();
  });
});

describe('transactions', () => {
  it('serialises concurrent appends in one process: both land, as seq 1 and 2', async () => {
    const other = new Ledger(t.dir);
    const [a, b] = await Promise.all([t.ledger.append({ type: 'a', actor: ORCHESTRATOR }), other.append({ type: 'b', actor: ORCHESTRATOR })]);
    expect([a.seq, b.seq].sort()).toEqual([1, 2]);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 2, chain: { ok: true } });
  });

  it('makes check-then-append atomic: of two racing "approve if not yet approved", exactly one wins', async () => {
    const approveOnce = (ledger: Ledger) =>
      ledger.transaction(async (tx) => {
        if (tx.records.some((r) => r.type === 'approval')) return 'refused';
        await new Promise((resolve) => setTimeout(resolve, 20)); // widen the window a race would need
        await tx.append({ type: 'approval', actor: PERSON });
        return 'approved';
      });
    const results = await Promise.all([approveOnce(t.ledger), approveOnce(new Ledger(t.dir))]);
    expect(results.sort()).toEqual(['approved', 'refused']);
    expect((await t.ledger.read()).records).toHaveLength(1);
  });

  it('shows its own appends in tx.records and releases the lock when fn throws', async () => {
    await expect(
      t.ledger.transaction(async (tx) => {
        await tx.append({ type: 'a', actor: ORCHESTRATOR });
        await tx.append({ type: 'b', actor: ORCHESTRATOR });
        expect(tx.records.map((r) => r.type)).toEqual(['a', 'b']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    await expect(fs.stat(path.join(t.dir, '.lock'))).rejects.toThrow(/ENOENT/);
    expect((await t.ledger.append({ type: 'c', actor: ORCHESTRATOR })).seq).toBe(3);
  });

  it('chains appends a transaction does not await one by one', async () => {
    const records = await t.ledger.transaction((tx) =>
      Promise.all([tx.append({ type: 'a', actor: ORCHESTRATOR }), tx.append({ type: 'b', actor: ORCHESTRATOR })]),
    );
    expect(records.map((r) => r.seq)).toEqual([1, 2]);
    expect(records[1]!.prev).toBe(records[0]!.hash);
  });

  it('refuses a nested transaction on the same ledger instead of waiting for itself', async () => {
    await expect(t.ledger.transaction(() => t.ledger.append({ type: 'x', actor: ORCHESTRATOR }))).rejects.toThrow(/inside another transaction.*tx\.append/);
  });

  it('lets work a transaction left running append once it has ended, but not through the old tx', async () => {
    let later: Promise<LedgerRecord> | null = null;
    let escaped: LedgerTx | null = null;
    await t.ledger.transaction(async (tx) => {
      escaped = tx;
      await tx.append({ type: 'a', actor: ORCHESTRATOR });
      later = new Promise((resolve) => setTimeout(resolve, 10)).then(() => t.ledger.append({ type: 'b', actor: ORCHESTRATOR }));
    });
    expect((await later!).seq).toBe(2);
    await expect(escaped!.append({ type: 'c', actor: ORCHESTRATOR })).rejects.toThrow(/transaction has ended/);
  });

  it('completes a final record that lacks only its newline before appending', async () => {
    await appendSome(t.ledger, 2);
    const text = await fs.readFile(t.events, 'utf8');
    await fs.writeFile(t.events, text.slice(0, -1));
    const fresh = new Ledger(t.dir);
    expect((await fresh.read()).tornTail).toBeNull();
    expect((await fresh.append({ type: 'x', actor: ORCHESTRATOR })).seq).toBe(3);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 3, chain: { ok: true }, problems: [] });
  });

  it('refuses to append after a last record that was changed', async () => {
    await appendSome(t.ledger, 2);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!, lines[1]!.replace('"i":2', '"i":20')]);
    await expect(new Ledger(t.dir).append({ type: 'x', actor: ORCHESTRATOR })).rejects.toThrow(/broken at its end \(line 2.*baton verify/);
  });
});

describe('a torn tail', () => {
  const tear = async () => {
    await appendSome(t.ledger, 2);
    const before = (await fs.stat(t.events)).size;
    await fs.appendFile(t.events, '{"seq":3,"at":"2025-');
    return before;
  };

  it('is reported by read() with its offset and size, not as an error', async () => {
    const offset = await tear();
    const snapshot = await new Ledger(t.dir).read();
    expect(snapshot.records).toHaveLength(2);
    expect(snapshot.tornTail).toEqual({ offset, bytes: 20 });
    expect(snapshot.problems[0]!.message).toMatch(/incomplete line \(line 3: 20 bytes.*baton verify --repair-tail/);
  });

  it('makes every transaction refuse until it is repaired', async () => {
    await tear();
    await expect(new Ledger(t.dir).append({ type: 'x', actor: ORCHESTRATOR })).rejects.toThrow(/incomplete line.*Run `baton verify --repair-tail`/);
  });

  it('is dropped by repairTail, and only it, which records what it dropped', async () => {
    const offset = await tear();
    const intact = (await fs.readFile(t.events)).subarray(0, offset);
    const ledger = new Ledger(t.dir);
    const { droppedBytes, record } = await ledger.repairTail(PERSON);
    expect(droppedBytes).toBe(20);
    expect(record).toMatchObject({
      seq: 3,
      type: RECORD_TYPES.ledgerRepaired,
      actor: PERSON,
      data: { droppedBytes: 20, droppedSha256: sha256Hex('{"seq":3,"at":"2025-'), offset, line: 3 },
      blobs: [{ name: 'dropped-tail', sha256: sha256Hex('{"seq":3,"at":"2025-'), bytes: 20 }],
    });
    const after = await fs.readFile(t.events);
    expect(after.subarray(0, offset)).toEqual(intact);
    expect(after.subarray(offset).toString()).toBe(`${JSON.stringify(record)}\n`);
    expect(await verifyChain(t.dir)).toMatchObject({ records: 3, chain: { ok: true }, problems: [] });
    expect(await ledger.repairTail(PERSON)).toEqual({ droppedBytes: 0, record: null });
  });

  it('is repaired also when the very first append was cut short', async () => {
    await fs.mkdir(t.dir, { recursive: true });
    await fs.writeFile(t.events, '{"seq":1,');
    const { droppedBytes, record } = await t.ledger.repairTail(PERSON);
    expect(droppedBytes).toBe(9);
    expect(record).toMatchObject({ seq: 1, prev: GENESIS_HASH, type: RECORD_TYPES.ledgerRepaired });
    expect(await verifyChain(t.dir)).toMatchObject({ records: 1, chain: { ok: true } });
  });

  it('is not repaired when the record before it is damaged too (nothing is dropped)', async () => {
    const offset = await tear();
    const lines = await readLines(t.events);
    await fs.writeFile(t.events, `${lines[0]}\n${lines[1]!.replace('"i":2', '"i":5')}\n{"seq":3,"at":"2025-`);
    await expect(new Ledger(t.dir).repairTail(PERSON)).rejects.toThrow(/broken at its end \(line 2 /);
    expect((await fs.stat(t.events)).size).toBe(offset + 20);
  });
});

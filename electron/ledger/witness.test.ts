import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { readWitnesses, rememberCheckpoint, WITNESS_FILE, witnessFor, witnessProblem, type Witness } from './witness';

const hash = (c: string) => c.repeat(64);
const records = (n: number, tail = 'a'): LedgerRecord[] =>
  Array.from({ length: n }, (_, i) => ({ seq: i + 1, hash: i === n - 1 ? hash(tail) : hash(String((i % 9) + 1)) }) as unknown as LedgerRecord);
const witness: Witness = { seq: 5, head: hash('a'), key: 'K'.repeat(43), signedAt: '2026-12-06T10:00:00.000Z', seenAt: '2026-12-06T10:00:01.000Z' };

describe('witnessProblem', () => {
  it('says nothing when the folder holds the witnessed record and a checkpoint at least as new', () => {
    expect(witnessProblem(witness, records(5), 5, 'cp')).toBeNull();
    expect(witnessProblem(witness, [...records(5), ...records(7).slice(5)], 7, 'cp')).toBeNull();
  });
  it('calls a shorter ledger rolled back, with both heads', () => {
    const p = witnessProblem(witness, records(3, 'b'), 3, 'cp');
    expect(p).toMatchObject({ file: 'cp', seq: 5 });
    expect(p?.message).toMatch(
      /^rolled back: this machine has seen record #5 \(head aaaaaaaaaaaa…\) signed by key K{16}… at 2026-12-06T10:00:00.000Z, but the ledger ends at record #3 \(head bbbbbbbbbbbb…\)/,
    );
  });
  it('calls a different record at the witnessed seq rewritten, and an older checkpoint file rolled back', () => {
    expect(witnessProblem(witness, records(5, 'c'), 5, 'cp')?.message).toMatch(/^rewritten: .* record #5 now hashes to cccccccccccc…/);
    expect(witnessProblem(witness, records(5), 3, 'cp')?.message).toMatch(
      /^checkpoints rolled back: .* the newest valid checkpoint in the folder is at record #3/,
    );
    expect(witnessProblem(witness, records(5), null, 'cp')?.message).toContain('the newest valid checkpoint in the folder is none');
  });
});

describe('rememberCheckpoint', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-witness-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps the newest checkpoint per project, only ever forward, in a file only its owner reads', async () => {
    const genesis = hash('e');
    await rememberCheckpoint(dir, genesis, { seq: 5, head: hash('a'), publicKey: 'k1', time: null });
    await rememberCheckpoint(dir, genesis, { seq: 3, head: hash('b'), publicKey: 'k1', time: null });
    await rememberCheckpoint(dir, hash('f'), { seq: 2, head: hash('c'), publicKey: 'k2', time: null });
    expect(await witnessFor(dir, [{ seq: 1, hash: genesis } as LedgerRecord])).toMatchObject({ seq: 5, head: hash('a'), key: 'k1' });
    expect(Object.keys(await readWitnesses(dir)).sort()).toEqual([genesis, hash('f')]);
    expect((await stat(join(dir, WITNESS_FILE))).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(join(dir, WITNESS_FILE), 'utf8'))).toMatchObject({ version: 1 });
  });
  it('reads a damaged file as no witness rather than failing', async () => {
    await writeFile(join(dir, WITNESS_FILE), '{not json');
    expect(await readWitnesses(dir)).toEqual({});
    await rememberCheckpoint(dir, hash('e'), { seq: 1, head: hash('a'), publicKey: 'k', time: null });
    expect(Object.keys(await readWitnesses(dir))).toEqual([hash('e')]);
  });
});

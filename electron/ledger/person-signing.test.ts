/** Person signatures over a record: they verify on the record as written, and on nothing else. */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { recordHash } from './hashing';
import { Ledger } from './ledger';
import { verifyChain } from './verify-chain';
import { personSignatureOf, signPersonRecord } from './person-signing';
import { keyOf } from './signing';

const key = keyOf(generateKeyPairSync('ed25519').privateKey);
const unsigned: Omit<LedgerRecord, 'hash'> = {
  seq: 7,
  at: '2026-12-07T04:00:00.000Z',
  type: 'gate.approved',
  actor: { kind: 'person', id: 'Ada <ada@example.com>' },
  subject: { feature: 'F-1', gate: 'spec' },
  data: { gate: 'spec', approver: 'Ada <ada@example.com>', artifacts: { 'feature-spec.json': { sha256: 'a'.repeat(64), algorithm: 'jcs-sha256' } } },
  blobs: [],
  prev: 'b'.repeat(64),
};
const sealed = (body: Omit<LedgerRecord, 'hash'>): LedgerRecord => ({ ...body, hash: recordHash(body) });

describe('a person’s signature on a record', () => {
  it('verifies on the record it was made for, naming the key', () => {
    const signed = sealed(signPersonRecord(unsigned, key));
    expect(personSignatureOf(signed)).toEqual({ key: key.publicKeyText, valid: true });
    expect(personSignatureOf(sealed(unsigned))).toBeNull();
  });

  it('fails once anything it covers changes: the approver, the hashes, its place in the chain', () => {
    const signed = signPersonRecord(unsigned, key);
    const edits: Omit<LedgerRecord, 'hash'>[] = [
      { ...signed, data: { ...signed.data, approver: 'Mallory <ada@example.com>' } },
      { ...signed, data: { ...signed.data, artifacts: {} } },
      { ...signed, seq: 8 },
      { ...signed, prev: 'c'.repeat(64) },
      { ...signed, actor: { kind: 'person', id: 'Mallory' } },
    ];
    for (const edit of edits) expect(personSignatureOf(sealed(edit))).toEqual({ key: key.publicKeyText, valid: false });
  });

  it('a malformed signature is invalid, never an exception', () => {
    expect(personSignatureOf(sealed({ ...unsigned, data: { ...unsigned.data, signature: 'yes' } }))?.valid).toBe(false);
    expect(personSignatureOf(sealed({ ...unsigned, data: { ...unsigned.data, signature: { key: 'x', value: 'y' } } }))?.valid).toBe(false);
  });
});

describe('a ledger given a person’s key', () => {
  it('signs what people append through it, and nothing the orchestrator or an agent appends', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baton-person-signing-'));
    try {
      const plain = new Ledger(dir);
      const signing = plain.signedBy(key);
      expect(plain.signedBy(null)).toBe(plain);
      await plain.append({ type: 'test.note', actor: { kind: 'orchestrator', id: 'baton' }, data: {} });
      const person = await signing.append({ type: 'test.note', actor: { kind: 'person', id: 'Ada <ada@example.com>' }, data: { said: 'yes' } });
      const agent = await signing.append({ type: 'test.note', actor: { kind: 'agent', id: 'driver' }, data: {} });
      const typed = await plain.append({ type: 'test.note', actor: { kind: 'person', id: 'Ada <ada@example.com>' }, data: {} });
      expect(personSignatureOf(person)).toEqual({ key: key.publicKeyText, valid: true });
      expect(personSignatureOf(agent)).toBeNull();
      expect(personSignatureOf(typed)).toBeNull();
      // Signed before it was hashed: the chain holds.
      expect((await verifyChain(dir)).chain.ok).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

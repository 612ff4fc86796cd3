import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import { recordHash } from './hashing';
import { Ledger } from './ledger';
import { checkSignature, loadOrCreateSigningKey, ownPublicKeys, rotateSigningKey, signHead } from './signing';
import { appendSome, makeTempLedger, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';

let t: TempLedger;
let configDir: string;
beforeEach(async () => {
  t = await makeTempLedger();
  configDir = path.join(t.root, 'config');
});
afterEach(() => removeTemp(t.root));

const records = async () => (await new Ledger(t.dir).read()).records;
const logFile = () => path.join(t.dir, 'checkpoints.jsonl');
const checkpointLines = async () => (await fs.readFile(logFile(), 'utf8')).split('\n').filter(Boolean);
const writeCheckpoints = (lines: string[]) => fs.writeFile(logFile(), lines.map((l) => `${l}\n`).join(''));

describe('signing the head', () => {
  it('creates one private key, readable only by its owner, and reuses it', async () => {
    const first = await loadOrCreateSigningKey(configDir);
    const second = await loadOrCreateSigningKey(configDir);
    expect(second.publicKeyText).toBe(first.publicKeyText);
    expect(first.publicKeyText).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stat = await fs.stat(path.join(configDir, 'signing-key.pem'));
    if (process.platform !== 'win32') expect(stat.mode & 0o777).toBe(0o600);
    expect(await fs.readFile(path.join(configDir, 'signing-key.pem'), 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('goes unsigned → signed → invalid when a checkpoint is tampered with', async () => {
    await appendSome(t.ledger, 3);
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'unsigned', checkpoints: 0, unsignedTail: 3 });

    const signed = await signHead(t.dir, configDir, { now: new Date('2026-01-02T03:04:05Z') });
    const all = await records();
    const key = (await loadOrCreateSigningKey(configDir)).publicKeyText;
    expect(signed).toEqual({ seq: 3, head: all[2]!.hash, publicKey: key, signature: expect.any(String), time: '2026-01-02T03:04:05.000Z' });
    expect(await checkSignature(t.dir, all)).toMatchObject({ state: 'signed', seq: 3, unsignedTail: 0 });

    const [line] = await checkpointLines();
    const file = JSON.parse(line!) as { signature: string; time: string };
    const bytes = Buffer.from(file.signature, 'base64');
    bytes[5] = bytes[5]! ^ 0x01;
    await writeCheckpoints([JSON.stringify({ ...file, signature: bytes.toString('base64') })]);
    expect(await checkSignature(t.dir, all)).toMatchObject({ state: 'invalid', message: expect.stringMatching(/checkpoint at record #3 .* does not verify/) });
    // The time is signed too: moving a checkpoint in time is an edit.
    await writeCheckpoints([JSON.stringify({ ...file, time: '2030-01-01T00:00:00.000Z' })]);
    expect((await checkSignature(t.dir, all)).state).toBe('invalid');
  });

  it('keeps every checkpoint, and reports the records after the newest as the unsigned tail', async () => {
    await appendSome(t.ledger, 2);
    await signHead(t.dir, configDir);
    await appendSome(t.ledger, 3);
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'signed', seq: 2, checkpoints: 1, unsignedTail: 3 });
    await signHead(t.dir, configDir);
    expect(await checkpointLines()).toHaveLength(2);
    const check = await checkSignature(t.dir, await records());
    expect(check).toMatchObject({ state: 'signed', seq: 5, checkpoints: 2, unsignedTail: 0 });
    expect(check.message).toMatch(/record #5 and everything before it signed \(2 checkpoints\)/);
  });

  it('fails on any checkpoint the chain no longer matches: records removed, or the chain rewritten and rehashed', async () => {
    await appendSome(t.ledger, 3);
    await signHead(t.dir, configDir);
    const lines = await readLines(t.events);
    await writeLines(t.events, lines.slice(0, 2));
    expect(await checkSignature(t.dir, await records())).toMatchObject({
      state: 'invalid',
      message: expect.stringMatching(/no record #3 now: records were removed/),
    });

    // An attacker rewrites record #2 and recomputes every hash after it: the chain is whole again, the checkpoint is not.
    await writeLines(t.events, lines);
    const rechained: LedgerRecord[] = [];
    for (const [i, line] of lines.entries()) {
      const record = JSON.parse(line) as LedgerRecord;
      const edited = i === 1 ? { ...record, actor: { kind: 'person' as const, id: 'Mallory' } } : record;
      const body = { ...edited, prev: rechained[i - 1]?.hash ?? edited.prev };
      rechained.push({ ...body, hash: recordHash(body) });
    }
    await writeLines(
      t.events,
      rechained.map((r) => JSON.stringify(r)),
    );
    expect(await checkSignature(t.dir, await records())).toMatchObject({
      state: 'invalid',
      message: expect.stringMatching(/no longer matches .* record #3 hashes to/),
    });
    await writeCheckpoints(['{']);
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'invalid', message: expect.stringMatching(/not valid JSON/) });
  });

  it('calls a valid checkpoint by a key on no trusted list untrusted, and one by a listed key signed', async () => {
    await appendSome(t.ledger, 2);
    // Mallory signs with her own key: the signature is valid, the key is nobody's the reader trusts.
    const mallory = await loadOrCreateSigningKey(path.join(t.root, 'mallory'));
    await signHead(t.dir, configDir, { key: mallory });
    const mine = await loadOrCreateSigningKey(configDir);
    const trusted = new Map([[mine.publicKeyText, 'your own signing key']]);
    expect(await checkSignature(t.dir, await records(), trusted)).toMatchObject({ state: 'untrusted', untrustedKeys: [mallory.publicKeyText] });
    expect(await checkSignature(t.dir, await records(), new Map([[mallory.publicKeyText, 'project.json']]))).toMatchObject({ state: 'signed' });
  });

  it("rotates: the old key is retired and kept, the new one signs, both are the user's own", async () => {
    await appendSome(t.ledger, 1);
    const before = await loadOrCreateSigningKey(configDir);
    await signHead(t.dir, configDir);
    const { retired, key } = await rotateSigningKey(configDir, new Date('2026-02-03T04:05:06Z'));
    expect(retired).toBe(before.publicKeyText);
    expect(key.publicKeyText).not.toBe(before.publicKeyText);
    // Beside the keys: the witness of what this user signed (witness.ts).
    expect((await fs.readdir(configDir)).sort()).toEqual(['signing-key.pem', 'signing-key.retired-2026-02-03T04-05-06-000Z.pem', 'witnesses.json']);
    expect((await ownPublicKeys(configDir)).sort()).toEqual([before.publicKeyText, key.publicKeyText].sort());
    await appendSome(t.ledger, 1);
    await signHead(t.dir, configDir);
    const trusted = new Map((await ownPublicKeys(configDir)).map((k) => [k, 'own']));
    expect(await checkSignature(t.dir, await records(), trusted)).toMatchObject({ state: 'signed', checkpoints: 2 });
  });

  it('still reads a head.sig.json written by an older Baton as a checkpoint', async () => {
    await appendSome(t.ledger, 2);
    const { createPrivateKey, sign } = await import('node:crypto');
    const key = await loadOrCreateSigningKey(configDir);
    const head = (await records())[1]!.hash;
    const bytes = Buffer.from(JSON.stringify({ format: 'baton-head-signature', head, seq: 2, version: 1 }));
    const signature = sign(null, bytes, createPrivateKey(key.privateKey.export({ format: 'pem', type: 'pkcs8' }))).toString('base64');
    await fs.writeFile(
      path.join(t.dir, 'head.sig.json'),
      JSON.stringify({ version: 1, algorithm: 'ed25519', seq: 2, head, publicKey: key.publicKeyText, signature }),
    );
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'signed', seq: 2, checkpoints: 1 });
  });

  it('refuses to sign an empty or broken ledger', async () => {
    await expect(signHead(t.dir, configDir)).rejects.toThrow(/no records/);
    await appendSome(t.ledger, 2);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!.replace('"i":1', '"i":9'), lines[1]!]);
    await expect(signHead(t.dir, configDir)).rejects.toThrow(/broken at record #1/);
  });
});

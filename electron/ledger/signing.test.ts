import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Ledger } from './ledger';
import { checkSignature, loadOrCreateSigningKey, signHead } from './signing';
import { appendSome, makeTempLedger, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';

let t: TempLedger;
let configDir: string;
beforeEach(async () => {
  t = await makeTempLedger();
  configDir = path.join(t.root, 'config');
});
afterEach(() => removeTemp(t.root));

const records = async () => (await new Ledger(t.dir).read()).records;
const sigFile = () => path.join(t.dir, 'head.sig.json');

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

  it('goes unsigned → signed → invalid when the signature file is tampered with', async () => {
    await appendSome(t.ledger, 3);
    expect(await checkSignature(t.dir, await records())).toEqual({ state: 'unsigned' });

    const signed = await signHead(t.dir, configDir);
    const all = await records();
    expect(signed).toEqual({ seq: 3, head: all[2]!.hash, publicKey: (await loadOrCreateSigningKey(configDir)).publicKeyText, signature: expect.any(String) });
    expect(await checkSignature(t.dir, all)).toMatchObject({ state: 'signed', seq: 3 });

    const file = JSON.parse(await fs.readFile(sigFile(), 'utf8')) as { signature: string };
    const bytes = Buffer.from(file.signature, 'base64');
    bytes[5] = bytes[5]! ^ 0x01;
    await fs.writeFile(sigFile(), JSON.stringify({ ...file, signature: bytes.toString('base64') }));
    expect(await checkSignature(t.dir, all)).toMatchObject({ state: 'invalid', seq: 3, message: expect.stringMatching(/does not match record #3's head/) });
  });

  it('stays signed at the signed seq when the chain grows afterwards', async () => {
    await appendSome(t.ledger, 2);
    await signHead(t.dir, configDir);
    await appendSome(t.ledger, 3);
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'signed', seq: 2 });
  });

  it('turns invalid when signed records are removed or re-signed by hand', async () => {
    await appendSome(t.ledger, 3);
    await signHead(t.dir, configDir);
    const lines = await readLines(t.events);
    await writeLines(t.events, lines.slice(0, 2));
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'invalid', message: expect.stringMatching(/no record #3 now/) });

    await writeLines(t.events, lines);
    const file = JSON.parse(await fs.readFile(sigFile(), 'utf8')) as Record<string, unknown>;
    await fs.writeFile(sigFile(), JSON.stringify({ ...file, seq: 2, head: (await records())[1]!.hash }));
    expect((await checkSignature(t.dir, await records())).state).toBe('invalid');
    await fs.writeFile(sigFile(), '{');
    expect(await checkSignature(t.dir, await records())).toMatchObject({ state: 'invalid', message: expect.stringMatching(/not valid JSON/) });
  });

  it('refuses to sign an empty or broken ledger', async () => {
    await expect(signHead(t.dir, configDir)).rejects.toThrow(/no records/);
    await appendSome(t.ledger, 2);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!.replace('"i":1', '"i":9'), lines[1]!]);
    await expect(signHead(t.dir, configDir)).rejects.toThrow(/broken at record #1/);
  });
});

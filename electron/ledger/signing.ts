/**
 * Signing the chain head with a local ed25519 key (node:crypto). The key lives in the user's config
 * folder (`signing-key.pem`, PKCS#8, mode 0600), never in the project. `head.sig.json` carries the
 * signed (seq, head), the public key and the signature; because every record's hash covers its
 * `prev`, signing the head vouches for every record up to it. The signature proves the head was
 * signed by the holder of that key; whether the key is trusted is for the reader to decide.
 *
 * Signed bytes: the RFC 8785 JSON of {format: 'baton-head-signature', version: 1, seq, head}.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { LedgerRecord, SignatureState } from '../../shared/ledger';
import { writeFileAtomic } from '../platform/atomic-write';
import { canonicalJson } from './hashing';
import { displayPath, isSha256, SIGNATURE_FILE } from './ledger-file';
import { verifyChain } from './verify-chain';

export const SIGNING_KEY_FILE = 'signing-key.pem';

export interface SigningKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** The raw 32-byte public key, base64url (the JWK `x`): short enough to show and compare. */
  readonly publicKeyText: string;
}

export interface HeadSignature {
  readonly seq: number;
  readonly head: string;
  readonly publicKey: string;
  readonly signature: string;
}

const signedBytes = (seq: number, head: string): Buffer => Buffer.from(canonicalJson({ format: 'baton-head-signature', version: 1, seq, head }), 'utf8');

const publicText = (key: KeyObject): string => String(key.export({ format: 'jwk' }).x);

const keyOf = (privateKey: KeyObject): SigningKey => {
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyText: publicText(publicKey) };
};

/** The key pair in `<configDir>/signing-key.pem`, created (0600) on first use. */
export const loadOrCreateSigningKey = async (configDir: string): Promise<SigningKey> => {
  const file = path.join(configDir, SIGNING_KEY_FILE);
  const existing = await fs.readFile(file, 'utf8').catch(() => null);
  if (existing !== null) return keyOf(createPrivateKey(existing));
  await fs.mkdir(configDir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' });
  try {
    // 'wx': if another process created the key meanwhile, use theirs rather than overwrite it.
    await fs.writeFile(file, pem, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
    return keyOf(createPrivateKey(await fs.readFile(file, 'utf8')));
  }
  return keyOf(privateKey);
};

/** Signs the current head (refusing a broken or empty chain) and writes `<ledgerDir>/head.sig.json`. */
export const signHead = async (ledgerDir: string, configDir: string): Promise<HeadSignature> => {
  const report = await verifyChain(ledgerDir);
  if (!report.chain.ok) {
    throw new Error(`Refusing to sign: the ledger is broken at record #${report.chain.brokenAt}. Run \`baton verify\` to see what is wrong.`);
  }
  if (report.head === null) throw new Error('Nothing to sign: the ledger has no records yet.');
  const key = await loadOrCreateSigningKey(configDir);
  // An intact chain numbers its records 1..n, so the head's seq is the count.
  const seq = report.records;
  const signature = sign(null, signedBytes(seq, report.head), key.privateKey).toString('base64');
  const signed: HeadSignature = { seq, head: report.head, publicKey: key.publicKeyText, signature };
  const file = { version: 1, algorithm: 'ed25519', signedAt: new Date().toISOString(), ...signed };
  await writeFileAtomic(path.join(ledgerDir, SIGNATURE_FILE), Buffer.from(`${JSON.stringify(file, null, 2)}\n`));
  return signed;
};

type SignatureCheck = { state: SignatureState; seq?: number; message?: string };

const signatureValid = (seq: number, head: string, publicKey: string, signature: string): boolean => {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
    return verify(null, signedBytes(seq, head), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
};

/** unsigned (no file), signed (valid, and its (seq, head) is in `records`), or invalid with why. */
export const checkSignature = async (ledgerDir: string, records: readonly LedgerRecord[]): Promise<SignatureCheck> => {
  const name = displayPath(ledgerDir, undefined, SIGNATURE_FILE);
  let text: string;
  try {
    text = await fs.readFile(path.join(ledgerDir, SIGNATURE_FILE), 'utf8');
  } catch {
    return { state: 'unsigned' };
  }
  let file: Partial<Record<keyof HeadSignature, unknown>>;
  try {
    file = JSON.parse(text) as typeof file;
  } catch {
    return { state: 'invalid', message: `${name} is not valid JSON, so the head signature cannot be checked.` };
  }
  const { seq, head, publicKey, signature } = file;
  if (!Number.isInteger(seq) || !isSha256(head) || typeof publicKey !== 'string' || typeof signature !== 'string') {
    return { state: 'invalid', message: `${name} lacks seq, head, publicKey or signature.` };
  }
  const at = seq as number;
  if (!signatureValid(at, head, publicKey, signature)) {
    return { state: 'invalid', seq: at, message: `the signature in ${name} does not match record #${at}'s head ${head.slice(0, 12)}… (the file was edited).` };
  }
  const record = records.find((r) => r.seq === at);
  if (!record || record.hash !== head) {
    return {
      state: 'invalid',
      seq: at,
      message: record
        ? `record #${at} has changed since it was signed: its hash is ${record.hash.slice(0, 12)}…, the signature is for ${head.slice(0, 12)}….`
        : `the signed head is record #${at}, but the ledger has no record #${at} now (records were removed after signing).`,
    };
  }
  return { state: 'signed', seq: at, message: `record #${at} and everything before it signed with key ${publicKey.slice(0, 16)}…` };
};

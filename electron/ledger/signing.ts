/**
 * Signed checkpoints of the chain, with a local ed25519 key (node:crypto). The key lives in the
 * user's config folder (`signing-key.pem`, PKCS#8, mode 0600), never in the project. Each
 * `baton sign` (and, once a key exists, each gate decision) appends one line to
 * `checkpoints.jsonl`: the signed (seq, head, time), the public key and the signature. Lines are
 * only ever appended, like a transparency log's signed tree heads: because every record's hash
 * covers its `prev`, a checkpoint vouches for every record up to it, and a chain that no longer
 * contains a checkpoint's (seq, head) was cut short or rewritten.
 *
 * Signed bytes: the RFC 8785 JSON of {format: 'baton-checkpoint', version: 1, seq, head, time}.
 * A `head.sig.json` written by an older Baton (format 'baton-head-signature', no time) is still
 * read, as one more checkpoint.
 *
 * A signature proves who holds the key, not that the key should count: trust is the reader's
 * list (trust.ts). A valid checkpoint by a key not on it is "untrusted".
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import path from 'node:path';
import type { LedgerRecord, SignatureState, VerifyProblem } from '../../shared/ledger';
import { isMissing } from '../platform/fs-facts';
import { APPEND_FLAGS } from '../platform/contained-write';
import { readRegularFile, SafeReadError } from '../platform/safe-read';
import { refuseLinkedFolders } from './ledger-state';
import { canonicalJson } from './hashing';
import { displayPath, isSha256, SIGNATURE_FILE } from './ledger-file';
import { verifyChain } from './verify-chain';
import { rememberCheckpoint } from './witness';

export const SIGNING_KEY_FILE = 'signing-key.pem';
export const CHECKPOINTS_FILE = 'checkpoints.jsonl';

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
  /** When it was signed (ISO 8601); null for an older head.sig.json. */
  readonly time: string | null;
}

/** Public keys whose signatures count, each with where the trust comes from (for messages). */
export type TrustedKeys = ReadonlyMap<string, string>;

const signedBytes = (c: Omit<HeadSignature, 'publicKey' | 'signature'>): Buffer =>
  Buffer.from(
    canonicalJson(
      c.time === null
        ? { format: 'baton-head-signature', version: 1, seq: c.seq, head: c.head }
        : { format: 'baton-checkpoint', version: 1, seq: c.seq, head: c.head, time: c.time },
    ),
    'utf8',
  );

const publicText = (key: KeyObject): string => String(key.export({ format: 'jwk' }).x);

export const keyOf = (privateKey: KeyObject): SigningKey => {
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicKeyText: publicText(publicKey) };
};

/** The key in `<configDir>/signing-key.pem`, or null when this user has none yet. */
export const loadSigningKey = async (configDir: string): Promise<SigningKey | null> => {
  const pem = await fs.readFile(path.join(configDir, SIGNING_KEY_FILE), 'utf8').catch((error: unknown) => (isMissing(error) ? null : Promise.reject(error)));
  return pem === null ? null : keyOf(createPrivateKey(pem));
};

/** The key pair in `<configDir>/signing-key.pem`, created (0600) on first use. */
export const loadOrCreateSigningKey = async (configDir: string): Promise<SigningKey> => {
  const existing = await loadSigningKey(configDir);
  if (existing) return existing;
  const file = path.join(configDir, SIGNING_KEY_FILE);
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

/**
 * Signs the current head (refusing a broken or empty chain) and appends the checkpoint to
 * `<ledgerDir>/checkpoints.jsonl` (earlier checkpoints are kept). `key` defaults to the user's key.
 */
export const signHead = async (ledgerDir: string, configDir: string, options: { key?: SigningKey; now?: Date } = {}): Promise<HeadSignature> => {
  const report = await verifyChain(ledgerDir);
  if (!report.chain.ok) {
    throw new Error(`Refusing to sign: the ledger is broken at record #${report.chain.brokenAt}. Run \`baton verify\` to see what is wrong.`);
  }
  if (report.head === null) throw new Error('Nothing to sign: the ledger has no records yet.');
  const key = options.key ?? (await loadOrCreateSigningKey(configDir));
  // An intact chain numbers its records 1..n, so the head's seq is the count.
  const unsigned = { seq: report.records, head: report.head, time: (options.now ?? new Date()).toISOString() };
  const signature = sign(null, signedBytes(unsigned), key.privateKey).toString('base64');
  const signed: HeadSignature = { ...unsigned, publicKey: key.publicKeyText, signature };
  const line = `${JSON.stringify({ version: 1, algorithm: 'ed25519', ...signed })}\n`;
  // One O_APPEND write: a line is never interleaved with another's, and nothing earlier is rewritten.
  const handle = await fs.open(path.join(ledgerDir, CHECKPOINTS_FILE), APPEND_FLAGS, 0o666);
  try {
    await handle.write(line);
    await handle.sync();
  } finally {
    await handle.close();
  }
  // This machine has now seen the ledger signed this far: an older folder no longer verifies here (witness.ts).
  const genesis = await genesisHash(ledgerDir);
  if (genesis) await rememberCheckpoint(configDir, genesis, signed);
  return signed;
};

/** The first record's hash (the chain was just verified): how the witness knows the project. */
const genesisHash = async (ledgerDir: string): Promise<string | null> => {
  const handle = await fs.open(path.join(ledgerDir, 'events.jsonl'), fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const first = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    const hash = (JSON.parse(first) as { hash?: unknown }).hash;
    return isSha256(hash) ? hash : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
};

const signatureValid = (c: HeadSignature): boolean => {
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: c.publicKey }, format: 'jwk' });
    return verify(null, signedBytes(c), key, Buffer.from(c.signature, 'base64'));
  } catch {
    return false;
  }
};

type Parsed = { where: string; checkpoint: HeadSignature } | { where: string; problem: string };

const parseCheckpoint = (text: string, where: string, legacy: boolean): Parsed => {
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { where, problem: `${where} is not valid JSON, so the checkpoint cannot be checked` };
  }
  const { seq, head, publicKey, signature, time } = file ?? {};
  if (!Number.isInteger(seq) || !isSha256(head) || typeof publicKey !== 'string' || typeof signature !== 'string' || (!legacy && typeof time !== 'string')) {
    return { where, problem: `${where} lacks seq, head, ${legacy ? '' : 'time, '}publicKey or signature` };
  }
  return { where, checkpoint: { seq: seq as number, head, publicKey, signature, time: legacy ? null : (time as string) } };
};

/**
 * A checkpoint file's text; null when there is none; a problem when it is there but may not be read
 * (a symlink, to /etc/passwd or anywhere; a linked ledger folder; a FIFO; over the size limit).
 */
const readCheckpointFile = async (file: string, where: string): Promise<string | { where: string; problem: string } | null> => {
  try {
    await refuseLinkedFolders(file);
    return (await readRegularFile(file, { maxBytes: MAX_CHECKPOINTS_BYTES })).toString('utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    return {
      where,
      problem: `${where} ${error instanceof SafeReadError ? error.detail : error instanceof Error ? error.message : String(error)}: its checkpoints cannot be checked`,
    };
  }
};

/** Checkpoints are small lines; a file past this is not a checkpoint log. */
const MAX_CHECKPOINTS_BYTES = 16 * 1024 * 1024;

/** Every checkpoint on disk: the legacy head.sig.json first, then checkpoints.jsonl in order. */
const readCheckpoints = async (ledgerDir: string): Promise<Parsed[]> => {
  const found: Parsed[] = [];
  const legacyName = displayPath(ledgerDir, undefined, SIGNATURE_FILE);
  const legacy = await readCheckpointFile(path.join(ledgerDir, SIGNATURE_FILE), legacyName);
  if (typeof legacy === 'object' && legacy !== null) found.push(legacy);
  else if (legacy !== null) found.push(parseCheckpoint(legacy, legacyName, true));
  const name = displayPath(ledgerDir, undefined, CHECKPOINTS_FILE);
  const log = await readCheckpointFile(path.join(ledgerDir, CHECKPOINTS_FILE), name);
  if (typeof log === 'object' && log !== null) found.push(log);
  else if (log !== null) {
    log.split('\n').forEach((line, index) => {
      if (line.trim() !== '') found.push(parseCheckpoint(line, `${name} line ${index + 1}`, false));
    });
  }
  return found;
};

export interface SignatureCheck {
  readonly state: SignatureState;
  /** The newest valid checkpoint's seq. */
  readonly seq?: number;
  /** The newest valid checkpoint itself (what a witness remembers). */
  readonly newest?: HeadSignature;
  readonly message?: string;
  readonly checkpoints: number;
  /** Records after the newest valid checkpoint: nobody has signed for them. */
  readonly unsignedTail: number;
  /** Keys that signed a valid checkpoint but are on no trusted list. */
  readonly untrustedKeys: readonly string[];
  readonly problems: readonly VerifyProblem[];
}

/**
 * unsigned (no checkpoint), invalid (any checkpoint whose signature fails or whose (seq, head) the
 * chain no longer holds), untrusted (all valid, but one signer is on no list), or signed.
 * Without `trusted`, every valid signature counts (the bundle exporter's own check).
 */
export const checkSignature = async (ledgerDir: string, records: readonly LedgerRecord[], trusted?: TrustedKeys): Promise<SignatureCheck> => {
  const parsed = await readCheckpoints(ledgerDir);
  const problems: VerifyProblem[] = [];
  const hashAt = new Map(records.map((r) => [r.seq, r.hash]));
  const untrusted = new Set<string>();
  let newest = 0;
  let newestCheckpoint: HeadSignature | undefined;
  let valid = 0;
  for (const entry of parsed) {
    const file = entry.where.replace(/ line \d+$/, '');
    if ('problem' in entry) {
      problems.push({ file, message: entry.problem });
      continue;
    }
    const c = entry.checkpoint;
    const label = `checkpoint at record #${c.seq}${c.time ? ` (signed ${c.time})` : ''} in ${entry.where}`;
    if (!signatureValid(c)) {
      problems.push({ file, seq: c.seq, message: `the signature of the ${label} does not verify: the checkpoint was edited` });
      continue;
    }
    const now = hashAt.get(c.seq);
    if (now !== c.head) {
      problems.push({
        file,
        seq: c.seq,
        message:
          now === undefined
            ? `the ${label} vouches for record #${c.seq}, but the ledger has no record #${c.seq} now: records were removed after it was signed`
            : `the ledger no longer matches the ${label}: record #${c.seq} hashes to ${now.slice(0, 12)}…, the checkpoint signed ${c.head.slice(0, 12)}… (the chain was rewritten)`,
      });
      continue;
    }
    valid += 1;
    if (c.seq >= newest) newestCheckpoint = c;
    newest = Math.max(newest, c.seq);
    if (trusted && !trusted.has(c.publicKey)) untrusted.add(c.publicKey);
  }
  const unsignedTail = Math.max(0, records.length - newest);
  const base = { checkpoints: valid, unsignedTail, untrustedKeys: [...untrusted], problems, ...(newestCheckpoint ? { newest: newestCheckpoint } : {}) };
  if (problems.length > 0) return { ...base, state: 'invalid', ...(newest ? { seq: newest } : {}), message: problems[0]!.message };
  if (valid === 0) return { ...base, state: 'unsigned' };
  const tail = unsignedTail > 0 ? `; unsigned tail: ${unsignedTail} record${unsignedTail === 1 ? '' : 's'} after it` : '';
  if (untrusted.size > 0) {
    const keys = [...untrusted].map((k) => `${k.slice(0, 16)}…`).join(', ');
    return { ...base, state: 'untrusted', seq: newest, message: `signed up to record #${newest}, but by a key on no trusted list (${keys})${tail}` };
  }
  return {
    ...base,
    state: 'signed',
    seq: newest,
    message: `record #${newest} and everything before it signed (${valid} checkpoint${valid === 1 ? '' : 's'})${tail}`,
  };
};

/** Retired keys keep their name with the time they were retired: `signing-key.retired-<time>.pem`. */
export const RETIRED_KEY = /^signing-key\.retired-[0-9TZ-]+\.pem$/;

/**
 * `baton sign --rotate`: the current key is kept as a retired key (its checkpoints still verify and,
 * for this user, still count), and a new key signs from now on. Returns both public keys.
 */
export const rotateSigningKey = async (configDir: string, now = new Date()): Promise<{ retired: string | null; key: SigningKey }> => {
  const current = await loadSigningKey(configDir);
  if (current) {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    await fs.rename(path.join(configDir, SIGNING_KEY_FILE), path.join(configDir, `signing-key.retired-${stamp}.pem`));
  }
  return { retired: current?.publicKeyText ?? null, key: await loadOrCreateSigningKey(configDir) };
};

/** The public keys of this user's own keys, the current one and every retired one. */
export const ownPublicKeys = async (configDir: string): Promise<string[]> => {
  const names = await fs.readdir(configDir).catch(() => [] as string[]);
  const keys: string[] = [];
  for (const name of names.filter((n) => n === SIGNING_KEY_FILE || RETIRED_KEY.test(n))) {
    const pem = await fs.readFile(path.join(configDir, name), 'utf8').catch(() => null);
    try {
      if (pem !== null) keys.push(keyOf(createPrivateKey(pem)).publicKeyText);
    } catch {
      // Not a key this Baton can read: it vouches for nothing, and `baton sign` says so when used.
    }
  }
  return keys;
};

/**
 * After a gate decision: a checkpoint, when this user has a signing key (made by `baton sign`).
 * Never fails the decision it follows: a key that cannot be read, or a chain that is broken, leaves
 * the decision unsigned, which `baton verify` reports as the unsigned tail.
 */
export const checkpointIfKeyed = async (ledgerDir: string, configDir: string, loaded?: SigningKey | null): Promise<HeadSignature | null> => {
  try {
    // `loaded`: the key the caller already read (null: none), so it is not read twice.
    const key = loaded === undefined ? await loadSigningKey(configDir) : loaded;
    return key ? await signHead(ledgerDir, configDir, { key }) : null;
  } catch {
    return null;
  }
};

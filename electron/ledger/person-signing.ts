/**
 * Decisions signed by the person who makes them. A record whose actor is a person, appended through
 * a Ledger given that person's key (the one `baton sign` and `baton key` keep in the config folder),
 * carries `data.signature`: the public key and an ed25519 signature over the record as it will be
 * written, minus the signature and the hash. The signed bytes hold the record's seq and `prev`, so a
 * signature cannot be moved to another record or another place in the chain, and they hold the
 * approver's name, the gate and the artifact hashes, so none of them can be changed and re-chained
 * without the signature failing.
 *
 * Signed bytes: the RFC 8785 JSON of {format: 'baton-person-record', version: 1, seq, at, type,
 * actor, subject, data (without `signature`), blobs, prev}.
 */
import { createPublicKey, sign, verify } from 'node:crypto';
import type { LedgerRecord } from '../../shared/ledger';
import { PUBLIC_KEY_PATTERN } from '../../shared/approvers';
import { canonicalJson } from './hashing';
import type { SigningKey } from './signing';

export interface PersonSignature {
  /** The signer's public key (base64url, 43 characters). */
  readonly key: string;
  /** The ed25519 signature, base64. */
  readonly value: string;
}

type Unsigned = Omit<LedgerRecord, 'hash'>;

const signedBytes = (record: Unsigned): Buffer => {
  const { signature: _dropped, ...data } = record.data;
  return Buffer.from(
    canonicalJson({
      format: 'baton-person-record',
      version: 1,
      seq: record.seq,
      at: record.at,
      type: record.type,
      actor: record.actor,
      subject: record.subject,
      data,
      blobs: record.blobs,
      prev: record.prev,
    }),
    'utf8',
  );
};

/** `record` with `data.signature` by `key` (the record as read back: plain JSON, no hash yet). */
export const signPersonRecord = (record: Unsigned, key: SigningKey): Unsigned => {
  const value = sign(null, signedBytes(record), key.privateKey).toString('base64');
  const signature: PersonSignature = { key: key.publicKeyText, value };
  return { ...record, data: { ...record.data, signature } };
};

/**
 * The signature a record carries: null when it has none; `valid` false when it is malformed or
 * does not verify over the record as it is now.
 */
export const personSignatureOf = (record: LedgerRecord): { key: string; valid: boolean } | null => {
  const signature = record.data['signature'];
  if (signature === undefined) return null;
  const { key, value } = (typeof signature === 'object' && signature !== null ? signature : {}) as Record<string, unknown>;
  if (typeof key !== 'string' || typeof value !== 'string' || !PUBLIC_KEY_PATTERN.test(key))
    return { key: typeof key === 'string' ? key.slice(0, 43) : '?', valid: false };
  try {
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key }, format: 'jwk' });
    return { key, valid: verify(null, signedBytes(record), publicKey, Buffer.from(value, 'base64')) };
  } catch {
    return { key, valid: false };
  }
};

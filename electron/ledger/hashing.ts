/**
 * Every hash Baton records, in one place. Two algorithms name what an approval or a record hashed:
 *
 * - `jcs-sha256`: SHA-256 (lowercase hex) of the UTF-8 bytes of the RFC 8785 (JSON Canonicalization
 *   Scheme) form of a JSON value: object keys sorted by UTF-16 code units, no whitespace, numbers
 *   in ECMAScript shortest form. Formatting, key order and `1.0` vs `1` do not change the hash.
 *   Used for Baton's own JSON artifacts and for every ledger record (the record without `hash`).
 *
 * - `text-sha256`: SHA-256 (lowercase hex) of the UTF-8 bytes of the text after normalizeText:
 *   CRLF and lone CR become LF, trailing spaces and tabs are stripped from every line (the last
 *   one too), then runs of three or more LF collapse to two. This is Consort's gate hash, so a
 *   Consort `gates.json` verifies unchanged. Used for text artifacts and every Consort/sftdd file.
 *
 * Bytes are normalised as bytes, not decoded first: the normalisation touches only ASCII CR, LF,
 * space and tab, which never occur inside a multi-byte UTF-8 sequence, so for valid UTF-8 the result
 * is identical to normalising the decoded text — and for bytes that are not valid UTF-8 nothing is
 * lost to U+FFFD replacement (two different binary files never collide through decoding). A
 * leading byte-order mark is content and is kept, as in Consort.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { HashAlgorithm, LedgerRecord } from '../../shared/ledger';
import { describeJsonHazard, jsonHazard, type JsonHazardKind } from '../../shared/json-safety';
import type { Layout } from '../../shared/model';

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

export const normalizeText = (text: string): string =>
  text
    .replace(/\r\n?/g, '\n')
    // Not /[ \t]+$/gm: in JS multiline mode `$` also matches before U+2028/U+2029, which Consort does not.
    // The lookbehind starts a match only where a run of blanks starts: without it a long run not at a
    // line end was rescanned from every one of its characters (quadratic: a 1 MB run took minutes).
    .replace(/(?<![ \t])[ \t]+(?=\n|$)/g, '')
    .replace(/\n{3,}/g, '\n\n');

/** normalizeText on UTF-8 bytes, in one pass (see the header for why bytes, not text). */
export const normalizeBytes = (input: Uint8Array): Uint8Array => {
  const out = new Uint8Array(input.length);
  let o = 0;
  // Where the current run of trailing spaces/tabs began in `out`, or -1.
  let blankFrom = -1;
  // Newlines in a row, counting lines that were only spaces and tabs (they become empty).
  let newlines = 0;
  for (let i = 0; i < input.length; i++) {
    let b = input[i]!;
    if (b === CR) {
      if (input[i + 1] === LF) continue;
      b = LF;
    }
    if (b === LF) {
      if (blankFrom >= 0) o = blankFrom;
      blankFrom = -1;
      newlines++;
      if (newlines <= 2) out[o++] = LF;
    } else if (b === SPACE || b === TAB) {
      if (blankFrom < 0) blankFrom = o;
      out[o++] = b;
    } else {
      blankFrom = -1;
      newlines = 0;
      out[o++] = b;
    }
  }
  if (blankFrom >= 0) o = blankFrom;
  return out.subarray(0, o);
};

const encoder = new TextEncoder();

export const textSha256 = (text: string | Uint8Array): string => sha256Hex(normalizeBytes(typeof text === 'string' ? encoder.encode(text) : text));

/** The canonicaliser's own words for what it refuses (callers and tests match on them), then the detail. */
const HAZARD_TITLES: Readonly<Record<JsonHazardKind, string>> = {
  number: 'NaN and Infinity are not allowed',
  surrogate: 'Lone surrogate is not allowed',
  depth: 'Nesting is too deep',
  type: 'Not a JSON value',
};

/**
 * The RFC 8785 text of a JSON value; throws (with the reason and where) for values JSON cannot carry:
 * a non-finite number, a lone surrogate, nesting deeper than MAX_JSON_DEPTH (checked iteratively
 * first, so the recursive canonicaliser never meets a value deep enough to overflow the stack).
 */
export const canonicalJson = (value: unknown): string => {
  const hazard = jsonHazard(value);
  if (hazard !== null) throw new Error(`cannot hash this value as canonical JSON: ${HAZARD_TITLES[hazard.kind]}: ${describeJsonHazard(hazard)}`);
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new Error(`cannot hash this value as canonical JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) throw new Error('cannot hash this value as canonical JSON: it is undefined or a function');
  return text;
};

export const jcsSha256 = (value: unknown): string => sha256Hex(canonicalJson(value));

export type ArtifactHash = { ok: true; algorithm: HashAlgorithm; sha256: string } | { ok: false; error: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The hash an approval records for one artifact. Only Baton's own JSON is hashed canonically;
 * Consort's files are hashed as text because that is what its gates.json holds.
 */
export const hashArtifact = (fileName: string, content: Uint8Array, layout: Layout): ArtifactHash => {
  if (layout !== 'baton' || !fileName.toLowerCase().endsWith('.json')) {
    return { ok: true, algorithm: 'text-sha256', sha256: textSha256(content) };
  }
  let text: string;
  try {
    text = strictUtf8.decode(content);
  } catch {
    return { ok: false, error: `${fileName} is not valid UTF-8 text, so it cannot be read as JSON. Re-save it as UTF-8.` };
  }
  // A BOM is not JSON, but editors add one; it carries no meaning, so it does not block the hash.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${fileName} is not valid JSON (${reason}). Fix the file, then approve again.` };
  }
  const hazard = jsonHazard(value, text);
  if (hazard !== null) {
    return {
      ok: false,
      error: `${fileName} cannot be hashed as canonical JSON (RFC 8785): it holds ${describeJsonHazard(hazard)}. Fix the file, then approve again.`,
    };
  }
  try {
    return { ok: true, algorithm: 'jcs-sha256', sha256: jcsSha256(value) };
  } catch (error) {
    return { ok: false, error: `${fileName} ${error instanceof Error ? error.message : String(error)}. Fix the file, then approve again.` };
  }
};

/**
 * A ledger record's `hash`: jcs-sha256 of the record without `hash` (a `hash` passed in is ignored).
 * Throws for a record JSON cannot carry (see canonicalJson); readers that meet records from disk use
 * tryRecordHash, and parseLedger has already turned such lines into located problems.
 */
export const recordHash = (record: Omit<LedgerRecord, 'hash'>): string => {
  const { hash: _ignored, ...rest } = record as Omit<LedgerRecord, 'hash'> & { hash?: unknown };
  return jcsSha256(rest);
};

/** recordHash that answers instead of throwing: the hash, or why the record cannot be hashed. */
export const tryRecordHash = (record: Omit<LedgerRecord, 'hash'>): { ok: true; hash: string } | { ok: false; error: string } => {
  try {
    return { ok: true, hash: recordHash(record) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};

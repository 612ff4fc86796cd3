import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../shared/ledger';
import { canonicalJson, hashArtifact, jcsSha256, normalizeBytes, normalizeText, recordHash, sha256Hex, textSha256 } from './hashing';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/fixtures/consort-shop/.consort/features');
const bytes = (text: string) => new TextEncoder().encode(text);

describe('normalizeText (Consort gate hashing)', () => {
  it.each([
    ['CRLF becomes LF', 'a\r\nb\r\n', 'a\nb\n'],
    ['a lone CR becomes LF', 'a\rb\r', 'a\nb\n'],
    ['CR CR LF is two line ends', 'a\r\r\nb', 'a\n\nb'],
    ['trailing spaces and tabs are stripped from every line', 'a \t \nb\t\nc  ', 'a\nb\nc'],
    ['leading and inner spaces stay', '  a  b\n\tc', '  a  b\n\tc'],
    ['three or more newlines collapse to two', 'a\n\n\nb\n\n\n\n\nc', 'a\n\nb\n\nc'],
    ['lines of only blanks count as empty when collapsing', 'a\n  \n\t\n\nb', 'a\n\nb'],
    ['two newlines stay two', 'a\n\nb\n', 'a\n\nb\n'],
    ['other whitespace is content', 'a\u00a0\nb\u2028 \nc\f', 'a\u00a0\nb\u2028\nc\f'],
    ['already-normal text is unchanged', '{\n  "a": 1\n}\n', '{\n  "a": 1\n}\n'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeText(input)).toBe(expected);
    expect(new TextDecoder().decode(normalizeBytes(bytes(input)))).toBe(expected);
  });

  it('normalises bytes exactly as it normalises the decoded text (random inputs)', () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = ['a', 'é', '\u{1f600}', ' ', '\t', '\r', '\n', '\r\n', 'x'];
    for (let run = 0; run < 500; run++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
      expect(new TextDecoder().decode(normalizeBytes(bytes(text)))).toBe(normalizeText(text));
    }
  });

  it('keeps bytes that are not UTF-8 instead of replacing them', () => {
    expect(textSha256(new Uint8Array([0xff, 0x0a]))).not.toBe(textSha256(new Uint8Array([0xfe, 0x0a])));
  });
});

describe('sha256Hex and textSha256', () => {
  it('matches the FIPS 180-2 test vector for "abc" and the empty string', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the normalised UTF-8, so line endings and trailing blanks do not matter', () => {
    expect(textSha256('abc')).toBe(sha256Hex('abc'));
    expect(textSha256('abc \r\n\r\n\r\n')).toBe(sha256Hex('abc\n\n'));
    expect(textSha256(bytes('é\r\n'))).toBe(textSha256('é\n'));
  });

  it("reproduces the Consort fixture's gates.json hashes, also after CRLF conversion", async () => {
    const spec = await readFile(path.join(FIXTURE, 'F-checkout/feature-spec.json'));
    const expected = 'c33d3f2341ce8e9031f8fc825bcea6ccd6d9c0e32755b5c7b70182b6ff54309d';
    expect(textSha256(spec)).toBe(expected);
    expect(textSha256(spec.toString('utf8').replace(/\n/g, ' \r\n'))).toBe(expected);
    const inventory = await readFile(path.join(FIXTURE, 'F-inventory/feature-spec.json'));
    expect(textSha256(inventory)).toBe('6caefbdf8bb629f4ffc05fbb5e40aa25e266cf87ff85f158501213aa01595305');
  });
});

describe('jcsSha256 (RFC 8785)', () => {
  it('does not depend on key order or whitespace', () => {
    const a = JSON.parse('{"b": 1, "a": {"y": [1, 2], "x": "é"}}') as unknown;
    const b = JSON.parse('{\n  "a": {"x": "\\u00e9", "y": [1, 2]},\n  "b": 1\n}') as unknown;
    expect(jcsSha256(a)).toBe(jcsSha256(b));
    expect(canonicalJson(a)).toBe('{"a":{"x":"é","y":[1,2]},"b":1}');
  });

  it('does not depend on how a number is written', () => {
    const written = JSON.parse('{"n": [1.0, 1e30, 4.50, 2e-3, 0.000000000000000000000000001, -0]}') as unknown;
    expect(canonicalJson(written)).toBe('{"n":[1,1e+30,4.5,0.002,1e-27,0]}');
    expect(jcsSha256(written)).toBe(jcsSha256({ n: [1, 1e30, 4.5, 0.002, 1e-27, 0] }));
  });

  it('distinguishes different values and explains values JSON cannot carry', () => {
    expect(jcsSha256({ a: 1 })).not.toBe(jcsSha256({ a: '1' }));
    expect(() => jcsSha256({ a: Number.NaN })).toThrow(/canonical JSON: NaN/);
    expect(() => jcsSha256(undefined)).toThrow(/undefined/);
  });
});

describe('hashArtifact', () => {
  const json = bytes('{\n  "name": "Checkout",\n  "feature_id": "F-1"\n}\n');
  const reformatted = bytes('{"feature_id":"F-1","name":"Checkout"}');

  it('hashes Baton JSON canonically (jcs-sha256): formatting does not change it', () => {
    const first = hashArtifact('feature.json', json, 'baton');
    expect(first).toEqual({ ok: true, algorithm: 'jcs-sha256', sha256: jcsSha256({ feature_id: 'F-1', name: 'Checkout' }) });
    expect(hashArtifact('feature.json', reformatted, 'baton')).toEqual(first);
    expect(hashArtifact('feature.json', bytes(`\ufeff${new TextDecoder().decode(json)}`), 'baton')).toEqual(first);
  });

  it('hashes Baton text artifacts and every Consort or sftdd file as text (text-sha256)', () => {
    expect(hashArtifact('notes.md', bytes('# Notes  \r\n'), 'baton')).toEqual({ ok: true, algorithm: 'text-sha256', sha256: sha256Hex('# Notes\n') });
    for (const layout of ['consort', 'sftdd'] as const) {
      expect(hashArtifact('feature-spec.json', json, layout)).toEqual({ ok: true, algorithm: 'text-sha256', sha256: textSha256(json) });
      expect(hashArtifact('feature-spec.json', reformatted, layout)).not.toEqual(hashArtifact('feature-spec.json', json, layout));
    }
  });

  it('refuses Baton JSON that does not parse, naming the file', () => {
    const result = hashArtifact('test-list.json', bytes('{"items": ['), 'baton');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^test-list\.json is not valid JSON \(.+\)\. Fix the file/);
    const binary = hashArtifact('x.json', new Uint8Array([0x7b, 0xff, 0x7d]), 'baton');
    expect(binary).toMatchObject({ ok: false, error: expect.stringMatching(/not valid UTF-8/) });
  });
});

describe('recordHash', () => {
  it('is the jcs-sha256 of the record without its hash field', () => {
    const record = {
      seq: 1,
      at: '2025-01-01T00:00:00.000Z',
      type: 'gate.approved',
      actor: { kind: 'person' as const, id: 'Ada <ada@example.com>' },
      subject: { feature: 'F-1' },
      data: {},
      blobs: [],
      prev: GENESIS_HASH,
    };
    expect(recordHash(record)).toBe(jcsSha256(record));
    expect(recordHash({ ...record, hash: 'f'.repeat(64) } as typeof record)).toBe(jcsSha256(record));
  });
});

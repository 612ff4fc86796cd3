/**
 * JSON that parses but cannot be hashed canonically (1e999, a lone surrogate, 100,000-deep nesting)
 * is refused with a located reason wherever it is met — an artifact, a ledger line — and never
 * escapes as an exception (these inputs crashed `baton inspect`, `gates` and `verify` before).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, hashArtifact, normalizeBytes, normalizeText, tryRecordHash } from './hashing';
import { parseLedger } from './ledger-file';
import { appendSome, makeTempLedger, readLines, removeTemp, writeLines, type TempLedger } from './temp-ledger.fixture';
import { verifyChain } from './verify-chain';

const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('hashArtifact with JSON canonical JSON cannot carry', () => {
  it.each([
    ['{"id":"F-1","n":1e999}', /a number too large for JSON \(1e999\) at `n`/],
    ['{"id":"F-1","name":"\\ud800"}', /a lone surrogate \(\\ud800\) in a string at `name`/],
    [`{"id":"F-1","d":${deep(100_000)}}`, /nesting deeper than 512 levels at `d\[0\]/],
  ])('%# answers ok:false naming the file and the reason', (text, reason) => {
    const hashed = hashArtifact('features/F-1/feature.json', bytes(text), 'baton');
    expect(hashed.ok).toBe(false);
    if (hashed.ok) return;
    expect(hashed.error).toMatch(/^features\/F-1\/feature\.json cannot be hashed as canonical JSON \(RFC 8785\): it holds /);
    expect(hashed.error).toMatch(reason);
  });

  it('still hashes -0 and 1e-400 (their canonical form is 0) and Consort files as text', () => {
    expect(hashArtifact('a.json', bytes('{"a":-0,"b":1e-400}'), 'baton')).toEqual(hashArtifact('a.json', bytes('{"a":0,"b":0}'), 'baton'));
    expect(hashArtifact('a.json', bytes('{"n":1e999}'), 'consort')).toMatchObject({ ok: true, algorithm: 'text-sha256' });
  });

  it('throws a stated reason, never a stack overflow, to callers of canonicalJson', () => {
    expect(() => canonicalJson(JSON.parse(deep(100_000)))).toThrow(/canonical JSON: Nesting is too deep: nesting deeper than 512 levels/);
    expect(tryRecordHash({ seq: 1, data: { x: Infinity } } as never)).toMatchObject({ ok: false, error: expect.stringMatching(/number too large/) });
  });
});

describe('a ledger line that cannot be hashed', () => {
  let t: TempLedger;
  beforeEach(async () => {
    t = await makeTempLedger();
  });
  afterEach(() => removeTemp(t.root));

  /** Record line `index` with `raw` JSON text put into its data (the shape stays a record's). */
  const poisoned = (line: string, raw: string) => {
    const record = JSON.parse(line) as { data: Record<string, unknown> };
    record.data['poison'] = '\u0000P\u0000';
    return JSON.stringify(record).replace(JSON.stringify('\u0000P\u0000'), raw);
  };

  it('is a located problem of parseLedger, with its seq; the other lines still load', async () => {
    await appendSome(t.ledger, 3);
    const lines = await readLines(t.events);
    const parsed = parseLedger(Buffer.from([lines[0], poisoned(lines[1]!, '1e999'), lines[2], ''].join('\n')));
    expect(parsed.entries.map((e) => ('record' in e ? e.record.seq : e.problem))).toEqual([
      1,
      'line 2 holds a record that cannot be hashed: it contains a number too large for JSON (1e999) at `data.poison`',
      3,
    ]);
    expect(parsed.entries[1]).toMatchObject({ line: 2, seq: 2 });
  });

  it.each([['"\\udfff"'], [deep(100_000)], ['-1e999']])('makes verify report the line, not throw (%#)', async (raw) => {
    await appendSome(t.ledger, 2);
    const lines = await readLines(t.events);
    await writeLines(t.events, [lines[0]!, poisoned(lines[1]!, raw)]);
    const report = await verifyChain(t.dir);
    expect(report.chain).toEqual({ ok: false, brokenAt: 2 });
    expect(report.problems).toEqual([
      {
        file: '.baton/ledger/events.jsonl',
        seq: 2,
        message: expect.stringMatching(/^line 2 holds a record that cannot be hashed: it contains .+ at `data\.poison/),
      },
    ]);
  });
});

describe('normalizeText', () => {
  it('takes linear time on a long run of blanks that does not end a line', () => {
    const text = `a${' '.repeat(1_000_000)}b\n`;
    const started = performance.now();
    expect(normalizeText(text)).toBe(text);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('agrees with normalizeBytes', () => {
    for (const text of [' a  \n b \t\n\n\n\nc  ', 'x\r\n\t \r\ny \r', '  \n  \n  \n  ', 'one\u2028two  ']) {
      expect(normalizeText(text)).toBe(Buffer.from(normalizeBytes(bytes(text))).toString('utf8'));
    }
    expect(normalizeText(' a  \n b \t\n\n\n\nc  ')).toBe(' a\n b\n\nc');
  });
});

import { describe, expect, it } from 'vitest';
import { dataRows, durationWords, fieldLabel, subjectTitle, subjectWords, type FieldRow } from './record-words';

describe('subject words', () => {
  it('says each part once: a cycle id that repeats the feature and item adds nothing, a round adds #n', () => {
    expect(subjectWords({ feature: 'F-inventory', story: 'S-1', item: 'T1', cycle: 'F-inventory/T1' })).toBe('F-inventory · S-1 · T1');
    expect(subjectWords({ feature: 'F-inventory', story: 'S-1', item: 'T1', cycle: 'F-inventory/T1#2' })).toBe('F-inventory · S-1 · T1 #2');
    expect(subjectWords({ feature: 'F-1', story: 'S-1', gate: 'acceptance' })).toBe('F-1 · S-1 · acceptance');
    expect(subjectWords({ feature: 'F-1', item: 'T1' })).toBe('F-1 · T1');
    expect(subjectWords({})).toBe('—');
  });

  it('keeps what only the cycle id says: its item, or its feature', () => {
    expect(subjectWords({ feature: 'F-1', cycle: 'F-1/T3#3' })).toBe('F-1 · T3 #3');
    expect(subjectWords({ item: 'T3', cycle: 'F-1/T3' })).toBe('F-1/T3');
    expect(subjectWords({ cycle: 'F-1/T3#2' })).toBe('F-1/T3#2');
  });

  it('says a cycle named another way, or naming another subject, as it is', () => {
    expect(subjectWords({ feature: 'F-1', item: 'T1', cycle: 'cycle-001' })).toBe('F-1 · T1 · cycle-001');
    expect(subjectWords({ feature: 'F-1', item: 'T1', cycle: 'F-2/T1' })).toBe('F-1 · T1 · F-2/T1');
  });

  it('names every field in the hover text', () => {
    expect(subjectTitle({ feature: 'F-1', story: 'S-1', item: 'T1', cycle: 'F-1/T1#2' })).toBe('feature F-1, story S-1, item T1, cycle F-1/T1#2');
  });
});

describe('field labels and durations', () => {
  it('splits keys into words, with the capitals people use', () => {
    expect(fieldLabel('agentExitCode')).toBe('Agent exit code');
    expect(fieldLabel('feature_id')).toBe('Feature ID');
    expect(fieldLabel('rejectedRed')).toBe('Rejected RED');
    expect(fieldLabel('outOfScope')).toBe('Out of scope');
    expect(fieldLabel('ACs')).toBe('ACs');
    expect(fieldLabel('sha256')).toBe('Sha256');
    expect(fieldLabel('costUsd')).toBe('Cost USD');
  });

  it('says milliseconds in the unit that reads best', () => {
    expect(durationWords(0)).toBe('0 ms');
    expect(durationWords(350)).toBe('350 ms');
    expect(durationWords(4200)).toBe('4.2 s');
    expect(durationWords(12_000)).toBe('12 s');
    expect(durationWords(502_000)).toBe('8 min 22 s');
    expect(durationWords(120_000)).toBe('2 min');
    expect(durationWords(3_900_000)).toBe('1 h 5 min');
  });
});

/** The rows as `label: text` lines, nested rows indented: what a reader sees. */
const lines = (rows: readonly FieldRow[], indent = ''): string[] =>
  rows.flatMap((row) =>
    row.value.kind === 'fields'
      ? [`${indent}${row.label}`, ...lines(row.value.rows, `${indent}  `)]
      : [`${indent}${row.label}: ${row.value.text} (${row.value.kind})`],
  );

describe('data rows', () => {
  it('renders a cycle.green as labelled fields: scalars as words, hashes in mono, lists joined or nested', () => {
    const lock = 'f'.repeat(64);
    const rows = dataRows({
      key: 'green:4',
      attempt: 4,
      violations: 0,
      kept: ['test/t1.test.js', 'src/stock.js'],
      outOfScope: [],
      turnMs: 4200,
      ms: 120_000,
      verdict: 'failing',
      failure: null,
      escalate: false,
      lock,
      files: [{ path: 'src/stock.js', kind: 'tell' }],
      at: '2025-03-01T10:00:00.000Z',
    });
    expect(lines(rows)).toEqual([
      'Key: green:4 (text)',
      'Attempt: 4 (text)',
      'Violations: 0 (text)',
      'Kept: test/t1.test.js, src/stock.js (text)',
      'Out of scope: none (none)',
      'Turn: 4.2 s (text)',
      'Duration: 2 min (text)',
      'Verdict: failing (text)',
      'Failure: none (none)',
      'Escalate: no (text)',
      `Lock: ${lock} (hash)`,
      'Files',
      '  1.',
      '    Path: src/stock.js (text)',
      '    Kind: tell (text)',
      'At: 2025-03-01T10:00:00.000Z (time)',
    ]);
  });

  it('wraps long text, keeps nested objects nested, and says empty things in words', () => {
    const reason = 'repair budget spent: 3 repairs and T1 still fails, the runner printed FAIL T1 on the last GREEN of the cycle';
    const rows = dataRows({ reason, note: 'line one\nline two', approver: { name: 'Ana', email: 'ana@example.com' }, empty: {}, blank: '  ', count: 12_345 });
    expect(lines(rows)).toEqual([
      `Reason: ${reason} (long)`,
      'Note: line one\nline two (long)',
      'Approver',
      '  Name: Ana (text)',
      '  Email: ana@example.com (text)',
      'Empty: none (none)',
      'Blank: empty (none)',
      'Count: 12,345 (text)',
    ]);
  });

  it('keeps names from the data (files, ids) as they are, and says their values', () => {
    const sha256 = '8'.repeat(64);
    const rows = dataRows({ artifacts: { 'stories/S-1/story.json': { sha256, algorithm: 'jcs-sha256' } }, proven: { 'AC-1': true } });
    expect(lines(rows)).toEqual([
      'Artifacts',
      '  stories/S-1/story.json',
      `    Sha256: ${sha256} (hash)`,
      '    Algorithm: jcs-sha256 (text)',
      'Proven',
      '  AC-1: yes (text)',
    ]);
    expect(rows[0]!.verbatim).toBe(false);
    expect(rows[0]!.value.kind === 'fields' && rows[0]!.value.rows[0]!.verbatim).toBe(true);
  });

  it('joins a list of hashes in mono, and a long list of words as a paragraph', () => {
    const hashes = ['a'.repeat(64), 'b'.repeat(40)];
    const words = Array.from({ length: 20 }, (_, i) => `test/item-${i}.test.js`);
    expect(dataRows({ hashes, words }).map((r) => r.value)).toEqual([
      { kind: 'hash', text: hashes.join(', ') },
      { kind: 'long', text: words.join(', ') },
    ]);
  });

  it('shows a value nested deeper than any record nests as its JSON, and no data as no rows', () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } };
    const text = lines(dataRows(deep)).join('\n');
    expect(text).toContain('{"h":1}');
    expect(dataRows({})).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { artifactProblem } from './artifact-shapes';
import { hazardMessage, parseJsonText } from './json-locate';

describe('parseJsonText', () => {
  it('drops a byte-order mark and parses', () => {
    expect(parseJsonText('\ufeff{"a":1}')).toEqual({ ok: true, value: { a: 1 }, hazard: null });
  });

  it('locates a syntax error by line and column', () => {
    expect(parseJsonText('{\n  "a": 1,\n}')).toEqual({ ok: false, detail: "expected a property name in double quotes but found '}' at line 3, column 1" });
  });

  it('parses 100,000-deep nesting without a throw and reports it as a hazard', () => {
    const parsed = parseJsonText(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(parsed.ok && parsed.hazard?.kind).toBe('depth');
  });

  it('says what a file holds, where, and why it cannot be approved', () => {
    const parsed = parseJsonText('{"items":[{"n":1e999}]}');
    if (!parsed.ok || parsed.hazard === null) throw new Error('expected a hazard');
    expect(hazardMessage(parsed.hazard)).toBe(
      'holds a number too large for JSON (1e999) at `items[0].n`, which canonical JSON (RFC 8785) cannot carry, so it cannot be hashed or approved; fix the file',
    );
  });
});

describe('artifactProblem (what an approval refuses)', () => {
  it('refuses an artifact with a lone surrogate in the same words the reader reports', () => {
    expect(artifactProblem('stories/S-1/story.json', '{"id":"S-1","title":"\\ud800"}', 'baton')).toMatch(
      /^holds a lone surrogate \(\\ud800\) in a string at `title`/,
    );
  });
});

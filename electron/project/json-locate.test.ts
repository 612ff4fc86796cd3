import { describe, expect, it } from 'vitest';
import { naturalCompare } from './fields';
import { locateJsonError } from './json-locate';

describe('locateJsonError', () => {
  it.each([
    ['{"a": 1}', null],
    ['  [1, -2.5e3, "x\\n", true, null, {}]  ', null],
    ['{"a": }', { line: 1, column: 7, reason: "unexpected '}'" }],
    ['{"a": 1,\n "b": tru }', { line: 2, column: 7, reason: "unexpected 't'" }],
    ['[1, 2,]', { line: 1, column: 7, reason: "unexpected ']'" }],
    ['{a: 1}', { line: 1, column: 2, reason: "expected a property name in double quotes but found 'a'" }],
    ['{"a" 1}', { line: 1, column: 6, reason: "expected ':' but found '1'" }],
    ['[1 2]', { line: 1, column: 4, reason: "expected ',' or ']' but found '2'" }],
    ['{"a": 1}}', { line: 1, column: 9, reason: "unexpected '}' after the end of the JSON value" }],
    ['"abc', { line: 1, column: 5, reason: 'unterminated string' }],
    ['"a\\x"', { line: 1, column: 3, reason: 'invalid escape \\x' }],
    ['"a\tb"', { line: 1, column: 3, reason: 'character U+0009 inside a string (escape it)' }],
    ['01', { line: 1, column: 2, reason: "unexpected '1' after the end of the JSON value" }],
    ['', { line: 1, column: 1, reason: 'unexpected end of file' }],
  ])('locates the error in %j', (text, expected) => {
    expect(locateJsonError(text)).toEqual(expected);
  });

  it('agrees with JSON.parse on what is valid', () => {
    for (const text of ['{"a": [1, {"b": "\\u00e9"}]}', '[', '{"a": 1,}', '-', '1.', '[1e5, 0.5]']) {
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      expect(locateJsonError(text) === null, text).toBe(parses);
    }
  });

  it('copes with nesting far deeper than the call stack', () => {
    const deep = '['.repeat(200_000);
    expect(locateJsonError(deep)).toMatchObject({ line: 1, column: 200_001, reason: 'unexpected end of file' });
  });
});

describe('naturalCompare', () => {
  it('orders digit runs by value', () => {
    expect(['S-10', 'S-2', 'S-1', 'AC-1', 'S-02'].sort(naturalCompare)).toEqual(['AC-1', 'S-1', 'S-02', 'S-2', 'S-10']);
  });
});

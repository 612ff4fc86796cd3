import { describe, expect, it } from 'vitest';
import { describeJsonHazard, jsonHazard, loneSurrogate, MAX_JSON_DEPTH, oversizedNumberLiteral, wellFormed } from './json-safety';

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonHazard', () => {
  it('passes ordinary JSON, -0 and numbers that underflow to 0', () => {
    for (const text of ['{"a":[1,"x",null,true,{"b":-0}]}', '1e-400', '"\\ud83d\\ude00 paired"', '[]', '"plain"']) {
      expect(jsonHazard(JSON.parse(text), text)).toBeNull();
    }
  });

  it('names a number too large for JSON as written, and where it is', () => {
    const text = '{"items":[{"n":1},{"n":-1e999}]}';
    const found = jsonHazard(JSON.parse(text), text);
    expect(found).toEqual({ kind: 'number', reason: 'a number too large for JSON (-1e999)', path: 'items[1].n' });
    expect(describeJsonHazard(found!)).toBe('a number too large for JSON (-1e999) at `items[1].n`');
    expect(jsonHazard({ x: Number.NaN })?.reason).toMatch(/^NaN/);
  });

  it('refuses a lone surrogate in a value or a key, and accepts a pair', () => {
    expect(jsonHazard(JSON.parse('{"title":"a\\ud800b"}'))).toMatchObject({
      kind: 'surrogate',
      reason: 'a lone surrogate (\\ud800) in a string',
      path: 'title',
    });
    expect(jsonHazard(JSON.parse('{"\\udc00":1}'))).toMatchObject({ kind: 'surrogate', reason: 'a lone surrogate (\\udc00) in a key' });
    expect(jsonHazard('\ud83d\ude00')).toBeNull();
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, without recursion even at 100,000`, () => {
    expect(jsonHazard(JSON.parse(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(jsonHazard(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toMatchObject({ kind: 'depth', reason: `nesting deeper than ${MAX_JSON_DEPTH} levels` });
    const deep = jsonHazard(JSON.parse(nested(100_000)));
    expect(deep?.kind).toBe('depth');
    expect(deep!.path.length).toBeLessThanOrEqual(81);
  });

  it('ends on values built in code that share or loop', () => {
    const loop: Record<string, unknown> = { a: 1 };
    loop['self'] = loop;
    expect(jsonHazard(loop)).toBeNull();
    expect(jsonHazard({ big: 1n })?.kind).toBe('type');
  });
});

describe('helpers', () => {
  it('finds the first oversized literal outside strings', () => {
    expect(oversizedNumberLiteral('{"1e999":"2e999","n":[3, 4E+400]}')).toBe('4E+400');
    expect(oversizedNumberLiteral('[1,2]')).toBeNull();
  });

  it('replaces lone surrogates with U+FFFD and leaves pairs alone', () => {
    expect(wellFormed('a\ud800b\udc00c\ud83d\ude00')).toBe('a\ufffdb\ufffdc\ud83d\ude00');
    expect(loneSurrogate('ok')).toBeNull();
    expect(loneSurrogate('\udfff')).toBe('\\udfff');
  });
});

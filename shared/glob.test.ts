import { describe, expect, it } from 'vitest';
import { matchesAny } from './glob';

describe('globs for test files and write scopes', () => {
  const cases: Array<[string, string, boolean]> = [
    ['test/**', 'test/a.test.js', true],
    ['test/**', 'test/deep/er/b.js', true],
    ['test/**', 'tests/a.js', false],
    ['test/**', 'src/test/a.js', false],
    ['**/*.test.{js,ts}', 'a.test.js', true],
    ['**/*.test.{js,ts}', 'src/x/a.test.ts', true],
    ['**/*.test.{js,ts}', 'src/x/a.test.tsx', false],
    ['src/*.js', 'src/a.js', true],
    ['src/*.js', 'src/sub/a.js', false],
    ['migrations/*.sql', 'migrations/001_init.sql', true],
    ['.baton/**', '.baton/project.json', true],
    ['package.json', 'package.json', true],
    ['package.json', 'sub/package.json', false],
    ['src/?.js', 'src/a.js', true],
    ['src/[ab].js', 'src/b.js', true],
    ['src/[!ab].js', 'src/b.js', false],
    ['src/**', 'src/.env', true],
    ['a+b/(x).js', 'a+b/(x).js', true],
  ];
  for (const [pattern, path, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      expect(matchesAny(path, [pattern])).toBe(expected);
    });
  }
  it('normalises ./ and backslashes', () => {
    expect(matchesAny('.\\test\\a.js', ['./test/**'])).toBe(true);
  });
});

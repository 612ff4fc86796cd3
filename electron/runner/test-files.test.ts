import { describe, expect, it } from 'vitest';
import { looksLikeTest, TEST_FILE_PATTERNS, testFilesIn } from './test-files';

const TREE = [
  'src/aaa.test.js',
  'src/x.spec.mjs',
  'src/util-test.ts',
  'src/util_test.cts',
  'src/test-helpers.js',
  'src/test.js',
  'src/testing.js',
  'src/contest.js',
  'src/index.ts',
  'test/helper.js',
  'test/fixtures/data.json',
  '__tests__/a.js',
  'pkg/__tests__/deep/b.tsx',
  'tests/test_x.py',
  'tests/x_test.py',
  'tests/helper.py',
  'README.md',
];

describe('looksLikeTest: whatever any runner would take for a test', () => {
  it.each([
    'src/aaa.test.js',
    'src/x.spec.mjs',
    'test/helper.js',
    'tests/test_x.py',
    'tests/x_test.py',
    '__tests__/a.js',
    'src/test.js',
    'src/test-helpers.js',
    'src/util-test.ts',
    'cmd/server_test.go',
    'src/main/java/FooTest.java',
    'spec/models/user_spec.rb',
    './src/a.test.ts',
    'src\\win.test.js',
  ])('%s is a test', (path) => {
    expect(looksLikeTest(path, [])).toBe(true);
  });

  it.each(['src/index.ts', 'src/testing.js', 'src/contest.js', 'src/attest.js', 'tests/helper.py', 'test/fixtures/data.json', 'README.md', 'spec/a.js'])(
    '%s is not a test',
    (path) => {
      expect(looksLikeTest(path, [])).toBe(false);
    },
  );

  it('the project’s own test globs count too', () => {
    expect(looksLikeTest('checks/db-check.js', [])).toBe(false);
    expect(looksLikeTest('checks/db-check.js', ['checks/**'])).toBe(true);
  });

  it('an installed package under the top-level node_modules is never the Driver’s test, even by glob', () => {
    expect(looksLikeTest('node_modules/pg/lib/a.test.js', ['**'])).toBe(false);
    expect(looksLikeTest('node_modules/x/test/helper.js', [])).toBe(false);
  });
});

describe('testFilesIn: inside the test globs and a test by the family’s own rules, sorted', () => {
  it('node:test: its defaults, including any file under test/, but not .spec or __tests__', () => {
    expect(testFilesIn(TREE, ['**'], 'node-test')).toEqual([
      'src/aaa.test.js',
      'src/test-helpers.js',
      'src/test.js',
      'src/util-test.ts',
      'src/util_test.cts',
      'test/helper.js',
    ]);
  });

  it('vitest and jest: .test/.spec and __tests__, not test/helper.js', () => {
    const expected = ['__tests__/a.js', 'pkg/__tests__/deep/b.tsx', 'src/aaa.test.js', 'src/x.spec.mjs'];
    expect(testFilesIn(TREE, ['**'], 'vitest')).toEqual(expected);
    expect(testFilesIn(TREE, ['**'], 'jest')).toEqual(expected);
  });

  it('pytest: test_*.py and *_test.py only', () => {
    expect(testFilesIn(TREE, ['**'], 'pytest')).toEqual(['tests/test_x.py', 'tests/x_test.py']);
  });

  it('the globs narrow the family’s choice', () => {
    expect(testFilesIn(TREE, ['src/**'], 'vitest')).toEqual(['src/aaa.test.js', 'src/x.spec.mjs']);
    expect(testFilesIn(TREE, ['tests/**'], 'vitest')).toEqual([]);
  });

  it('other: the globs alone decide', () => {
    expect(testFilesIn(TREE, ['tests/**/*.py'], 'other')).toEqual(['tests/helper.py', 'tests/test_x.py', 'tests/x_test.py']);
    expect(TEST_FILE_PATTERNS.other).toEqual([]);
  });

  it('does not change its input', () => {
    const paths = ['b.test.js', 'a.test.js'];
    expect(testFilesIn(paths, ['**'], 'vitest')).toEqual(['a.test.js', 'b.test.js']);
    expect(paths).toEqual(['b.test.js', 'a.test.js']);
  });
});

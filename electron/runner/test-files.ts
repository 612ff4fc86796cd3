/**
 * Which files are tests: what each runner family would discover on its own (its defaults), so the
 * orchestrator can run exactly the test files it means to — and so a test file written by the
 * Driver, whatever its name or folder, is seen for what it is.
 */
import { matchesAny } from '../../shared/glob';
import type { RunnerFamily } from './runner-family';

const JS = '{js,mjs,cjs,ts,mts,cts,jsx,tsx}';

/** Each family's own discovery patterns (node:test's defaults; vitest's and jest's; pytest's). */
export const TEST_FILE_PATTERNS: Readonly<Record<RunnerFamily, readonly string[]>> = {
  'node-test': [`**/*.test.${JS}`, `**/*-test.${JS}`, `**/*_test.${JS}`, `**/test-*.${JS}`, `**/test.${JS}`, `**/test/**/*.${JS}`],
  vitest: [`**/*.{test,spec}.${JS}`, `**/__tests__/**/*.${JS}`],
  jest: [`**/*.{test,spec}.${JS}`, `**/__tests__/**/*.${JS}`],
  pytest: ['**/test_*.py', '**/*_test.py'],
  other: [],
};

/** Anything any runner would take for a test: the Driver writes none of these. */
const ANY_RUNNER = [...new Set(Object.values(TEST_FILE_PATTERNS).flat()), '**/*_test.go', '**/*Test.java', '**/*_spec.rb'];

export const looksLikeTest = (path: string, testGlobs: readonly string[]): boolean =>
  !path.startsWith('node_modules/') && (matchesAny(path, ANY_RUNNER) || matchesAny(path, testGlobs));

/** The test files of a tree for one run: inside the project's test globs, and a test by the family's own rules. */
export function testFilesIn(paths: readonly string[], testGlobs: readonly string[], family: RunnerFamily): string[] {
  const own = TEST_FILE_PATTERNS[family];
  return paths.filter((p) => !/(^|\/)node_modules\//.test(p) && matchesAny(p, testGlobs) && (own.length === 0 || matchesAny(p, own))).sort();
}

// `npm test`: type-check, lint, formatting (Prettier), build, unit tests (vitest), end-to-end tests (Playwright in Chromium).
// Every step runs even after a failure, so one run shows everything that is wrong. The last line is
// the totals over every suite, alone on the line: `N passed, N failed[, N skipped]` (each check —
// typecheck, lint, format, build — counts as one test).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
rmSync(`${results}/unit.json`, { force: true });
rmSync(`${results}/e2e.json`, { force: true });
rmSync(`${results}/unit-files.json`, { force: true });
mkdirSync(results, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function step(name, command, args, env = {}) {
  console.log(`\n── ${name}: ${command} ${args.join(' ')}`);
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return run.status === 0;
}

function check(name, args) {
  const passed = step(name, 'npm', ['run', '--silent', ...args]);
  totals[passed ? 'passed' : 'failed'] += 1;
  lines.push(`${name}: ${passed ? 'ok' : 'FAILED'}`);
}

function suite(name, file, ran, count) {
  if (!existsSync(file)) {
    // The runner died before reporting: that is a failure, never a silent zero.
    totals.failed += 1;
    lines.push(`${name}: no report written (${file}); the runner failed before running tests`);
    return;
  }
  const c = count(JSON.parse(readFileSync(file, 'utf8')));
  totals.passed += c.passed;
  totals.failed += c.failed;
  totals.skipped += c.skipped;
  lines.push(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped${ran ? '' : ' (runner exited non-zero)'}`);
  if (!ran && c.failed === 0) totals.failed += 1;
}

check('typecheck', ['typecheck']);
check('lint', ['lint']);
check('format', ['format:check']);
check('build', ['build']);

const unitRan = step('unit tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${results}/unit.json`,
  '--reporter=./scripts/slowest-files-reporter.mjs',
]);
suite('unit', `${results}/unit.json`, unitRan, (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests,
  skipped: r.numPendingTests + r.numTodoTests,
}));

const e2eRan = step('end-to-end tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_FILE: `${results}/e2e.json`,
});
suite('e2e', `${results}/e2e.json`, e2eRan, (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
  skipped: r.stats.skipped,
}));

// Where the suite's time goes: each file with its hooks (a beforeAll that builds a feature counts).
if (existsSync(`${results}/unit-files.json`)) {
  const files = JSON.parse(readFileSync(`${results}/unit-files.json`, 'utf8'));
  console.log('\n── the ten slowest unit test files');
  for (const f of files.slice(0, 10)) console.log(`${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file} (${f.tests} test${f.tests === 1 ? '' : 's'})`);
}

console.log('\n── summary');
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReport } from './parse-report';
import { ReportParseError, type TestReport } from './report';

const run = promisify(execFile);

const FILES: Record<string, string> = {
  'a.test.mjs': `import test from 'node:test';
import assert from 'node:assert';
test('adds', () => assert.equal(1 + 1, 2));
test('fails', () => assert.equal(1 + 1, 3));
test.skip('skipped', () => {});
test.describe('group', () => { test('inner & <ok>', () => {}); });
`,
  'b.test.mjs': `import test from 'node:test';\nimport { x } from './nope.mjs';\ntest('never', () => x);\n`,
  'c.test.mjs': `import test from 'node:test';\ntest('syntax', () => { ( });\n`,
};

/** node:test's own JUnit and TAP reporters, run for real on files that pass, fail, skip and fail to load. */
describe('reports written by node:test', () => {
  let dir: string;
  const reports: Record<'junit' | 'tap', string> = { junit: '', tap: '' };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'baton-runner-'));
    for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir, name), text);
    await run(
      process.execPath,
      [
        '--test',
        '--test-reporter=junit',
        '--test-reporter-destination=out.xml',
        '--test-reporter=tap',
        '--test-reporter-destination=out.tap',
        ...Object.keys(FILES),
      ],
      { cwd: dir },
    ).catch(() => undefined);
    reports.junit = await readFile(join(dir, 'out.xml'), 'utf8');
    reports.tap = await readFile(join(dir, 'out.tap'), 'utf8');
  }, 30_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  for (const format of ['junit', 'tap'] as const) {
    it(`${format}: passed, failed, skipped, nested and load errors`, () => {
      const report = parseReport(reports[format], format);
      const byName = (name: string) => report.cases.find((c) => c.name === name);
      expect(byName('adds')?.status).toBe('passed');
      expect(byName('fails')?.status).toBe('failed');
      expect(byName('fails')?.message).toContain('2 == 3');
      expect(byName('skipped')?.status).toBe('skipped');
      expect(byName('inner & <ok>')).toMatchObject({ status: 'passed', suite: ['group'] });
      expect(byName('group')).toBeUndefined();
      expect(
        report.cases
          .filter((c) => c.status === 'errored')
          .map((c) => c.name.split('/').pop())
          .sort(),
      ).toEqual(['b.test.mjs', 'c.test.mjs']);
      expect(report.totals).toEqual({ passed: 2, failed: 1, errored: 2, skipped: 1 });
    });
  }
});

describe('JUnit from other runners', () => {
  it('pytest: collection errors are load errors, classname is the suite', () => {
    const xml = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1" failures="1" skipped="0" tests="3">
<testcase classname="tests.test_orders" name="test_total" time="0.012"/>
<testcase classname="tests.test_orders" name="test_refund" time="0.004"><failure message="assert 3 == 4">def test_refund():
&gt;       assert refund() == 4</failure></testcase>
<testcase classname="" name="tests.test_broken" time="0.000"><error message="collection failure"><![CDATA[ImportError: No module named 'shop']]></error></testcase>
</testsuite></testsuites>`;
    const report = parseReport(xml, 'junit');
    expect(report.cases.map((c) => [c.id, c.status])).toEqual([
      ['pytest › tests.test_orders › test_total', 'passed'],
      ['pytest › tests.test_orders › test_refund', 'failed'],
      ['pytest › tests.test_broken', 'errored'],
    ]);
    expect(report.cases[1]!.message).toContain('> ');
    expect(report.cases[2]!.message).toContain("No module named 'shop'");
    expect(report.cases[0]!.durationMs).toBe(12);
  });

  it('a malformed report says where', () => {
    expect(() => parseReport('<testsuites><testcase name="x"></testsuites>', 'junit')).toThrow(/line 1/);
    expect(() => parseReport('<html/>', 'junit')).toThrow(ReportParseError);
  });
});

describe('vitest and jest JSON', () => {
  const json = JSON.stringify({
    numTotalTests: 3,
    testResults: [
      {
        name: '/p/test/orders.test.ts',
        status: 'failed',
        message: '',
        assertionResults: [
          { ancestorTitles: ['orders'], title: 'totals', status: 'passed', duration: 3, failureMessages: [] },
          { ancestorTitles: ['orders'], title: 'refunds', status: 'failed', duration: 5, failureMessages: ['AssertionError: expected 3 to be 4'] },
          { ancestorTitles: [], title: 'later', status: 'todo', failureMessages: [] },
        ],
      },
      { name: '/p/test/broken.test.ts', status: 'failed', message: 'Test suite failed to run\n\nSyntaxError: Unexpected token', assertionResults: [] },
    ],
  });
  for (const format of ['vitest-json', 'jest-json'] as const) {
    it(`${format}: statuses, suites and a file that failed to load`, () => {
      const report: TestReport = parseReport(json, format);
      expect(report.cases.map((c) => [c.id, c.status])).toEqual([
        ['/p/test/orders.test.ts › orders › totals', 'passed'],
        ['/p/test/orders.test.ts › orders › refunds', 'failed'],
        ['/p/test/orders.test.ts › later', 'skipped'],
        ['/p/test/broken.test.ts › (load)', 'errored'],
      ]);
      expect(report.cases[3]!.message).toContain('SyntaxError');
    });
  }
  it('a report that is not JSON says so', () => {
    expect(() => parseReport('{oops', 'vitest-json')).toThrow(/not JSON/);
  });
});

describe('TAP from other producers', () => {
  it('plain TAP with TODO, SKIP and Bail out!', () => {
    const report = parseReport(
      'TAP version 14\n1..4\nok 1 - first\nnot ok 2 second # TODO later\nok 3 - third # SKIP no db\nnot ok 4 - fourth\nBail out! database went away\n',
      'tap',
    );
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([
      ['first', 'passed'],
      ['second', 'skipped'],
      ['third', 'skipped'],
      ['fourth', 'failed'],
      ['Bail out!', 'errored'],
    ]);
  });
  it('text that is not TAP says so', () => {
    expect(() => parseReport('hello\nworld', 'tap')).toThrow(ReportParseError);
  });
});

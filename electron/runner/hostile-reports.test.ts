/**
 * Reports written to break the parsers (found by the fuzz suite, electron/fuzz/): each answers with
 * a report or a ReportParseError, in linear time, and never with a string the ledger cannot hash.
 */
import { describe, expect, it } from 'vitest';
import { jsonHazard } from '../../shared/json-safety';
import { MAX_REPORT_CHARS, parseReport } from './parse-report';
import { ReportParseError, type ReportFormat, type TestReport } from './report';

/** Parses and fails the test when it took longer than `ms` (the old parsers took minutes or hours). */
const quick = (text: string, format: ReportFormat, ms = 1_000): TestReport => {
  const started = performance.now();
  try {
    return parseReport(text, format);
  } finally {
    expect(performance.now() - started).toBeLessThan(ms);
  }
};

const refused = (text: string, format: ReportFormat): string => {
  try {
    parseReport(text, format);
  } catch (error) {
    expect(error).toBeInstanceOf(ReportParseError);
    return (error as Error).message;
  }
  throw new Error('expected a ReportParseError');
};

describe('JUnit XML', () => {
  it('refuses 100,000 nested elements as unreadable instead of overflowing the stack', () => {
    const xml = `<testsuites>${'<testsuite name="s">'.repeat(100_000)}<testcase name="x"/>${'</testsuite>'.repeat(100_000)}</testsuites>`;
    expect(refused(xml, 'junit')).toMatch(/could not be read: malformed XML: elements nested deeper than 512 levels at line 1/);
  });

  it('reads a megabyte-long attribute name without a value in linear time', () => {
    expect(quick(`<testsuites><testcase ${'a'.repeat(1_000_000)} name="x"/></testsuites>`, 'junit').cases.map((c) => c.name)).toEqual(['x']);
  });

  it('keeps attributes as before: quoted either way, spaced around =, unquoted values skipped', () => {
    const report = quick(
      `<testsuite name = 'suite' a=b file="f.ts"><testcase classname="k" name="n &amp; &lt;m&gt;" time='0.5' x="y/>"/></testsuite>`,
      'junit',
    );
    expect(report.cases).toEqual([
      { id: 'f.ts › suite › k › n & <m>', name: 'n & <m>', suite: ['suite', 'k'], file: 'f.ts', status: 'passed', durationMs: 500, message: null },
    ]);
  });

  it('leaves a character reference to half a surrogate pair as written', () => {
    expect(quick('<testsuites><testcase name="a&#xD800;b&#56320;"/></testsuites>', 'junit').cases[0]!.name).toBe('a&#xD800;b&#56320;');
  });
});

describe('TAP', () => {
  it('splits the name from its directive in linear time on a long run of blanks', () => {
    for (const line of [`ok 1 - a${' '.repeat(200_000)}#x`, `ok 1 - a${'\t'.repeat(200_000)}\rx`, `ok 1 - ${' #'.repeat(100_000)}`]) {
      expect(quick(`${line}\n1..1\n`, 'tap').cases).toHaveLength(1);
    }
  });

  it('keeps the old reading of directives', () => {
    const report = quick('ok 1 - pays # SKIP later\nok 2 - a # todo\nok 3 - x#SKIP\nnot ok 4 # skip\nok 5 - b\t# SKIPPED\n', 'tap');
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([
      ['pays', 'skipped'],
      ['a', 'skipped'],
      ['x#SKIP', 'passed'],
      ['# skip', 'failed'],
      ['b\t# SKIPPED', 'passed'],
    ]);
  });

  it('refuses more than 100 subtests open at once instead of slowing down quadratically', () => {
    expect(refused(`${'# Subtest: s\n'.repeat(100_000)}ok 1 - x\n`, 'tap')).toMatch(/more than 100 subtests are open at once \(line 101\)/);
  });
});

describe('vitest and jest JSON', () => {
  it('skips file and assertion entries that are not objects', () => {
    const text = JSON.stringify({ testResults: [null, 1, { name: 'a.ts', assertionResults: [null, 'x', { title: 't', status: 'passed' }] }] });
    expect(quick(text, 'jest-json').cases.map((c) => c.id)).toEqual(['a.ts › t']);
  });

  it('gives no duration for 1e999 and replaces lone surrogates, so the ledger can hash the report', () => {
    const text =
      '{"testResults":[{"name":"\\udc00.ts","assertionResults":[{"title":"\\ud800","ancestorTitles":["s\\ud800"],"status":"failed","duration":1e999,"failureMessages":["\\ud800"]}]}]}';
    const report = quick(text, 'vitest-json');
    expect(report.cases[0]).toMatchObject({ name: '\ufffd', suite: ['s\ufffd'], file: '\ufffd.ts', durationMs: null, message: '\ufffd' });
    expect(jsonHazard(report)).toBeNull();
  });
});

it('refuses a report over the size limit without parsing it', () => {
  expect(refused(' '.repeat(MAX_REPORT_CHARS + 1), 'tap')).toMatch(/over the 67108864-character limit for a report/);
});

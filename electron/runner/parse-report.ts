/**
 * One entry point: the report text and the format `.baton/project.json` names. Whatever the text
 * holds, the answer is a report or a ReportParseError saying the report is unreadable (the run shows
 * it as such): never another exception, never a hang (every parser is linear in its input), and
 * never a string a ledger record could not hash (lone surrogates become U+FFFD, durations are finite).
 */
import { wellFormed } from '../../shared/json-safety';
import { parseJsonReport } from './parse-json-report';
import { parseJunit } from './parse-junit';
import { parseTap } from './parse-tap';
import { makeReport, ReportParseError, type ReportFormat, type TestCaseResult, type TestReport } from './report';

/** Reports larger than this are not parsed: 64 M characters is far beyond any real suite's report. */
export const MAX_REPORT_CHARS = 64 * 1024 * 1024;

const parseAs = (text: string, format: ReportFormat): TestReport => {
  switch (format) {
    case 'junit':
      return parseJunit(text);
    case 'tap':
      return parseTap(text);
    case 'vitest-json':
    case 'jest-json':
      return parseJsonReport(text, format);
  }
};

const clean = (c: TestCaseResult): TestCaseResult => ({
  id: wellFormed(c.id),
  name: wellFormed(c.name),
  suite: c.suite.map(wellFormed),
  file: c.file === null ? null : wellFormed(c.file),
  status: c.status,
  durationMs: c.durationMs !== null && Number.isFinite(c.durationMs) ? c.durationMs : null,
  message: c.message === null ? null : wellFormed(c.message),
});

export function parseReport(text: string, format: ReportFormat): TestReport {
  if (text.length > MAX_REPORT_CHARS) {
    throw new ReportParseError(format, `it is ${text.length} characters long, over the ${MAX_REPORT_CHARS}-character limit for a report`);
  }
  let report: TestReport;
  try {
    report = parseAs(text, format);
  } catch (error) {
    if (error instanceof ReportParseError) throw error;
    // A parser bug or a resource limit (a stack overflow): still an unreadable report, not a crash.
    throw new ReportParseError(format, `unreadable report (${error instanceof Error ? error.message : String(error)})`);
  }
  return makeReport(report.format, report.cases.map(clean));
}

/** One entry point: the report text and the format `.baton/project.json` names. */
import { parseJsonReport } from './parse-json-report';
import { parseJunit } from './parse-junit';
import { parseTap } from './parse-tap';
import type { ReportFormat, TestReport } from './report';

export function parseReport(text: string, format: ReportFormat): TestReport {
  switch (format) {
    case 'junit':
      return parseJunit(text);
    case 'tap':
      return parseTap(text);
    case 'vitest-json':
    case 'jest-json':
      return parseJsonReport(text, format);
  }
}

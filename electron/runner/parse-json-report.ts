/**
 * The JSON report vitest (`--reporter=json`) and jest (`--json`) share: `testResults[]`, one per
 * file, each with `assertionResults[]`. A file that failed with no assertions ran is a load
 * error ("Test suite failed to run", a syntax or import error).
 */
import { caseId, clip, makeReport, ReportParseError, type CaseStatus, type ReportFormat, type TestCaseResult, type TestReport } from './report';

interface Assertion {
  ancestorTitles?: unknown;
  title?: unknown;
  status?: unknown;
  duration?: unknown;
  failureMessages?: unknown;
}
interface FileResult {
  name?: unknown;
  status?: unknown;
  message?: unknown;
  assertionResults?: unknown;
}

export function parseJsonReport(text: string, format: Extract<ReportFormat, 'vitest-json' | 'jest-json'>): TestReport {
  let doc: { testResults?: unknown } | null;
  try {
    doc = JSON.parse(text) as { testResults?: unknown } | null;
  } catch (error) {
    throw new ReportParseError(format, `not JSON (${(error as Error).message})`);
  }
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.testResults)) throw new ReportParseError(format, 'no testResults array');
  const cases: TestCaseResult[] = [];
  for (const raw of doc.testResults as (FileResult | null)[]) {
    // A file entry that is not an object (null, a number) describes no file: skipped, not a crash.
    if (raw === null || typeof raw !== 'object') continue;
    const file = typeof raw.name === 'string' ? raw.name : null;
    const assertions = Array.isArray(raw.assertionResults) ? (raw.assertionResults as (Assertion | null)[]) : [];
    if (assertions.length === 0 && raw.status === 'failed') {
      const name = file ?? '(unknown file)';
      cases.push({
        id: caseId(file, [], '(load)'),
        name,
        suite: [],
        file,
        status: 'errored',
        durationMs: null,
        message: clip(typeof raw.message === 'string' ? raw.message : 'the file failed to load'),
      });
      continue;
    }
    for (const a of assertions) {
      if (a === null || typeof a !== 'object') continue;
      const name = typeof a.title === 'string' ? a.title : '(unnamed)';
      const suite = Array.isArray(a.ancestorTitles) ? a.ancestorTitles.filter((t): t is string => typeof t === 'string') : [];
      const status = statusOf(a.status);
      const messages = Array.isArray(a.failureMessages) ? a.failureMessages.filter((m): m is string => typeof m === 'string') : [];
      cases.push({
        id: caseId(file, suite, name),
        name,
        suite,
        file,
        status,
        durationMs: typeof a.duration === 'number' && Number.isFinite(a.duration) ? a.duration : null,
        message: status === 'failed' ? clip(messages.join('\n')) : null,
      });
    }
  }
  return makeReport(format, cases);
}

function statusOf(status: unknown): CaseStatus {
  if (status === 'passed') return 'passed';
  if (status === 'failed') return 'failed';
  return 'skipped'; // pending, skipped, todo, disabled
}

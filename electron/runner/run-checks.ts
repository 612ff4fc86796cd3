/**
 * What a controlled run's report is checked against (controlled-run.ts): the report file read and
 * parsed into a verdict or an error case, file paths made relative to the run folder, the exit code
 * against the report, and identities reported twice. Pure.
 */
import { parseReport } from './parse-report';
import { makeReport, ReportParseError, type ReportFormat, type TestCaseResult, type TestReport } from './report';

export function readReport(text: string | null, format: ReportFormat, reportPath: string | null): TestReport {
  if (text === null)
    return noReport(
      format,
      `The test command wrote no report at ${reportPath ?? '(no reportPath)'}: the suite did not run. Check testCommand and reportPath in .baton/project.json.`,
    );
  try {
    return parseReport(text, format);
  } catch (error) {
    return noReport(format, error instanceof ReportParseError ? error.message : String(error));
  }
}

export const lastLines = (text: string): string => {
  const tail = text.trim().split('\n').slice(-5).join('\n');
  return tail ? ` Its last output:\n${tail}` : '';
};

export function noReport(format: ReportFormat, message: string): TestReport {
  return makeReport(format, [{ id: '(report)', name: '(report)', suite: [], file: null, status: 'errored', durationMs: null, message }]);
}

/** vitest and jest name files by their absolute path: in the run folder, which is the same every time. */
export function relativeFiles(report: TestReport, dir: string): TestReport {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  const fix = (c: TestCaseResult): TestCaseResult => {
    if (!c.file?.startsWith(prefix)) return c;
    const file = c.file.slice(prefix.length);
    return { ...c, file, id: c.id.startsWith(c.file) ? `${file}${c.id.slice(c.file.length)}` : c.id };
  };
  return makeReport(report.format, report.cases.map(fix));
}

/** Ended by a signal: the process itself (null) or the shell around it (128 + the signal's number). */
export const killedBy = (code: number | null): boolean => code === null || (code > 128 && code <= 128 + 64);

/**
 * The exit code must agree with the report: an honest run with canaries always has a failure (the
 * must-fail canary), so it exits non-zero; a killed runner proves nothing.
 */
export function exitProblems(code: number | null, signal: NodeJS.Signals | null, cases: readonly TestCaseResult[], canaries: boolean): string[] {
  if (killedBy(code))
    return [
      `the runner was killed${signal ? ` (${signal})` : code !== null ? ` (exit ${code}: signal ${code - 128})` : ''} before it finished: its report proves nothing`,
    ];
  const failing = cases.some((c) => c.status === 'failed' || c.status === 'errored');
  if (failing && code === 0) return [`the runner exited 0 although the report holds failures${canaries ? ' (at least the must-fail canary)' : ''}`];
  if (!failing && code !== 0) return [`the runner exited ${code} although the report says every test passed`];
  return [];
}

export function doubled(cases: readonly TestCaseResult[]): string[] {
  const seen = new Map<string, number>();
  for (const c of cases) seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  return twice.length
    ? [
        `the report names ${twice.length === 1 ? 'a test' : `${twice.length} tests`} more than once (${twice.slice(0, 3).join('; ')}): which result is real cannot be told`,
      ]
    : [];
}

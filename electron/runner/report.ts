/**
 * A test run's results, whatever format the project's runner wrote (JUnit XML, TAP, vitest or
 * jest JSON). The orchestrator decides RED and GREEN from this, never from an agent's account.
 */

/**
 * `errored`: the test could not run at all — the file failed to load (syntax, import,
 * collection). A load error is never a RED: the test did not fail for the right reason.
 */
export type CaseStatus = 'passed' | 'failed' | 'errored' | 'skipped';

export interface TestCaseResult {
  /** Stable identity across runs: `<suite path> › <name>` (file when known). */
  readonly id: string;
  readonly name: string;
  /** Enclosing suites or classname, outermost first. */
  readonly suite: readonly string[];
  readonly file: string | null;
  /** The line the test stands on, where the runner says (node:test): how canaries are told apart. */
  readonly line?: number | null;
  readonly status: CaseStatus;
  readonly durationMs: number | null;
  /** The failure or error text (first 4,000 characters), null when it passed or was skipped. */
  readonly message: string | null;
}

export type ReportFormat = 'junit' | 'tap' | 'vitest-json' | 'jest-json';

export interface TestReport {
  readonly format: ReportFormat;
  readonly cases: readonly TestCaseResult[];
  readonly totals: Readonly<Record<CaseStatus, number>>;
}

export class ReportParseError extends Error {
  constructor(
    readonly format: ReportFormat,
    message: string,
  ) {
    super(`The ${format} report could not be read: ${message}. Check the project's reportFormat and reportPath in .baton/project.json.`);
    this.name = 'ReportParseError';
  }
}

const MESSAGE_LIMIT = 4000;

export function clip(text: string | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return trimmed.length > MESSAGE_LIMIT ? `${trimmed.slice(0, MESSAGE_LIMIT)}…` : trimmed;
}

export function caseId(file: string | null, suite: readonly string[], name: string): string {
  return [...(file ? [file] : []), ...suite, name].join(' › ');
}

export function makeReport(format: ReportFormat, cases: TestCaseResult[]): TestReport {
  const totals: Record<CaseStatus, number> = { passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const c of cases) totals[c.status] += 1;
  return { format, cases, totals };
}

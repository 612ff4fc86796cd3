/**
 * The controlled runner: the orchestrator's own test run. Command, report format and report path
 * come from `.baton/project.json` (never from files an agent may edit); the run happens in the
 * cycle's worktree with the DATABASE_URL of a fresh throwaway branch; a stale report is deleted
 * first, so a report the agent left behind can never be read as this run's result; a timeout
 * kills the whole process tree. The tests are agent-written code: where the `sandbox` setting
 * allows they run in bubblewrap, with only the worktree (and so the report) writable.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { openSandbox, type SandboxSetting } from '../agents/sandbox';
import { runCommand } from '../branches/run-command';
import { parseReport } from './parse-report';
import { ReportParseError, type ReportFormat, type TestReport } from './report';

export interface RunRequest {
  readonly worktree: string;
  readonly command: string;
  readonly format: ReportFormat;
  /** Relative to the worktree. */
  readonly reportPath: string;
  /** Added to the environment: DATABASE_URL and friends. */
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** `sandbox` from .baton/project.json; absent: `auto`. `required` without bubblewrap throws before running. */
  readonly sandbox?: SandboxSetting | undefined;
  /** The run's output, a line at a time, as it comes (the live run panel). */
  readonly onOutput?: (text: string) => void;
}

export interface RunResult {
  /** Null when a signal ended the run. */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The raw report, stored as a ledger blob beside stdout and stderr. */
  readonly reportText: string | null;
  /**
   * The parsed report. When the runner wrote none (or an unreadable one) it holds a single
   * `errored` case saying so: a suite that produced no report did not load, and is never RED.
   */
  readonly report: TestReport;
  readonly ms: number;
  /** One line: whether the run was sandboxed (see electron/agents/sandbox.ts). */
  readonly sandbox?: string;
}

export async function runTests(request: RunRequest): Promise<RunResult> {
  const reportFile = join(request.worktree, request.reportPath);
  if (isAbsolute(request.reportPath) || relative(request.worktree, reportFile).startsWith('..')) {
    throw new Error(`reportPath ${request.reportPath} in .baton/project.json must be a path inside the project. Fix the setting and run again.`);
  }
  await rm(reportFile, { force: true });
  // Reporters such as node:test's do not create the report's folder.
  await mkdir(dirname(reportFile), { recursive: true });
  const sandbox = await openSandbox(request.sandbox, [request.worktree]);
  const result = await runCommand(request.command, {
    cwd: request.worktree,
    ...sandbox.spawnOptions(request.worktree, { ...process.env, ...request.env, CI: '1', FORCE_COLOR: '0' }),
    timeoutMs: request.timeoutMs,
    signal: request.signal,
    ...(request.onOutput ? { onOutput: request.onOutput } : {}),
  });
  const reportText = await readFile(reportFile, 'utf8').catch(() => null);
  return { exitCode: result.code, stdout: result.stdout, stderr: result.stderr, reportText, report: readReport(reportText, request), ms: result.ms, sandbox: sandbox.note };
}

function readReport(text: string | null, request: RunRequest): TestReport {
  if (text === null) return noReport(request.format, `The test command wrote no report at ${request.reportPath}: the suite did not run. Check testCommand and reportPath in .baton/project.json.`);
  try {
    return parseReport(text, request.format);
  } catch (error) {
    return noReport(request.format, error instanceof ReportParseError ? error.message : String(error));
  }
}

function noReport(format: ReportFormat, message: string): TestReport {
  return { format, cases: [{ id: '(report)', name: '(report)', suite: [], file: null, status: 'errored', durationMs: null, message }], totals: { passed: 0, failed: 0, errored: 1, skipped: 0 } };
}

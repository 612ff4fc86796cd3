/**
 * Baton's own node:test reporter, written next to each run (outside the tested tree) and loaded with
 * `--test-reporter`: one JSON line per result with the file, the suite path, the name and the
 * status, to a FIFO only the orchestrator reads. A line in that stream is a test the runner itself
 * reported; code under test that writes into it only adds lines, which show as duplicates.
 */
import path from 'node:path';
import { caseId, clip, makeReport, type TestCaseResult, type TestReport } from './report';

/** The module's source (ESM). Kept tiny: it runs in the test process with the code under test. */
export const BATON_NODE_REPORTER = `// Written by Baton for one test run: node:test results as JSON lines.
export default async function* batonReporter(source) {
  const stacks = new Map();
  const stderr = new Map();
  for await (const event of source) {
    const d = event.data ?? {};
    const file = typeof d.file === 'string' ? d.file : '';
    if (event.type === 'test:start') {
      const s = stacks.get(file) ?? [];
      s.length = d.nesting;
      s[d.nesting] = d.name;
      stacks.set(file, s);
      continue;
    }
    if (event.type === 'test:stderr') {
      stderr.set(file, ((stderr.get(file) ?? '') + String(d.message ?? '')).slice(-4000));
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const suite = (stacks.get(file) ?? []).slice(0, d.nesting);
    const kind = d.details && d.details.type === 'suite' ? 'suite' : 'test';
    const status = event.type === 'test:fail' ? 'failed' : d.skip || d.todo ? 'skipped' : 'passed';
    const error = d.details && d.details.error;
    const message = error ? String((error.cause && error.cause.message) || error.message || error) : null;
    const load = event.type === 'test:fail' && d.nesting === 0 && d.name === file;
    const cause = error ? String(error.failureType || '') : '';
    yield JSON.stringify({ file, suite, name: d.name, kind, status, message, cause, load, stderr: load ? stderr.get(file) ?? null : null }) + '\\n';
  }
}
`;

interface Line {
  readonly file: string;
  readonly suite: readonly string[];
  readonly name: string;
  readonly kind: 'test' | 'suite';
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly message: string | null;
  /** node:test's failureType: `subtestsFailed` when a suite failed only because a test in it did. */
  readonly cause?: string;
  readonly load: boolean;
  readonly stderr: string | null;
}

const isLine = (value: unknown): value is Line => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.file === 'string' && Array.isArray(v.suite) && v.suite.every((s) => typeof s === 'string') && typeof v.name === 'string' &&
    (v.kind === 'test' || v.kind === 'suite') && (v.status === 'passed' || v.status === 'failed' || v.status === 'skipped');
};

export interface BatonNodeReport {
  readonly report: TestReport;
  /** Lines that are not the reporter's: something else wrote into the stream. */
  readonly foreign: number;
}

/** Parses the stream; files become paths relative to the run folder, so identities do not depend on where it ran. */
export function parseBatonNode(text: string, runDir: string): BatonNodeReport {
  const cases: TestCaseResult[] = [];
  let foreign = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      foreign += 1;
      continue;
    }
    if (!isLine(value)) {
      foreign += 1;
      continue;
    }
    const file = value.file ? path.relative(runDir, value.file).split(path.sep).join('/') : null;
    if (value.load) {
      const why = [value.message, value.stderr].filter(Boolean).join('\n');
      cases.push({ id: caseId(file, [], '(load)'), name: file ?? '(file)', suite: [], file, status: 'errored', durationMs: null, message: clip(`the file did not load: ${why || 'test failed'}`) });
      continue;
    }
    // A suite reports its own failure only when it failed outside its tests (a hook, its body).
    if (value.kind === 'suite') {
      if (value.status === 'failed' && value.cause !== 'subtestsFailed') cases.push({ id: caseId(file, value.suite, `${value.name} (suite)`), name: value.name, suite: value.suite, file, status: 'errored', durationMs: null, message: clip(value.message) });
      continue;
    }
    cases.push({ id: caseId(file, value.suite, value.name), name: value.name, suite: value.suite, file, status: value.status, durationMs: null, message: value.status === 'failed' ? clip(value.message) : null });
  }
  return { report: makeReport('junit', cases), foreign };
}

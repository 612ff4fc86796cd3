/**
 * Baton's own node:test reporter, written next to each run (outside the tested tree): one JSON line
 * per result with the file, the suite path, the name and the status, to a FIFO only the
 * orchestrator reads. Driven by Baton's driver (baton-run.mjs), every line carries an HMAC under a
 * key only the runner process holds (read from a file it deletes before any test starts), so a
 * line that code under test writes into the stream is foreign even when it is well formed. Loaded
 * with `--test-reporter` (a command Baton cannot rewrite), lines are unsigned: a forged line then
 * shows only as a duplicate.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { wellFormed } from '../../shared/json-safety';
import { caseId, clip, makeReport, type TestCaseResult, type TestReport } from './report';

/** The module's source (ESM). Kept tiny: it runs in the test process with the code under test. */
export const BATON_NODE_REPORTER = `// Written by Baton for one test run: node:test results as JSON lines.
import { createHmac } from 'node:crypto';
import { resolve } from 'node:path';
export default async function* batonReporter(source) {
  yield* lines(source, null);
}
export function signedReporter(key) {
  return async function* signed(source) {
    yield* lines(source, key);
  };
}
async function* lines(source, key) {
  const stacks = new Map();
  const stderr = new Map();
  for await (const event of source) {
    const d = event.data ?? {};
    // Absolute: node names a file relatively in some events (stderr) and absolutely in others.
    const file = typeof d.file === 'string' ? resolve(d.file) : '';
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
    // A file that did not load reports one failure named by its path (as given, or absolute).
    const load = event.type === 'test:fail' && d.nesting === 0 && resolve(d.name) === file;
    const cause = error ? String(error.failureType || '') : '';
    // The line tells Baton's canaries from the project's tests: they share names, not places.
    const at = typeof d.line === 'number' ? d.line : null;
    const line = JSON.stringify({ file, line: at, suite, name: d.name, kind, status, message, cause, load, stderr: load ? stderr.get(file) ?? null : null });
    yield (key ? JSON.stringify({ line, sig: createHmac('sha256', key).update(line).digest('hex') }) : line) + '\\n';
  }
}
`;

/**
 * Baton's driver for node:test, written beside the reporter and run as `node [the project's node
 * options] baton-run.mjs --destination=<fifo> --key-file=<file> [--concurrency=N] [--timeout=MS] -- <files>`. The
 * `node --test` command line sorts its files; `run({ files })` keeps them in the order given, so a
 * second run in the opposite order really is one. Baton's reporter writes to the FIFO, node's
 * `spec` reporter to stdout for the live panel, without Baton's canaries (the key file, JSON
 * `{ key, hide }`, names them) and with the summary counted over the project's tests only; the
 * exit code is 1 when any test failed.
 */
export const BATON_NODE_RUNNER = `// Written by Baton for one test run: runs exactly these files, in this order.
import { createWriteStream, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { signedReporter } from './baton-reporter.mjs';
const args = process.argv.slice(2);
const cut = args.indexOf('--');
const option = (name) => args.slice(0, cut).find((a) => a.startsWith('--' + name + '='))?.slice(name.length + 3);
// The signing key exists only in this process from here on: its file is gone before any test starts.
const keyFile = option('key-file');
const { key, hide } = JSON.parse(readFileSync(keyFile, 'utf8'));
rmSync(keyFile, { force: true });
const files = args.slice(cut + 1);
const concurrency = option('concurrency');
const timeout = option('timeout');
let failed = false;
const stream = run({ files, concurrency: concurrency === undefined ? true : Number(concurrency) || true, ...(timeout ? { timeout: Number(timeout) } : {}) });
stream.on('test:fail', (data) => { if (!data.todo) failed = true; });
stream.on('end', () => { process.exitCode = failed ? 1 : 0; });
stream.compose(signedReporter(key)).pipe(createWriteStream(option('destination')));
// The live panel shows the project's tests only: Baton's canaries and their counts are left out.
// They carry the project's names, so they are known by place: the canary file, or the lines from
// \`from\` on in a test file they were appended to.
const hidden = (d) => typeof d.file === 'string' && hide.some((h) => resolve(d.file) === h.file && (h.from === 1 || (typeof d.line === 'number' && d.line >= h.from)));
const SUMMARY = /^(tests|suites|pass|fail|cancelled|skipped|todo) \\d+$/;
async function* visible(source) {
  const n = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  let summarised = false;
  for await (const event of source) {
    const d = event.data ?? {};
    if (hidden(d)) continue;
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      if (d.details && d.details.type === 'suite') n.suites += 1;
      else {
        n.tests += 1;
        if (d.skip) n.skipped += 1;
        else if (d.todo) n.todo += 1;
        else if (event.type === 'test:pass') n.pass += 1;
        else if (d.details && d.details.error && d.details.error.failureType === 'cancelledByParent') n.cancelled += 1;
        else n.fail += 1;
      }
    }
    if (event.type === 'test:diagnostic' && d.nesting === 0 && SUMMARY.test(String(d.message))) {
      if (!summarised) for (const [k, v] of Object.entries(n)) yield { type: 'test:diagnostic', data: { ...d, message: k + ' ' + v } };
      summarised = true;
      continue;
    }
    yield event;
  }
}
const human = typeof spec === 'function' && spec.prototype && spec.prototype.constructor === spec && !spec.prototype[Symbol.asyncIterator] ? new spec() : spec;
stream.compose(visible).compose(human).pipe(process.stdout);
`;

interface Line {
  readonly file: string;
  /** Where the test stands in its file (node:test reports it): how Baton knows its canaries. */
  readonly line?: number | null;
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
  return (
    typeof v.file === 'string' &&
    Array.isArray(v.suite) &&
    v.suite.every((s) => typeof s === 'string') &&
    typeof v.name === 'string' &&
    (v.kind === 'test' || v.kind === 'suite') &&
    (v.status === 'passed' || v.status === 'failed' || v.status === 'skipped')
  );
};

export interface BatonNodeReport {
  readonly report: TestReport;
  /** Lines that are not the reporter's: something else wrote into the stream. */
  readonly foreign: number;
}

/** The reporter's line inside a signed envelope, or null when the signature is missing or wrong. */
function opened(raw: string, key: string): string | null {
  try {
    const envelope = JSON.parse(raw) as { line?: unknown; sig?: unknown };
    if (typeof envelope.line !== 'string' || typeof envelope.sig !== 'string' || !/^[0-9a-f]{64}$/.test(envelope.sig)) return null;
    const want = createHmac('sha256', key).update(envelope.line).digest();
    return timingSafeEqual(want, Buffer.from(envelope.sig, 'hex')) ? envelope.line : null;
  } catch {
    return null;
  }
}

/**
 * Parses the stream; files become paths relative to the run folder, so identities do not depend on
 * where it ran. With `key`, only lines signed under it count; any other line is foreign.
 */
export function parseBatonNode(text: string, runDir: string, key: string | null = null): BatonNodeReport {
  const cases: TestCaseResult[] = [];
  let foreign = 0;
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue;
    const line = key === null ? raw : opened(raw, key);
    if (line === null) {
      foreign += 1;
      continue;
    }
    let value: unknown;
    try {
      // A test named with a lone surrogate must not reach a record: canonical JSON cannot hash it.
      value = JSON.parse(line, (_key, v: unknown) => (typeof v === 'string' ? wellFormed(v) : v));
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
      cases.push({
        id: caseId(file, [], '(load)'),
        name: file ?? '(file)',
        suite: [],
        file,
        status: 'errored',
        durationMs: null,
        message: clip(`the file did not load: ${why || 'test failed'}`),
      });
      continue;
    }
    // A suite reports its own failure only when it failed outside its tests (a hook, its body).
    if (value.kind === 'suite') {
      if (value.status === 'failed' && value.cause !== 'subtestsFailed')
        cases.push({
          id: caseId(file, value.suite, `${value.name} (suite)`),
          name: value.name,
          suite: value.suite,
          file,
          status: 'errored',
          durationMs: null,
          message: clip(value.message),
        });
      continue;
    }
    cases.push({
      id: caseId(file, value.suite, value.name),
      name: value.name,
      suite: value.suite,
      file,
      line: typeof value.line === 'number' ? value.line : null,
      status: value.status,
      durationMs: null,
      message: value.status === 'failed' ? clip(value.message) : null,
    });
  }
  return { report: makeReport('junit', cases), foreign };
}

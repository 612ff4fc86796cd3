/**
 * JUnit XML (the primary format): `<testsuites>`/`<testsuite>` (nested) with `<testcase>`s whose
 * `<failure>` means failed, `<error>` means the test could not run (pytest's collection and setup
 * errors), `<skipped>` skipped. Node's test runner reports a file that failed to load as a
 * testcase named after the file with the message "test failed": that is a load error too.
 */
import { caseId, clip, makeReport, ReportParseError, type CaseStatus, type TestCaseResult, type TestReport } from './report';
import { parseXml, XmlError, type XmlElement } from './xml';

const TEST_FILE = /\.(?:[cm]?[jt]sx?|py|go|rb|java|kt|cs)$/;

export function parseJunit(xml: string): TestReport {
  let doc: XmlElement;
  try {
    doc = parseXml(xml);
  } catch (error) {
    throw new ReportParseError('junit', error instanceof XmlError ? `malformed XML: ${error.message}` : String(error));
  }
  const top = doc.children.find((c) => c.name === 'testsuites' || c.name === 'testsuite' || c.name === 'testcase');
  if (!top) throw new ReportParseError('junit', 'no <testsuites>, <testsuite> or <testcase> element');
  const cases: TestCaseResult[] = [];
  walk(top, [], null, cases);
  return makeReport('junit', cases);
}

function walk(el: XmlElement, suites: string[], file: string | null, out: TestCaseResult[]): void {
  if (el.name === 'testcase') {
    out.push(toCase(el, suites, file));
    return;
  }
  const here = el.name === 'testsuite' && el.attrs.name ? [...suites, el.attrs.name] : suites;
  const fileHere = el.attrs.file ?? file;
  for (const child of el.children) walk(child, here, fileHere, out);
}

function toCase(el: XmlElement, suites: string[], file: string | null): TestCaseResult {
  const name = el.attrs.name ?? '(unnamed)';
  const classname = el.attrs.classname;
  // node:test writes classname="test" for every case; it names no class, so leave it out.
  const suite = classname && classname !== 'test' && !suites.includes(classname) ? [...suites, classname] : suites;
  const caseFile = el.attrs.file ?? file;
  const failure = el.children.find((c) => c.name === 'failure');
  const error = el.children.find((c) => c.name === 'error');
  const skipped = el.children.find((c) => c.name === 'skipped');
  let status: CaseStatus = 'passed';
  let message: string | null = null;
  if (error) {
    status = 'errored';
    message = clip(joinMessage(error));
  } else if (failure) {
    status = isNodeLoadFailure(name, failure) ? 'errored' : 'failed';
    message = clip(joinMessage(failure));
  } else if (skipped) status = 'skipped';
  const seconds = Number(el.attrs.time);
  return {
    id: caseId(caseFile, suite, name),
    name,
    suite,
    file: caseFile,
    status,
    durationMs: Number.isFinite(seconds) && el.attrs.time !== undefined ? Math.round(seconds * 1000 * 1000) / 1000 : null,
    message,
  };
}

function joinMessage(el: XmlElement): string {
  const head = el.attrs.message ?? '';
  const body = el.text.trim();
  return body && head && !body.includes(head) ? `${head}\n${body}` : body || head;
}

function isNodeLoadFailure(name: string, failure: XmlElement): boolean {
  return (name.includes('/') || name.includes('\\')) && TEST_FILE.test(name) && failure.attrs.message === 'test failed';
}

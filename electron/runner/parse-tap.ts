/**
 * TAP 13/14 (node:test, node-tap, pytest-tap): `ok N - name`, `not ok N - name`, `# SKIP` and
 * `# TODO` directives, YAML diagnostics between `---` and `...`, subtests indented by four
 * spaces. A test line that had subtests is a suite, not a case. `Bail out!` and a file that
 * failed to load (node:test: the file's path as the name, `error: 'test failed'`) are load errors.
 */
import { caseId, clip, makeReport, ReportParseError, type CaseStatus, type TestCaseResult, type TestReport } from './report';

const TEST_LINE = /^(\s*)(ok|not ok)\b\s*(\d+)?\s*(?:-\s*)?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const TEST_FILE = /\.(?:[cm]?[jt]sx?|py)$/;

interface Pending {
  readonly indent: number;
  readonly name: string;
  hadChildren: boolean;
}

export function parseTap(text: string): TestReport {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => TEST_LINE.test(l) || /^\s*1\.\.\d+/.test(l) || /^TAP version/.test(l))) {
    throw new ReportParseError('tap', 'no TAP plan or test lines');
  }
  const cases: TestCaseResult[] = [];
  const open: Pending[] = [];
  let last: { index: number; indent: number } | null = null;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const sub = SUBTEST.exec(line);
    if (sub) {
      const indent = sub[1]!.length;
      for (const p of open) if (p.indent < indent) p.hadChildren = true;
      open.push({ indent, name: sub[2]!.trim(), hadChildren: false });
      continue;
    }
    if (/^\s*Bail out!/i.test(line)) {
      cases.push({ id: 'Bail out!', name: 'Bail out!', suite: [], file: null, status: 'errored', durationMs: null, message: clip(line.trim()) });
      continue;
    }
    const m = TEST_LINE.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    const yaml = readYaml(lines, i + 1, indent);
    i = yaml.next - 1;
    const pendingIndex = findLastIndex(open, (p) => p.indent === indent);
    const pending = pendingIndex >= 0 ? open.splice(pendingIndex)[0] : undefined;
    const isSuite = pending?.hadChildren || yaml.fields.type === "'suite'" || (last !== null && last.indent > indent && pending === undefined);
    for (const p of open) if (p.indent < indent) p.hadChildren = true;
    last = { index: cases.length, indent };
    if (isSuite) continue;
    const name = (m[4] ?? '').trim() || pending?.name || `test ${m[3] ?? cases.length + 1}`;
    const suite = open.filter((p) => p.indent < indent).map((p) => p.name);
    const directive = m[5]?.toUpperCase();
    let status: CaseStatus = m[2]!.toLowerCase() === 'ok' ? 'passed' : 'failed';
    if (directive === 'SKIP' || directive === 'TODO') status = 'skipped';
    const error = unquote(yaml.fields.error);
    if (status === 'failed' && TEST_FILE.test(name) && /[\\/]/.test(name) && error === 'test failed') status = 'errored';
    const ms = Number(yaml.fields.duration_ms);
    cases.push({
      id: caseId(null, suite, name),
      name,
      suite,
      file: null,
      status,
      durationMs: Number.isFinite(ms) && yaml.fields.duration_ms !== undefined ? ms : null,
      message: status === 'failed' || status === 'errored' ? clip(yaml.raw || error || line.trim()) : null,
    });
  }
  return makeReport('tap', cases);
}

/** The YAML block after a test line (one level deeper, `---` to `...`): flat fields and the raw text. */
function readYaml(lines: string[], from: number, indent: number): { fields: Record<string, string>; raw: string; next: number } {
  const fields: Record<string, string> = {};
  if (!/^\s*---\s*$/.test(lines[from] ?? '') || lines[from]!.length - lines[from]!.trimStart().length <= indent) return { fields, raw: '', next: from };
  const body: string[] = [];
  let i = from + 1;
  for (; i < lines.length && !/^\s*\.\.\.\s*$/.test(lines[i]!); i += 1) {
    body.push(lines[i]!.trim() === '' ? '' : lines[i]!.slice(indent + 2));
    const kv = /^\s*([A-Za-z_]+):\s*(.*)$/.exec(lines[i]!);
    if (kv && lines[i]!.length - lines[i]!.trimStart().length === indent + 2) fields[kv[1]!] = kv[2]!;
  }
  return { fields, raw: body.join('\n'), next: i + 1 };
}

function unquote(value: string | undefined): string | undefined {
  return value?.replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
}

function findLastIndex<T>(items: T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i -= 1) if (test(items[i]!)) return i;
  return -1;
}

/**
 * TAP 13/14 (node:test, node-tap, pytest-tap): `ok N - name`, `not ok N - name`, `# SKIP` and
 * `# TODO` directives, YAML diagnostics between `---` and `...`, subtests indented by four
 * spaces. A test line that had subtests is a suite, not a case. `Bail out!` and a file that
 * failed to load (node:test: the file's path as the name, `error: 'test failed'`) are load errors.
 */
import { caseId, clip, makeReport, ReportParseError, type CaseStatus, type TestCaseResult, type TestReport } from './report';

/**
 * `ok 3 - name # SKIP why`: indent, verdict, number, then the rest. The directive is found by
 * testLine rather than by a lazy `(.*?)(?:\s+#…)?$` here, which backtracked quadratically on a long
 * run of spaces (a 100 kB line took minutes). `[^]*` (not `.*`): a stray CR or U+2028 in the name
 * must not make the optional groups before it backtrack either.
 */
const TEST_HEAD = /^(\s*)(ok|not ok)\b[ \t]*(\d+)?[ \t]*(?:-[ \t]*)?([^]*)$/i;
const DIRECTIVE = /#[ \t]*(SKIP|TODO)\b/gi;

interface TestLine {
  readonly indent: string;
  readonly verdict: string;
  readonly number: string | undefined;
  readonly name: string;
  readonly directive: string | undefined;
}

/** A test line's parts, or null. The directive is the first `# SKIP`/`# TODO` after whitespace; the name ends before that whitespace. */
function testLine(line: string): TestLine | null {
  const m = TEST_HEAD.exec(line);
  if (!m) return null;
  const from = line.length - m[4]!.length;
  const head = { indent: m[1]!, verdict: m[2]!, number: m[3] };
  DIRECTIVE.lastIndex = from;
  for (let d = DIRECTIVE.exec(line); d !== null; d = DIRECTIVE.exec(line)) {
    let start = d.index;
    while (start > from && /\s/.test(line[start - 1]!)) start -= 1;
    if (start < d.index) return { ...head, name: line.slice(from, start), directive: d[1] };
  }
  return { ...head, name: line.slice(from), directive: undefined };
}

/** Subtests open at once (nested, or never closed); real output nests a few levels. More is not a report. */
const MAX_OPEN_SUBTESTS = 100;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;
const TEST_FILE = /\.(?:[cm]?[jt]sx?|py)$/;

interface Pending {
  readonly indent: number;
  readonly name: string;
  hadChildren: boolean;
}

export function parseTap(text: string): TestReport {
  const lines = text.split(/\r?\n/);
  if (!lines.some((l) => testLine(l) !== null || /^\s*1\.\.\d+/.test(l) || /^TAP version/.test(l))) {
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
      if (open.length >= MAX_OPEN_SUBTESTS) throw new ReportParseError('tap', `more than ${MAX_OPEN_SUBTESTS} subtests are open at once (line ${i + 1})`);
      open.push({ indent, name: sub[2]!.trim(), hadChildren: false });
      continue;
    }
    if (/^\s*Bail out!/i.test(line)) {
      cases.push({ id: 'Bail out!', name: 'Bail out!', suite: [], file: null, status: 'errored', durationMs: null, message: clip(line.trim()) });
      continue;
    }
    const m = testLine(line);
    if (!m) continue;
    const indent = m.indent.length;
    const yaml = readYaml(lines, i + 1, indent);
    i = yaml.next - 1;
    const pendingIndex = findLastIndex(open, (p) => p.indent === indent);
    const pending = pendingIndex >= 0 ? open.splice(pendingIndex)[0] : undefined;
    const isSuite = pending?.hadChildren || yaml.fields.type === "'suite'" || (last !== null && last.indent > indent && pending === undefined);
    for (const p of open) if (p.indent < indent) p.hadChildren = true;
    last = { index: cases.length, indent };
    if (isSuite) continue;
    const name = m.name.trim() || pending?.name || `test ${m.number ?? cases.length + 1}`;
    const suite = open.filter((p) => p.indent < indent).map((p) => p.name);
    const directive = m.directive?.toUpperCase();
    let status: CaseStatus = m.verdict.toLowerCase() === 'ok' ? 'passed' : 'failed';
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

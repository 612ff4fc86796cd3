/**
 * "Looks like test detection": code that behaves differently under the test runner is how an agent
 * makes a test pass without doing the work. The lines a Driver adds are scanned for the usual
 * tells (NODE_ENV, argv, *TEST* variables, stack inspection, the runner's and the assertion
 * library's names, writes to test files). A hit never fails a cycle by itself: it is recorded with
 * the verdict and put in front of the Navigator's review, so it is never silently accepted. Pure.
 */

/** A variable a test runner sets: NODE_ENV aside, a name with TEST or CI as a word, or a runner's name. */
const RUNNER_VAR = String.raw`(?:\w*_)?(?:TEST|CI)(?:_\w*)?|\w*(?:JEST|VITEST|MOCHA)\w*`;

const TELLS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bNODE_ENV\b/, 'reads NODE_ENV'],
  [new RegExp(String.raw`process\.env\.(?:${RUNNER_VAR})\b`), 'reads a test-runner environment variable'],
  [new RegExp(String.raw`process\.env\[\s*['"\`](?:${RUNNER_VAR})['"\`]\s*\]`), 'reads a test-runner environment variable'],
  [new RegExp(String.raw`\{[^}]*\b(?:${RUNNER_VAR})\b[^}]*\}\s*=\s*process\.env\b`), 'reads a test-runner environment variable'],
  [/=\s*process\.env\s*;|\bObject\.(?:keys|entries)\(\s*process\.env\s*\)/, 'reads the whole environment'],
  [/process\.(?:argv|execArgv)\b/, 'reads the command line'],
  [
    /\bnew Error\(\)\.stack\b|Error\.captureStackTrace|Error\.prepareStackTrace|\.stack\b[^\n]*['"`/][^'"`/]*(?:test|spec)[^'"`/]*['"`/]/,
    'inspects the call stack',
  ],
  [/require\.main\b|process\.mainModule\b/, 'asks which module is running'],
  [
    /typeof\s+(?:jest|vi|describe|it|expect|test)\s*[!=]==?|import\.meta\.vitest|__vitest_worker__|__VITEST\w*|\bglobalThis\.(?:jest|vi|expect)\b/,
    'checks for the test runner',
  ],
  [/['"`](?:node:test|vitest|jest|@jest\/globals|mocha|tap|ava)['"`]/, "names the test runner's module"],
  [/['"`]node:assert(?:\/strict)?['"`]|\bassert\.\w+\s*=(?!=)|expect\.extend\s*\(/, 'touches the assertion library'],
  [/\.(?:test|spec)\.[cm]?[jt]sx?\b|\/test\/|__tests__/, 'refers to test files'],
  [/\bBATON_\w+|baton_migrations\b/, "refers to Baton's own names"],
];

export interface Tell {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

/** The lines of `after` that `before` did not have (by content, each line counted once). */
export function addedLines(before: string | null, after: string): Array<{ line: number; text: string }> {
  const old = new Map<string, number>();
  for (const l of (before ?? '').split('\n')) old.set(l, (old.get(l) ?? 0) + 1);
  const out: Array<{ line: number; text: string }> = [];
  after.split('\n').forEach((text, i) => {
    const left = old.get(text) ?? 0;
    if (left > 0) old.set(text, left - 1);
    else out.push({ line: i + 1, text });
  });
  return out;
}

/** The tells in what a Driver added to one file. */
export function tellsIn(file: string, before: string | null, after: string): Tell[] {
  const out: Tell[] = [];
  for (const { line, text } of addedLines(before, after)) {
    const hit = TELLS.find(([re]) => re.test(text));
    if (hit) out.push({ file, line, text: text.trim().slice(0, 200), why: hit[1] });
  }
  return out;
}

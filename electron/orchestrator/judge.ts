/**
 * The verdicts, decided from the runner's parsed reports only (never from an agent's account).
 * Pure; the report shape is declared here as a port so the orchestrator imports no runner code.
 */
import type { NotRed } from './cycle-types';

export interface JudgedCase {
  readonly id: string;
  readonly status: 'passed' | 'failed' | 'errored' | 'skipped';
  readonly message: string | null;
}
export interface JudgedReport {
  readonly cases: readonly JudgedCase[];
}

export type RedJudgement = { readonly verdict: 'red'; readonly failing: string[] } | { readonly verdict: NotRed; readonly detail: string };

/**
 * RED: the turn added tests and at least one of them fails; nothing that passed before fails now;
 * the suite loaded. `baseline` is the last accepted run (empty before the first item).
 */
export function judgeRed(baseline: JudgedReport, after: JudgedReport, testFilesChanged: number): RedJudgement {
  const loadErrors = after.cases.filter((c) => c.status === 'errored');
  if (loadErrors.length)
    return { verdict: 'load-error', detail: `${loadErrors.map((c) => c.id).join(', ')} did not load: ${firstLine(loadErrors[0]!.message)}` };
  const before = new Map(baseline.cases.map((c) => [c.id, c.status]));
  const now = new Map(after.cases.map((c) => [c.id, c]));
  const regressed = [...before].filter(([id, status]) => status === 'passed' && now.get(id)?.status !== 'passed').map(([id]) => id);
  if (regressed.length) return { verdict: 'regressed', detail: `passed before, not now: ${regressed.join(', ')}` };
  const added = after.cases.filter((c) => !before.has(c.id));
  const failing = added.filter((c) => c.status === 'failed').map((c) => c.id);
  if (failing.length) return { verdict: 'red', failing };
  if (added.length) return { verdict: 'passed-at-once', detail: `${added.map((c) => c.id).join(', ')} passed before any code was written` };
  return { verdict: 'no-test', detail: testFilesChanged ? 'test files changed but no new test ran' : 'the Navigator wrote no test' };
}

export type GreenJudgement = { readonly verdict: 'green' } | { readonly verdict: 'failing'; readonly failure: string };

/** GREEN: every test passes, and every test that was locked at RED ran and passed (none skipped or gone). */
export function judgeGreen(locked: JudgedReport, after: JudgedReport): GreenJudgement {
  const now = new Map(after.cases.map((c) => [c.id, c]));
  const problems: string[] = [];
  for (const c of after.cases) if (c.status === 'failed' || c.status === 'errored') problems.push(`✗ ${c.id}\n${indent(c.message ?? c.status)}`);
  for (const c of locked.cases) {
    const n = now.get(c.id);
    if (!n) problems.push(`✗ ${c.id}\n  did not run (locked at RED)`);
    else if (n.status === 'skipped') problems.push(`✗ ${c.id}\n  was skipped (locked at RED)`);
  }
  if (after.cases.length === 0) problems.push('no test ran');
  return problems.length ? { verdict: 'failing', failure: problems.join('\n') } : { verdict: 'green' };
}

function firstLine(text: string | null): string {
  return (
    (text ?? '')
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? 'no message'
  );
}

function indent(text: string): string {
  return text
    .split('\n')
    .slice(0, 20)
    .map((l) => `  ${l}`)
    .join('\n');
}

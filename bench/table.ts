// The pure part of `npm run bench` (bench/all.mjs): reading the summary lines each benchmark appends
// (bench/summary.mjs) and printing every benchmark's figures as one table.

/** One headline figure, as a benchmark appends it. */
export interface SummaryRow {
  bench: string;
  figure: string;
  value: number | string | null;
  unit: string;
  goal: string | null;
  met: boolean | null;
}

/** One benchmark of the run: what it wrote, or why it did not run or failed. */
export interface BenchOutcome {
  bench: string;
  status: 'ran' | 'skipped' | 'failed';
  /** Its exit code (null when it did not run, or was killed by a signal). */
  code: number | null;
  /** Why it was skipped, or how it failed (a signal, a line it wrote that is no summary row). */
  reason?: string;
  rows: SummaryRow[];
  /** The 1-minute load average when it ended. */
  load: number | null;
  ms: number;
}

const isRow = (v: unknown): v is SummaryRow => {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.bench === 'string' &&
    typeof r.figure === 'string' &&
    (typeof r.value === 'number' || typeof r.value === 'string' || r.value === null) &&
    typeof r.unit === 'string' &&
    (typeof r.goal === 'string' || r.goal === null) &&
    (typeof r.met === 'boolean' || r.met === null)
  );
};

/**
 * The rows in a summary file's text, one JSON line each. A line that is not JSON, or not a row,
 * becomes a row that says so (figure "unreadable summary line N", the line in `value`), so the table
 * shows it instead of dropping it.
 */
export function parseSummary(text: string, bench: string): SummaryRow[] {
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const bad = (why: string): SummaryRow[] => [
      {
        bench,
        figure: `unreadable summary line ${i + 1} (${why})`,
        value: line.length > 60 ? `${line.slice(0, 57)}...` : line,
        unit: '',
        goal: null,
        met: null,
      },
    ];
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return bad('not JSON');
    }
    return isRow(parsed) ? [parsed] : bad('not a {bench, figure, value, unit, goal, met} row');
  });
}

/** A value with its unit: numbers to at most 3 significant decimals, "×" and "%" written close. */
export function formatValue(value: SummaryRow['value'], unit: string): string {
  if (value === null) return '—';
  const shown = typeof value === 'number' ? String(Math.round(value * 1000) / 1000) : value;
  if (!unit) return shown;
  return unit === '×' || unit === '%' ? `${shown}${unit}` : `${shown} ${unit}`;
}

const mark = (met: boolean | null): string => (met === true ? '✓' : met === false ? '✗' : '—');

/** The table's lines: one row per figure, one per benchmark skipped or failed, then the total time. */
export function formatTable(outcomes: BenchOutcome[], totalMs: number): string {
  const header = ['bench', 'figure', 'value', 'goal', 'met', 'load'];
  const body: string[][] = [];
  for (const o of outcomes) {
    const load = o.load === null ? '' : o.load.toFixed(2);
    if (o.status === 'skipped') {
      body.push([o.bench, `skipped: ${o.reason ?? 'no reason given'}`, '', '', '—', '']);
      continue;
    }
    if (o.status === 'failed' || o.rows.length === 0) {
      const why = o.reason ?? (o.code === 0 ? 'wrote no summary row' : `exited ${o.code}`);
      body.push([o.bench, `FAILED: ${why}`, '', '', '✗', load]);
    }
    o.rows.forEach((r, i) =>
      body.push([o.bench, r.figure, formatValue(r.value, r.unit), r.goal ?? '—', mark(r.met), i === 0 && o.status === 'ran' ? load : '']),
    );
  }
  const width = header.map((h, c) => Math.max(h.length, ...body.map((row) => [...row[c]!].length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, c) => cell + ' '.repeat(width[c]! - [...cell].length))
      .join('  ')
      .trimEnd();
  return [line(header), line(width.map((w) => '-'.repeat(w))), ...body.map(line), '', `total wall time: ${(totalMs / 1000).toFixed(1)} s`].join('\n');
}

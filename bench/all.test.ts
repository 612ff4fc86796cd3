import { describe, expect, it } from 'vitest';
import { type BenchOutcome, formatTable, formatValue, parseSummary } from './table';

const row = { bench: 'testrun', figure: 'Baton run ÷ direct', value: 2.51, unit: '×', goal: '≤ 1.5', met: false };
const ran = (bench: string, rows: BenchOutcome['rows'], load = 1.234): BenchOutcome => ({ bench, status: 'ran', code: 0, rows, load, ms: 10 });

describe('parseSummary', () => {
  it('reads one row per JSON line and ignores blank lines', () => {
    const other = { ...row, figure: 'pair of runs ÷ direct', goal: null, met: null };
    expect(parseSummary(`${JSON.stringify(row)}\n\n${JSON.stringify(other)}\n`, 'testrun')).toEqual([row, other]);
  });

  it('turns a line that is not JSON into a row that says so', () => {
    const [bad] = parseSummary('{"bench": "testrun", oops', 'testrun');
    expect(bad).toEqual({
      bench: 'testrun',
      figure: 'unreadable summary line 1 (not JSON)',
      value: '{"bench": "testrun", oops',
      unit: '',
      goal: null,
      met: null,
    });
  });

  it('turns JSON that is not a summary row into a row that says so, keeping the good ones', () => {
    const rows = parseSummary(`${JSON.stringify(row)}\n${JSON.stringify({ bench: 'testrun', value: 3 })}`, 'testrun');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(row);
    expect(rows[1]!.figure).toBe('unreadable summary line 2 (not a {bench, figure, value, unit, goal, met} row)');
    expect(rows[1]!.met).toBeNull();
  });
});

describe('formatValue', () => {
  it('writes × and % close to the number, other units after a space, and — for no value', () => {
    expect(formatValue(2.51, '×')).toBe('2.51×');
    expect(formatValue(3.2, '%')).toBe('3.2%');
    expect(formatValue(0.1234567, 's')).toBe('0.123 s');
    expect(formatValue(42, '')).toBe('42');
    expect(formatValue(null, 'ms')).toBe('—');
  });
});

describe('formatTable', () => {
  it('prints one aligned row per figure, with the mark, the goal and the load once per benchmark', () => {
    const table = formatTable(
      [
        ran('testrun', [row, { ...row, figure: 'pair', value: 5, goal: null, met: null }]),
        ran('ledger', [{ ...row, bench: 'ledger', figure: 'verify', value: 0.4, unit: 's', goal: '< 1 s', met: true }], 0.5),
      ],
      61_000,
    );
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^bench\s+figure\s+value\s+goal\s+met\s+load$/);
    expect(lines[2]).toMatch(/^testrun\s+Baton run ÷ direct\s+2\.51×\s+≤ 1\.5\s+✗\s+1\.23$/);
    expect(lines[3]).toMatch(/^testrun\s+pair\s+5×\s+—\s+—$/);
    expect(lines[4]).toMatch(/^ledger\s+verify\s+0\.4 s\s+< 1 s\s+✓\s+0\.50$/);
    expect(lines.at(-1)).toBe('total wall time: 61.0 s');
    // Columns line up: every "value" cell starts where the header's does.
    const at = lines[0]!.indexOf('value');
    expect([...lines[2]!].slice(at).join('')).toMatch(/^2\.51×/);
  });

  it('lists a skipped benchmark with its reason and a failed one with its exit code', () => {
    const table = formatTable(
      [
        { bench: 'board', status: 'skipped', code: null, reason: 'needs Chromium', rows: [], load: null, ms: 0 },
        { bench: 'cycle', status: 'failed', code: 3, rows: [], load: 2, ms: 5 },
        { bench: 'eval', status: 'failed', code: 0, rows: [], load: 2, ms: 5 },
        { bench: 'mutation', status: 'failed', code: null, reason: 'killed by SIGKILL', rows: [], load: 2, ms: 5 },
      ],
      0,
    );
    expect(table).toMatch(/^board\s+skipped: needs Chromium\s+—$/m);
    expect(table).toMatch(/^cycle\s+FAILED: exited 3\s+✗\s+2\.00$/m);
    expect(table).toMatch(/^eval\s+FAILED: wrote no summary row\s+✗\s+2\.00$/m);
    expect(table).toMatch(/^mutation\s+FAILED: killed by SIGKILL\s+✗\s+2\.00$/m);
  });
});

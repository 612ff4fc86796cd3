/** The record catalogue: every type's schema, the narrowing readers use, and the one-spelling rule. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from './ledger';
import { RECORD_DATA, RECORD_TYPES, recordDataProblem, recordOf, recordsOf } from './records';
import { SAMPLE_DATA, sampleData } from './records.fixture';

const at = (type: string, data: Record<string, unknown>, seq = 1): LedgerRecord => ({
  seq,
  at: '2026-01-01T00:00:00.000Z',
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: {},
  data,
  blobs: [],
  prev: '0'.repeat(64),
  hash: '1'.repeat(64),
});

describe('the record catalogue', () => {
  it('has a schema for every type, and a well-formed sample of each passes it', () => {
    expect(Object.keys(RECORD_DATA).sort()).toEqual(Object.values(RECORD_TYPES).sort());
    for (const [type, data] of Object.entries(SAMPLE_DATA)) expect([type, recordDataProblem({ type, data })]).toEqual([type, null]);
  });

  it('names the field a malformed record gets wrong', () => {
    expect(recordDataProblem({ type: 'cycle.red', data: sampleData('cycle.red', { verdict: 'green' as never }) })).toMatch(/^data\.verdict /);
    expect(recordDataProblem({ type: 'gate.approved', data: sampleData('gate.approved', { artifacts: {} }) })).toMatch(/^data\.artifacts names no artifact/);
    expect(recordDataProblem({ type: 'cycle.locked', data: { key: 'lock' } })).toMatch(/data\.files/);
    expect(recordDataProblem({ type: 'escalation.decided', data: 'retry' })).toMatch(/^data /);
  });

  it('leaves a type it does not catalogue alone (a Consort project’s, a newer Baton’s)', () => {
    expect(recordDataProblem({ type: 'consort.gate', data: { whatever: 1 } })).toBeNull();
    expect(recordOf(at('consort.gate', {}), RECORD_TYPES.cycleRed)).toBeNull();
  });

  it('lets extra fields through: a field a newer Baton adds does not make a record malformed', () => {
    expect(recordDataProblem({ type: 'item.status', data: { ...sampleData('item.status'), by: 'a newer Baton' } })).toBeNull();
  });

  it('narrows only well-formed records of the asked type', () => {
    const good = at('item.status', sampleData('item.status', { status: 'red' }), 1);
    const bad = at('item.status', { key: 'k', item: 'T1', status: 'purple' }, 2);
    const other = at('cycle.planned', sampleData('cycle.planned'), 3);
    expect(recordOf(good, RECORD_TYPES.itemStatus)?.data.status).toBe('red');
    expect(recordOf(bad, RECORD_TYPES.itemStatus)).toBeNull();
    expect(recordOf(other, RECORD_TYPES.itemStatus)).toBeNull();
    expect(recordsOf([good, bad, other], RECORD_TYPES.itemStatus).map((r) => r.seq)).toEqual([1]);
  });
});

describe('one spelling of each record type', () => {
  const sources = execFileSync('git', ['ls-files', 'electron', 'shared', 'renderer', 'bench', 'scripts', 'bin'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|tsx|mjs|js)$/.test(f) && !/\.(test|fixture)\.tsx?$/.test(f) && f !== 'shared/records.ts' && f !== 'shared/record-types.ts');
  const code = (file: string) =>
    readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .map((line) => line.replace(/\/\/.*$/, ''));

  it('no source file outside shared/record-types.ts (the table) and shared/records.ts spells a record type (event kinds that share a name are events)', () => {
    const spelled: string[] = [];
    const types = Object.values(RECORD_TYPES);
    for (const file of sources)
      code(file).forEach((line, i) => {
        for (const type of types)
          if ((line.includes(`'${type}'`) || line.includes(`"${type}"`)) && !/\bkind\b|\bcase\b/.test(line)) spelled.push(`${file}:${i + 1}: ${type}`);
      });
    expect(spelled).toEqual([]);
  });

  it('no source file casts a record’s data', () => {
    const casts: string[] = [];
    for (const file of sources)
      code(file).forEach((line, i) => {
        if (/\bdata(\.\w+|\[[^\]]+\])*\)?\s+as\s/.test(line)) casts.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    expect(casts).toEqual([]);
  });
});

/**
 * Verdicts from unsandboxed test runs are marked (issue 31): an item whose RED, GREEN or refactor
 * run says "running unsandboxed" (bubblewrap missing, or `"sandbox": "off"`) lists those runs in its
 * proof, so the Inbox can mark it; a sandboxed run, or a record from before runs said which they
 * were, marks nothing; a foreign project's items are "not recorded", never "sandboxed".
 */
import { describe, expect, it } from 'vitest';
import type { LedgerRecord } from '../../shared/ledger';
import type { Feature, TestItem } from '../../shared/model';
import { RECORD_TYPES } from '../../shared/records';
import { sampleData } from '../../shared/records.fixture';
import { tmpdir } from 'node:os';
import { openSandbox } from '../process/sandbox';
import { evidenceSummary } from './proof';

const record = (seq: number, type: string, item: string, data: object): LedgerRecord => ({
  seq,
  at: '2026-01-01T00:00:00.000Z',
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: { feature: 'F-1', story: 'S-1', item, cycle: `F-1/${item}` },
  data: data as Record<string, unknown>,
  blobs: [],
  prev: '0'.repeat(64),
  hash: String(seq).padStart(64, '0'),
});

const item = (id: string): TestItem => ({
  id,
  description: `item ${id}`,
  acId: 'AC-1',
  storyId: 'S-1',
  status: 'pending',
  kind: 'behavior',
  scenarioFile: null,
  invariantId: null,
});

const feature = {
  id: 'F-1',
  name: 'F',
  description: '',
  stories: [{ id: 'S-1', acs: [{ id: 'AC-1', title: 'works' }] }],
  testList: [item('T1'), item('T2'), item('T3')],
  gates: [],
  cycles: 0,
  cycleRuns: [],
  escalations: [],
  amendments: [],
  lockedTests: [],
  runBlock: null,
} as unknown as Feature;

const SANDBOXED = '[sandbox] bubblewrap: only the run folder is writable; nothing of the machine but its runtime is readable; no network';
// The note the sandbox itself writes when it is off, as the run records it.
const OFF = (await openSandbox('off', [tmpdir()])).note;
const MISSING = '[sandbox] not available (bwrap is not installed): running unsandboxed: your files are readable';

describe('verdicts from unsandboxed runs', () => {
  const records = [
    // T1: both runs sandboxed.
    record(1, RECORD_TYPES.cycleRed, 'T1', sampleData(RECORD_TYPES.cycleRed, { runnerSandbox: SANDBOXED } as object)),
    record(2, RECORD_TYPES.cycleGreen, 'T1', sampleData(RECORD_TYPES.cycleGreen, { runnerSandbox: SANDBOXED } as object)),
    // T2: RED ran with the sandbox off, GREEN where bubblewrap was missing.
    record(3, RECORD_TYPES.cycleRed, 'T2', sampleData(RECORD_TYPES.cycleRed, { runnerSandbox: OFF } as object)),
    record(4, RECORD_TYPES.cycleGreen, 'T2', sampleData(RECORD_TYPES.cycleGreen, { runnerSandbox: MISSING } as object)),
    // T3: a record from before runs said (no runnerSandbox).
    record(5, RECORD_TYPES.cycleGreen, 'T3', sampleData(RECORD_TYPES.cycleGreen)),
  ];

  it('lists each unsandboxed run of an item, oldest first, and nothing for sandboxed or unstated runs', () => {
    const summary = evidenceSummary(feature, records);
    const of = (id: string) => summary.items.find((i) => i.id === id)?.unsandboxedRuns?.map((r) => r.seq);
    expect(of('T1')).toEqual([]);
    expect(of('T2')).toEqual([3, 4]);
    expect(of('T3')).toEqual([]);
  });

  it('a foreign project’s items are not recorded either way', () => {
    expect(evidenceSummary(feature, null).items.map((i) => i.unsandboxedRuns)).toEqual([null, null, null]);
  });
});

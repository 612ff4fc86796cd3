import { describe, expect, it } from 'vitest';
import { withSample } from '../../shared/records.fixture';
import { GENESIS_HASH, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES } from '../../shared/records';
import { greenAttestations, STATEMENT_TYPE, TEST_RESULT_PREDICATE } from './attestations';
import { sha256Hex } from './hashing';

const COMMIT = 'd20ace7968ba43c0219f62d71334c1095bab1602';

const record = (seq: number, type: string, data: Record<string, unknown>): LedgerRecord => ({
  seq,
  at: `2025-01-01T00:00:0${seq}.000Z`,
  type,
  actor: { kind: 'orchestrator', id: 'baton' },
  subject: { feature: 'F-1', item: 'T2' },
  data: withSample(type, data),
  blobs: [],
  prev: GENESIS_HASH,
  hash: String(seq).repeat(64),
});

describe('greenAttestations', () => {
  it('makes one test-result Statement v1 per cycle.greened record, subject = the commit', () => {
    const records = [
      record(1, 'gate.approved', { commit: COMMIT }),
      record(2, RECORD_TYPES.cycleGreened, { commit: COMMIT, command: 'npm test', passedTests: ['T1', 'T2'], repo: 'github.com/shop/app' }),
      record(3, RECORD_TYPES.cycleGreened, { commit: COMMIT.toUpperCase() }),
    ];
    const [first, second, ...rest] = greenAttestations(records);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      _type: STATEMENT_TYPE,
      subject: [{ name: 'github.com/shop/app', digest: { gitCommit: COMMIT } }],
      predicateType: TEST_RESULT_PREDICATE,
      predicate: {
        result: 'PASSED',
        configuration: [
          { name: 'test command', digest: { sha256: sha256Hex('npm test') }, annotations: { command: 'npm test' } },
          {
            name: 'baton ledger record',
            uri: 'baton:ledger/events.jsonl#seq=2',
            digest: { sha256: '2'.repeat(64) },
            annotations: { seq: 2, type: 'cycle.greened', at: '2025-01-01T00:00:02.000Z', prev: GENESIS_HASH, feature: 'F-1', item: 'T2' },
          },
        ],
        passedTests: ['T1', 'T2'],
        warnedTests: [],
        failedTests: [],
      },
    });
    expect(second).toMatchObject({ subject: [{ name: 'git', digest: { gitCommit: COMMIT } }], predicate: { passedTests: [] } });
  });

  it('skips a green record without a full commit hash: a statement needs a subject', () => {
    expect(greenAttestations([record(1, RECORD_TYPES.cycleGreened, { commit: '' }), record(2, RECORD_TYPES.cycleGreened, { commit: 'd20ace7' })])).toEqual([]);
  });

  it('makes none for a malformed cycle.greened record (its schema is not met): verify reports it instead', () => {
    expect(greenAttestations([record(1, RECORD_TYPES.cycleGreened, { passedTests: ['T1', 3] })])).toEqual([]);
    expect(greenAttestations([record(1, RECORD_TYPES.cycleGreened, { passedTests: ['T1'] })])).toHaveLength(1);
  });
});

/**
 * One in-toto Statement v1 per GREEN verdict, using the test-result predicate
 * (https://github.com/in-toto/attestation/blob/main/spec/predicates/test-result.md, v0.1): the
 * subject is the commit the orchestrator made; `configuration` is a list of ResourceDescriptors —
 * the test command, and the ledger record that holds the verdict (its seq, hash and prev), so a
 * reviewer can tie the statement to the chain. `url` is optional in the spec and left out: there is
 * no hosted run to point at.
 *
 * The statements are unsigned: they are evidence to cross-check against the ledger, not DSSE
 * envelopes. A `cycle.greened` record without a commit has no subject, so it gets no statement.
 */
import { type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordsOf, type TypedRecord } from '../../shared/records';
import { sha256Hex } from './hashing';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const TEST_RESULT_PREDICATE = 'https://in-toto.io/attestation/test-result/v0.1';

const GIT_COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface GreenAttestation {
  readonly seq: number;
  readonly statement: Record<string, unknown>;
}

const statementOf = (record: TypedRecord<typeof RECORD_TYPES.cycleGreened>): Record<string, unknown> | null => {
  const { data } = record;
  const commit = data.commit.toLowerCase();
  if (!GIT_COMMIT.test(commit)) return null;
  const command = data.command ?? null;
  return {
    _type: STATEMENT_TYPE,
    subject: [{ name: data.repo || 'git', digest: { gitCommit: commit } }],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result: 'PASSED',
      configuration: [
        command === null
          ? { name: 'test command', annotations: { command: 'not recorded' } }
          : { name: 'test command', digest: { sha256: sha256Hex(command) }, annotations: { command } },
        {
          name: 'baton ledger record',
          uri: `baton:ledger/events.jsonl#seq=${record.seq}`,
          digest: { sha256: record.hash },
          annotations: { seq: record.seq, type: record.type, at: record.at, prev: record.prev, ...subjectAnnotations(record) },
        },
      ],
      passedTests: [...data.passedTests],
      warnedTests: [],
      failedTests: [],
    },
  };
};

const subjectAnnotations = (record: LedgerRecord): Record<string, string> =>
  Object.fromEntries(Object.entries(record.subject).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** Statements for every `cycle.greened` record that names its commit, in ledger order. */
export const greenAttestationsWithSeq = (records: readonly LedgerRecord[]): GreenAttestation[] =>
  recordsOf(records, RECORD_TYPES.cycleGreened).flatMap((record) => {
    const statement = statementOf(record);
    return statement ? [{ seq: record.seq, statement }] : [];
  });

export const greenAttestations = (records: readonly LedgerRecord[]): object[] => greenAttestationsWithSeq(records).map((attestation) => attestation.statement);

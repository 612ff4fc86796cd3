/**
 * Well-formed data for every catalogued record type, for tests that build ledgers by hand: a test
 * names only the fields it is about (`sampleData('cycle.green', { verdict: 'failing' })`) and the
 * rest are filled in, so the record passes its schema as the ledger's own writers' records do.
 */
import type { Actor, LedgerRecord, Subject } from './ledger';
import { isRecordType, RECORD_TYPES, type RecordData, type RecordType } from './records';

const SHA = 'a'.repeat(64);
const COMMIT = 'c'.repeat(40);
const turn = { attempt: 1, violations: 0, kept: [], outOfScope: [], turnMs: 10, agentExitCode: 0, tells: [] };
const run = { ...turn, cases: [], totals: { passed: 0, failed: 0, errored: 0, skipped: 0 }, tree: 'e'.repeat(40) };

export const SAMPLE_DATA: { readonly [T in RecordType]: RecordData<T> } = {
  [RECORD_TYPES.gateApproved]: { gate: 'spec', approver: 'Ada <ada@example.com>', artifacts: { 'feature.json': { sha256: SHA, algorithm: 'jcs-sha256' } } },
  [RECORD_TYPES.gateRejected]: { gate: 'spec', approver: 'Ada <ada@example.com>', reason: 'not yet', artifacts: {} },
  [RECORD_TYPES.gateRevising]: { gate: 'acceptance', rejection: SHA, by: 'Ada <ada@example.com>', note: 'the total is wrong', items: ['T1'] },
  [RECORD_TYPES.gateWithdrawn]: { gate: 'spec', approver: 'Ada <ada@example.com>', reason: 'changed my mind' },
  [RECORD_TYPES.gateRestored]: { gate: 'spec', approver: 'Ada <ada@example.com>', approval: 1, restored: [], removed: [] },
  [RECORD_TYPES.ledgerRepaired]: { droppedBytes: 3, droppedSha256: SHA, offset: 0, line: 1, reason: 'an incomplete final line was dropped' },
  [RECORD_TYPES.cyclePlanned]: { key: 'plan', experiment: 'baton/exp', database: 'exp', startCommit: COMMIT },
  [RECORD_TYPES.cycleRed]: { ...run, key: 'red:1', verdict: 'red', detail: 'failing: t', failing: [], worktree: '/tmp/red-1' },
  [RECORD_TYPES.cycleLocked]: { key: 'lock', files: [], testCommand: 'npm test', testCommandSha256: SHA, cases: [], red: SHA, tree: 'e'.repeat(40) },
  [RECORD_TYPES.cycleGreen]: { ...run, key: 'green:1', verdict: 'green', failure: null, escalate: null, lock: SHA },
  [RECORD_TYPES.cycleGreened]: {
    key: 'greened',
    commit: COMMIT,
    verdict: SHA,
    command: 'npm test',
    passedTests: [],
    branch: 'baton/exp',
    tree: 'e'.repeat(40),
  },
  [RECORD_TYPES.cycleMutated]: {
    key: 'mutated',
    commit: COMMIT,
    tree: 'e'.repeat(40),
    files: ['src/stock.js'],
    found: 3,
    tested: 3,
    killed: 2,
    timedOut: 0,
    survived: [{ id: 'src/stock.js:4:9:boundary', file: 'src/stock.js', line: 4, column: 9, operator: 'boundary', original: '<', replacement: '<=' }],
    errors: [],
    score: 2 / 3,
    minScore: 0.6,
    ms: 1200,
  },
  [RECORD_TYPES.cycleViolation]: { key: 'violation:green:1', attempt: 1, step: 'green', files: [], against: 'the lock' },
  [RECORD_TYPES.tellsAllowed]: {
    tells: [{ file: 'src/a.js', line: 1, why: 'reads its process ids', text: 'const p = process.pid;', id: SHA }],
    reason: 'the worker pool logs its pid',
  },
  [RECORD_TYPES.cycleRefactored]: { ...run, key: 'refactor:1', verdict: 'kept', detail: 'suite stayed green' },
  [RECORD_TYPES.cycleReviewed]: { key: 'review:1', attempt: 1, decision: 'accept', note: null, head: COMMIT, turnMs: 10, flagged: [] },
  [RECORD_TYPES.featureRequested]: { title: 'Gift cards', request: SHA, attachments: { 'constraints.md': SHA } },
  [RECORD_TYPES.designTurn]: {
    role: 'specAuthor',
    gate: 'spec',
    attempt: 1,
    outcome: 'written',
    problems: [],
    files: { 'feature.json': SHA },
    feedback: null,
    turnMs: 10,
    agentExitCode: 0,
  },
  [RECORD_TYPES.designEscalated]: { role: 'specAuthor', gate: 'spec', attempts: 2, problems: ['stories: needs at least one story'] },
  [RECORD_TYPES.cycleDependencies]: {
    key: 'dependencies:green:1',
    attempt: 1,
    step: 'green',
    manager: 'npm',
    requested: [{ name: 'left-pad', spec: '^1.3.0', dev: false }],
    installed: [{ name: 'left-pad', spec: '^1.3.0', dev: false, version: '1.3.0' }],
    refused: [],
    files: [{ path: 'package.json', before: null, sha256: 'a'.repeat(64), bytes: 10, mode: 0o644 }],
  },
  [RECORD_TYPES.cycleFinished]: { key: 'finished', item: 'T1', status: 'done', repairs: 0, violations: 0, rejectedRed: 0, refactors: 0, reason: null },
  [RECORD_TYPES.itemStatus]: { key: 'status:green', item: 'T1', status: 'green' },
  [RECORD_TYPES.runBlocked]: { phase: 'building', step: 'start', item: null, gates: [], message: 'blocked' },
  [RECORD_TYPES.branchCreated]: { name: 'exp', gitBranch: 'exp', parent: 'main', provider: 'pglite', masked: false, migrations: [] },
  [RECORD_TYPES.branchReset]: { name: 'exp', parent: 'main', provider: 'pglite', masked: false, migrations: [] },
  [RECORD_TYPES.branchDeleted]: { name: 'exp', provider: 'pglite' },
  [RECORD_TYPES.branchCollected]: { provider: 'pglite', removed: [], kept: [] },
  [RECORD_TYPES.storyDiscarded]: { story: 'S-2', rejection: SHA, by: 'Ada <ada@example.com>', note: 'not this release', items: ['T2'] },
  [RECORD_TYPES.storyMerged]: { story: 'S-1', experiment: 'baton/f-1--s-1', into: 'baton/f-1', commit: COMMIT, merge: COMMIT },
  [RECORD_TYPES.evalRun]: {
    task: 'inventory',
    workflow: 'enforced',
    agent: 'honest',
    rep: 1,
    seed: 42,
    delivered: true,
    outcome: 'reached the acceptance gate, every item done',
    heldout: { total: 15, passed: 15, failed: [], ms: 900, error: null },
    wallMs: 60000,
    agentMs: 2000,
    tokens: null,
    costUsd: null,
    interventions: 0,
    repairs: 1,
    violations: 0,
    mutationScore: 0.9,
    linesOfCode: 80,
  },
  [RECORD_TYPES.featureVerified]: {
    feature: 'F-1',
    branch: 'baton/f-1',
    commit: COMMIT,
    tree: 'e'.repeat(40),
    verdict: 'passed',
    tested: null,
    failing: [],
    stories: [],
    lanes: [],
    integrity: [],
    flaky: [],
    totals: { passed: 2, failed: 0, errored: 0, skipped: 0 },
    migrations: [],
    worktree: '/tmp/f-1',
    testRunMs: 10,
  },
  [RECORD_TYPES.deployRan]: { feature: 'F-1', commit: 'a'.repeat(40), target: 'local', healthy: true, verifyPassed: true, exitCode: 0 },
  [RECORD_TYPES.promoteDone]: {
    feature: 'F-1',
    tier: 'main',
    tierCommit: 'a'.repeat(40),
    featureCommit: 'b'.repeat(40),
    mergeCommit: 'c'.repeat(40),
    snapshot: 'snap-main-20261205t061500',
    applied: ['002_reorder.sql'],
  },
  [RECORD_TYPES.promoteStarted]: {
    feature: 'F-1',
    tier: 'main',
    tierCommit: 'a'.repeat(40),
    featureCommit: 'b'.repeat(40),
    tierDatabase: 'main',
    snapshot: 'snap-main-20261205t061500',
    snapshotBranch: 'baton/snapshots/main-20261205t061500',
  },
  [RECORD_TYPES.promoteRolledBack]: {
    feature: 'F-1',
    tier: 'main',
    tierCommit: 'a'.repeat(40),
    failedAt: 'migrating the tier database',
    error: 'syntax error',
    snapshot: 'snap-main-20261205t061500',
    mergeUndone: true,
    databaseRestored: true,
  },
  [RECORD_TYPES.branchMigrated]: {
    name: 'baton-f-1',
    gitBranch: 'baton/f-1',
    commit: 'a'.repeat(40),
    provider: 'pglite',
    applied: ['002_orders.sql'],
    error: null,
  },
  [RECORD_TYPES.branchAdopted]: { name: 'shop_prod', gitBranch: 'main', provider: 'postgres', replaced: null },
  [RECORD_TYPES.escalationDecided]: { decision: 'retry', round: 1, note: null },
  [RECORD_TYPES.testAmendment]: { lock: SHA, files: [{ path: 'test/a.test.js', sha256: SHA, bytes: 10, was: SHA }], reason: 'The AC says 404, not 400.' },
  [RECORD_TYPES.amendmentDecided]: { amendment: SHA, decision: 'approved', note: null },
};

/** `data` over the sample of `type` when the type is catalogued; any other type's data as given. */
export const withSample = (type: string, data: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> =>
  isRecordType(type) ? { ...SAMPLE_DATA[type], ...data } : data;

/** Well-formed data of `type`, with `fields` over the sample's. */
export const sampleData = <T extends RecordType>(type: T, fields: Partial<RecordData<T>> = {}): RecordData<T> => ({ ...SAMPLE_DATA[type], ...fields });

/** When the hand-made ledgers of the metrics, smells and dossier tests start. */
export const LEDGER_T0 = Date.parse('2026-12-01T09:00:00.000Z');

/**
 * A maker of hand-made records numbered from 1 in the order made: `record(type, s, subject, fields,
 * actor)` is `s` seconds after LEDGER_T0 (null: as many seconds as its seq), about `subject` in
 * feature F-1 unless it names another, by the orchestrator unless `actor` says who, its data the
 * sample's with `fields` over it. Hashes are placeholders: these ledgers are folded, never verified.
 */
export function recordMaker(): <T extends RecordType>(
  type: T,
  s: number | null,
  subject: Subject,
  fields?: Partial<RecordData<T>>,
  actor?: Actor,
) => LedgerRecord {
  let seq = 0;
  return (type, s, subject, fields = {}, actor) => {
    seq += 1;
    return {
      seq,
      at: new Date(LEDGER_T0 + (s ?? seq) * 1000).toISOString(),
      type,
      actor: actor ?? { kind: 'orchestrator', id: 'baton' },
      subject: { feature: 'F-1', ...subject },
      data: sampleData(type, fields) as Readonly<Record<string, unknown>>,
      blobs: [],
      prev: '0'.repeat(64),
      hash: String(seq).padStart(64, '0'),
    };
  };
}

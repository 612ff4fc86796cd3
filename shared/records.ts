/**
 * The catalogue of ledger records Baton writes: each type's name, spelled once, and a zod schema
 * for its `data`. Writers are typed by it (the ledger refuses an append whose data does not match),
 * readers narrow a record with `recordOf`/`recordsOf` and get typed data (no casts), and `baton
 * verify` reports a record whose data does not match by its seq. Records of other types (a Consort
 * project's, a newer Baton's) are stored and hashed like any other, and simply not recognised here.
 * Schemas are loose: a field a newer Baton adds does not make an older one reject the record (nested
 * objects are plain `z.object`s, which also let extra keys through: only the parse output would drop them).
 */
import { z } from 'zod';
import type { LedgerRecord } from './ledger';
import { ESCALATION_DECISIONS, TEST_STATUSES } from './model';
import { RECORD_TYPES, type RecordType } from './record-types';
import { MUTATED_DATA } from './records-mutation';

export { RECORD_TYPES, type RecordType } from './record-types';

const SHA256 = /^[0-9a-f]{64}$/;
const text = z.string();
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();
const count = z.number().int().nonnegative();
const maybeText = z.string().nullable().optional();
const hash = z.string().regex(SHA256, 'is not a lowercase hex SHA-256');

const artifactHash = z.object({ sha256: hash, algorithm: z.enum(['jcs-sha256', 'text-sha256']) });
/** An approval's artifacts by path: at least one (an approval of nothing approves nothing). */
const artifacts = z.record(text, artifactHash).refine((a) => Object.keys(a).length > 0, 'names no artifact');
const testCase = z.object({ id: text, status: z.enum(['passed', 'failed', 'errored', 'skipped']), message: z.string().nullable() });
const totals = z.object({ passed: count, failed: count, errored: count, skipped: count });
const change = z.object({ kind: text, path: text, from: text.optional() });
/**
 * Code that tells a test run apart (agents/tell-scan.ts): `id` names it in a person's allowance, and
 * `allowed` is the `tells.allowed` record that allowed it (older records have neither).
 */
const tell = z.object({ file: text, line: z.number().int(), why: text, text, id: hash.optional(), allowed: hash.optional() });

/** What a cycle step records about the agent's turn (every working step). */
const turnFields = {
  attempt: count,
  violations: count,
  kept: list(change),
  outOfScope: list(z.object({ path: text, kind: text, why: text })),
  turnMs: z.number(),
  agentExitCode: z.number().int().nullable(),
  tells: list(tell),
  /** A real agent's host, model and usage as it reported them (the scripted agent has none). */
  agent: z
    .object({
      host: text,
      model: z.string().nullable(),
      inputTokens: z.number().nullable(),
      outputTokens: z.number().nullable(),
      costUsd: z.number().nullable(),
    })
    .optional(),
};
/** …and about the orchestrator's own test run, when one ran (a refactor that kept nothing has none). */
const runFields = {
  cases: list(testCase).optional(),
  totals: totals.optional(),
  tree: text.optional(),
  exitCode: z.number().int().nullable().optional(),
  runMs: z.number().optional(),
  testRunMs: z.number().optional(),
  secondRunMs: z.number().nullable().optional(),
  recheckMs: z.number().nullable().optional(),
  /** The run's `[sandbox]` line: whether bubblewrap held it, and what it showed (null: no note). */
  runnerSandbox: z.string().nullable().optional(),
};
/** The fields every working step's verdict record shares (engine/turn-and-run.ts builds them). */
export type StepFields = z.infer<ReturnType<typeof z.looseObject<typeof turnFields & typeof runFields>>>;
const verdictFields = { key: text, ...turnFields, ...runFields, verdict: text, detail: text.optional() };

const cycleKey = { key: text };

/** A gate approval: who, the hashes, and for an acceptance approved with unproven ACs each of them with why, and the approver's reason. */
const approval = {
  approver: text,
  comment: text.optional(),
  artifacts,
  exceptions: list(z.object({ ac: text, why: text })).optional(),
  exceptionReason: text.optional(),
};

/** A RED step's verdicts: `red`, or why the turn is not one (the machine's NotRed, orchestrator/cycle-types.ts). */
export const RED_VERDICTS = ['red', 'passed-at-once', 'load-error', 'regressed', 'no-test', 'compromised', 'flaky'] as const;

/** When the gate opened for a decision, how long it waited, and how long the decider had the evidence open (their screen's measure). */
const decisionTiming = { openedAt: text.optional(), waitedMs: z.number().nonnegative().optional(), viewedMs: z.number().nonnegative().optional() };

export const RECORD_DATA = {
  [RECORD_TYPES.gateApproved]: z.looseObject({ gate: text.optional(), ...approval, ...decisionTiming }),
  [RECORD_TYPES.gateRejected]: z.looseObject({
    gate: text.optional(),
    approver: text,
    reason: text,
    artifacts: z.record(text, artifactHash).optional(),
    /** A story's acceptance rejected to drop the story, not to revise it. */
    discard: z.boolean().optional(),
    ...decisionTiming,
  }),
  [RECORD_TYPES.gateWithdrawn]: z.looseObject({ gate: text.optional(), approver: text, reason: text, reopened: list(text).optional() }),
  [RECORD_TYPES.gateRevising]: z.looseObject({
    gate: text,
    /** The rejection taken up (its record's hash), its approver and note. */
    rejection: hash,
    by: text,
    note: z.string().nullable(),
    /** For a story's acceptance: the items that run a new round with the note as guidance. */
    items: list(text),
  }),
  [RECORD_TYPES.gateRestored]: z.looseObject({
    gate: text.optional(),
    approver: text,
    approval: count,
    restored: list(z.object({ artifact: text, from: z.string().nullable(), to: z.string().nullable() })),
    removed: list(text),
  }),
  [RECORD_TYPES.ledgerRepaired]: z.looseObject({ droppedBytes: count, droppedSha256: hash, offset: count, line: count, reason: text }),
  [RECORD_TYPES.cyclePlanned]: z.looseObject({ ...cycleKey, experiment: text, database: text, startCommit: text }),
  [RECORD_TYPES.cycleRed]: z.looseObject({ ...verdictFields, verdict: z.enum(RED_VERDICTS), failing: list(text).optional(), worktree: text }),
  [RECORD_TYPES.cycleLocked]: z.looseObject({
    ...cycleKey,
    files: list(z.object({ path: text, sha256: hash, bytes: count, mode: z.number().int() })),
    testCommand: text,
    testCommandSha256: text,
    cases: list(testCase),
    red: text,
    tree: z.string().nullable(),
    /** The approved `test.amendment` this lock takes (an amendment round): the old lock is its `lock`. */
    amendment: hash.optional(),
  }),
  [RECORD_TYPES.cycleGreen]: z.looseObject({ ...verdictFields, failure: maybeText, escalate: maybeText, lock: text }),
  [RECORD_TYPES.cycleGreened]: z.looseObject({
    ...cycleKey,
    commit: text,
    verdict: text,
    command: z.string().nullable().optional(),
    passedTests: list(text),
    /** The repository's name for the attestation's subject (default `git`). */
    repo: text.optional(),
    branch: text,
    tree: text,
  }),
  [RECORD_TYPES.cycleViolation]: z.looseObject({
    ...cycleKey,
    attempt: count,
    step: text,
    files: list(z.object({ path: text, kind: text })),
    against: text,
    detail: text.optional(),
    /** A violation of code that tells a test run apart: the tells no person allowed. */
    tells: list(tell).optional(),
  }),
  [RECORD_TYPES.cycleMutated]: MUTATED_DATA,
  [RECORD_TYPES.cycleRefactored]: z.looseObject({ ...verdictFields, verdict: z.enum(['kept', 'reverted']) }),
  [RECORD_TYPES.cycleReviewed]: z.looseObject({
    ...cycleKey,
    attempt: count,
    decision: z.enum(['accept', 'refactor', 'smell']),
    note: z.string().nullable(),
    head: text,
    turnMs: z.number(),
    flagged: list(tell),
    agent: turnFields.agent,
  }),
  [RECORD_TYPES.cycleDependencies]: z.looseObject({
    ...cycleKey,
    attempt: count,
    step: text,
    manager: z.string().nullable(),
    requested: list(z.object({ name: text, spec: text, dev: z.boolean() })),
    installed: list(z.object({ name: text, spec: text, dev: z.boolean(), version: text })),
    refused: list(z.object({ line: text, why: text })),
    /** The manifest and lockfile as the orchestrator rewrote them (blobs `amended/<path>`); the lock follows them. */
    files: list(z.object({ path: text, before: z.string().nullable(), sha256: hash, bytes: count, mode: z.number().int() })),
  }),
  /** The cycle's end (`finished`), or a note that an escalated cycle's tests could not be parked (`parking-failed`). */
  [RECORD_TYPES.cycleFinished]: z.looseObject({
    ...cycleKey,
    item: text.optional(),
    status: text.optional(),
    reason: z.string().nullable().optional(),
    repairs: count.optional(),
    violations: count.optional(),
    rejectedRed: count.optional(),
    refactors: count.optional(),
    cycle: text.optional(),
    round: count.optional(),
  }),
  [RECORD_TYPES.itemStatus]: z.looseObject({ ...cycleKey, item: text, status: z.enum(TEST_STATUSES) }),
  [RECORD_TYPES.runBlocked]: z.looseObject({
    phase: text,
    step: text,
    item: z.string().nullable().optional(),
    gates: list(z.object({ gate: text, story: z.string().nullable() })),
    message: text,
  }),
  [RECORD_TYPES.branchCreated]: z.looseObject({ name: text, gitBranch: text, parent: text, provider: text, masked: z.boolean(), migrations: list(text) }),
  [RECORD_TYPES.branchReset]: z.looseObject({ name: text, parent: text, provider: text, masked: z.boolean(), migrations: list(text) }),
  [RECORD_TYPES.branchDeleted]: z.looseObject({ name: text, provider: text }),
  [RECORD_TYPES.branchCollected]: z.looseObject({ provider: text, removed: list(z.unknown()), kept: list(z.unknown()) }),
  [RECORD_TYPES.storyDiscarded]: z.looseObject({ story: text, rejection: hash, by: text, note: z.string().nullable(), items: list(text) }),
  [RECORD_TYPES.storyMerged]: z.looseObject({ story: text, experiment: text, into: text, commit: text, merge: text }),
  [RECORD_TYPES.featureVerified]: z.looseObject({
    feature: text,
    branch: text,
    /** The feature branch's head and its tree: what was verified (a resumed run looks for its tree). */
    commit: text,
    tree: text,
    verdict: z.enum(['passed', 'failed']),
    /** The GREEN (or kept refactor) record whose runs already tested this very tree, when nothing ran again; null when the suite ran. */
    tested: hash.nullable(),
    /** Each test that failed (either run) or was flaky, with the stories whose merged changes wrote it. */
    failing: list(z.object({ test: text, file: z.string().nullable(), stories: list(text) })),
    /** The stories to make depend on one another: those that wrote a failing test and those merged beside them. */
    stories: list(text),
    /** The lanes those stories were built in (engine/lanes.ts): more than one, they were declared independent. */
    lanes: list(list(text)),
    integrity: list(text),
    flaky: list(text),
    totals: totals.nullable(),
    migrations: list(text),
    worktree: text,
    testRunMs: z.number(),
  }),
  [RECORD_TYPES.evalRun]: z.looseObject({
    ...{ task: text, workflow: text, agent: text, rep: z.number().int().min(1), seed: z.number().int(), delivered: z.boolean(), outcome: text },
    heldout: z.looseObject({ total: z.number().int(), passed: z.number().int(), failed: list(text), ms: z.number(), error: z.string().nullable() }),
    ...{ wallMs: z.number(), agentMs: z.number(), tokens: z.number().nullable(), costUsd: z.number().nullable(), mutationScore: z.number().nullable() },
    ...{ interventions: z.number().int(), repairs: z.number().int(), violations: z.number().int(), linesOfCode: z.number().int() },
  }),
  [RECORD_TYPES.deployRan]: z.looseObject({ feature: text, commit: text, target: text, healthy: z.boolean(), verifyPassed: z.boolean(), exitCode: z.number() }),
  [RECORD_TYPES.promoteDone]: z.looseObject({
    feature: text,
    tier: text,
    tierCommit: text,
    featureCommit: text,
    mergeCommit: text,
    snapshot: text,
    applied: list(text),
  }),
  [RECORD_TYPES.promoteStarted]: z.looseObject({
    feature: text,
    tier: text,
    tierCommit: text,
    featureCommit: text,
    tierDatabase: text,
    snapshot: text,
    snapshotBranch: text,
  }),
  [RECORD_TYPES.promoteRolledBack]: z.looseObject({
    feature: text,
    tier: text,
    tierCommit: text,
    failedAt: text,
    error: text,
    snapshot: text,
    mergeUndone: z.boolean(),
    databaseRestored: z.boolean(),
  }),
  [RECORD_TYPES.branchMigrated]: z.looseObject({ name: text, gitBranch: text, commit: text, provider: text, applied: list(text), error: text.nullable() }),
  [RECORD_TYPES.branchAdopted]: z.looseObject({ name: text, gitBranch: text, provider: text, replaced: text.nullable() }),
  [RECORD_TYPES.tellsAllowed]: z.looseObject({
    tells: z
      .array(tell.extend({ id: hash }))
      .min(1, 'names no tell')
      .readonly(),
    reason: z.string().trim().min(1, 'gives no reason'),
  }),
  [RECORD_TYPES.escalationDecided]: z.looseObject({
    decision: z.enum(ESCALATION_DECISIONS),
    round: count.optional(),
    note: z.string().nullable().optional(),
    escalation: text.optional(),
  }),
  [RECORD_TYPES.featureRequested]: z.looseObject({
    title: text,
    request: hash,
    attachments: z.record(text, hash),
  }),
  [RECORD_TYPES.designTurn]: z.looseObject({
    role: text,
    gate: text,
    attempt: count,
    /** 1, then one more each time a person sent the gate back. */
    round: count.optional(),
    outcome: z.enum(['written', 'refused']),
    problems: list(text),
    files: z.record(text, hash),
    feedback: z.string().nullable(),
    turnMs: z.number(),
    agentExitCode: z.number().int().nullable(),
  }),
  [RECORD_TYPES.designEscalated]: z.looseObject({ role: text, gate: text, attempts: count, problems: list(text), declined: text.optional() }),
  [RECORD_TYPES.testAmendment]: z.looseObject({
    /** The `cycle.locked` record whose files this would replace. */
    lock: hash,
    files: list(z.object({ path: text, sha256: hash, bytes: count, was: hash })),
    reason: text,
  }),
  [RECORD_TYPES.amendmentDecided]: z.looseObject({
    amendment: hash,
    decision: z.enum(['approved', 'rejected']),
    note: z.string().nullable(),
  }),
} as const satisfies Record<RecordType, z.ZodType>;

export type RecordData<T extends RecordType> = z.infer<(typeof RECORD_DATA)[T]>;

/** A record of a catalogued type whose data matched its schema. */
export type TypedRecord<T extends RecordType = RecordType> = {
  [K in T]: Omit<LedgerRecord, 'type' | 'data'> & { readonly type: K; readonly data: RecordData<K> };
}[T];

const TYPES: ReadonlySet<string> = new Set(Object.values(RECORD_TYPES));
export const isRecordType = (type: string): type is RecordType => TYPES.has(type);

/** Records are immutable once read: each is checked against its schema at most once. */
const checked = new WeakMap<object, string | null>();

/** Why a catalogued record's data does not match its schema (path and reason), or null. */
export function recordDataProblem(record: { readonly type: string; readonly data: unknown }): string | null {
  if (!isRecordType(record.type)) return null;
  const known = checked.get(record);
  if (known !== undefined) return known;
  const result = RECORD_DATA[record.type].safeParse(record.data);
  const problem = result.success
    ? null
    : result.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? `data.${i.path.join('.')}` : 'data'} ${i.message}`)
        .join('; ');
  checked.set(record, problem);
  return problem;
}

/** The record narrowed to `type`, or null when it is another type or its data is malformed. */
export function recordOf<T extends RecordType>(record: LedgerRecord | null | undefined, type: T): TypedRecord<T> | null {
  if (!record || record.type !== type || recordDataProblem(record) !== null) return null;
  return record as unknown as TypedRecord<T>;
}

/** The records of `type` (well-formed ones), in order. */
export function recordsOf<T extends RecordType>(records: readonly LedgerRecord[], type: T): TypedRecord<T>[] {
  return records.flatMap((r) => {
    const typed = recordOf(r, type);
    return typed ? [typed] : [];
  });
}

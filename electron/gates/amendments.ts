/**
 * Test amendments: a change to an item's locked tests, proposed by the Navigator in REVIEW (a
 * `BATON-AMEND:` line) or by a person at any time, and decided by a person. Approved, the item
 * runs a new round: the orchestrator writes the amended tests in place of the Navigator's RED
 * turn, runs them, and LOCK takes their hashes (that `cycle.locked` record names the amendment,
 * which names the lock it replaces). The old round's evidence stays in the ledger, superseded.
 * Rejected, the lock stays as it was. Everything is folded from the ledger alone.
 */
import { createHash } from 'node:crypto';
import type { LedgerRecord } from '../../shared/ledger';
import { AMENDMENT_DECISIONS, type AmendmentDecision, type AmendmentUse, type AmendmentView, type ProjectView } from '../../shared/model';
import { RECORD_TYPES, recordOf, recordsOf, type TypedRecord } from '../../shared/records';
import { err, ok, type AppError, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import { policyRefusal, signerOf } from './policy';
import type { Ledger } from '../ledger';

type LockRecord = TypedRecord<typeof RECORD_TYPES.cycleLocked>;
type AmendRecord = TypedRecord<typeof RECORD_TYPES.testAmendment>;
type DecidedRecord = TypedRecord<typeof RECORD_TYPES.amendmentDecided>;

export interface ItemLock {
  /** The item's latest lock, whichever round took it. */
  readonly record: LockRecord;
  /** The test files that are the item's own (its RED wrote them): what an amendment may change. */
  readonly own: readonly { readonly path: string; readonly sha256: string; readonly bytes: number }[];
}

export interface AmendmentState {
  readonly record: AmendRecord;
  readonly decision: DecidedRecord | null;
  readonly status: 'pending' | 'approved' | 'rejected';
  /** The lock that took the amended tests (the item's next round), once it exists. */
  readonly applied: LockRecord | null;
}

const byHash = (records: readonly LedgerRecord[]) => new Map(records.map((r) => [r.hash, r]));

/** The paths a lock holds for its own item: what its RED added or changed, or, for an amendment round, what the amended lock held. */
function ownPaths(lock: LockRecord, index: ReadonlyMap<string, LedgerRecord>, depth = 0): Set<string> {
  const amendment = lock.data.amendment ? recordOf(index.get(lock.data.amendment), RECORD_TYPES.testAmendment) : null;
  const earlier = amendment ? recordOf(index.get(amendment.data.lock), RECORD_TYPES.cycleLocked) : null;
  if (earlier && depth < 50) return ownPaths(earlier, index, depth + 1);
  const red = recordOf(index.get(lock.data.red), RECORD_TYPES.cycleRed);
  return new Set((red?.data.kept ?? []).filter((c) => c.kind !== 'deleted').map((c) => c.path));
}

/** The item's current lock and its own test files, or null before its first LOCK. */
export function itemLock(records: readonly LedgerRecord[], feature: string, item: string): ItemLock | null {
  const record = recordsOf(records, RECORD_TYPES.cycleLocked)
    .filter((r) => r.subject.feature === feature && r.subject.item === item)
    .at(-1);
  if (!record) return null;
  const own = ownPaths(record, byHash(records));
  return { record, own: record.data.files.filter((f) => own.has(f.path)) };
}

/** Every amendment, in ledger order, with its decision and the lock that applied it. */
export function foldAmendments(records: readonly LedgerRecord[]): AmendmentState[] {
  const decisions = new Map(recordsOf(records, RECORD_TYPES.amendmentDecided).map((d) => [d.data.amendment, d]));
  const applied = new Map(recordsOf(records, RECORD_TYPES.cycleLocked).flatMap((l) => (l.data.amendment ? [[l.data.amendment, l] as const] : [])));
  return recordsOf(records, RECORD_TYPES.testAmendment).map((record) => {
    const decision = decisions.get(record.hash) ?? null;
    return { record, decision, status: decision ? decision.data.decision : 'pending', applied: applied.get(record.hash) ?? null };
  });
}

/** The item's amendment that still waits: for a decision, or (approved) for the round that re-runs it. */
export const openAmendment = (states: readonly AmendmentState[], feature: string, item: string): AmendmentState | null =>
  states.find(
    (s) => s.record.subject.feature === feature && s.record.subject.item === item && (s.status === 'pending' || (s.status === 'approved' && !s.applied)),
  ) ?? null;

/** An approved amendment of the feature whose item has not re-run yet (no lock has taken it): the build must run again. */
export const amendmentToRerun = (records: readonly LedgerRecord[], feature: string): AmendmentState | null =>
  foldAmendments(records).find((s) => s.record.subject.feature === feature && s.status === 'approved' && !s.applied) ?? null;

/** Gates that judge what was built: none can be approved while an amendment of one of its items waits or re-runs. */
const BUILT_GATES: ReadonlySet<string> = new Set(['acceptance', 'deploy', 'promote']);

/** Why a gate cannot be approved while a test amendment is open (pending, or approved and its re-run not finished); null otherwise. */
export function amendmentError(ref: { feature: string; story?: string | undefined; gate: string }, records: readonly LedgerRecord[]): AppError | null {
  if (!BUILT_GATES.has(ref.gate)) return null;
  const finished = new Set(recordsOf(records, RECORD_TYPES.cycleFinished).map((f) => f.subject.cycle));
  const open = foldAmendments(records).find(
    (s) =>
      s.record.subject.feature === ref.feature &&
      (!ref.story || s.record.subject.story === ref.story) &&
      (s.status === 'pending' || (s.status === 'approved' && !(s.applied && finished.has(s.applied.subject.cycle)))),
  );
  if (!open) return null;
  const item = open.record.subject.item;
  return {
    code: 'amendment-open',
    message:
      open.status === 'pending'
        ? `A test amendment of ${item} waits for a decision (record #${open.record.seq}): the evidence for this gate may change. Approve or reject it first (Inbox, or \`baton amend\`).`
        : `The approved test amendment of ${item} has not re-run yet (record #${open.record.seq}): run the feature so ${item} runs RED/GREEN against the amended test, then decide this gate.`,
  };
}

const USED_BY: ReadonlySet<string> = new Set([
  RECORD_TYPES.cycleRed,
  RECORD_TYPES.cycleLocked,
  RECORD_TYPES.cycleGreen,
  RECORD_TYPES.cycleGreened,
  RECORD_TYPES.cycleRefactored,
  RECORD_TYPES.cycleReviewed,
  RECORD_TYPES.cycleFinished,
]);

/** What a record of the old cycle concluded: a verdict, a review's decision, the cycle's end. */
const verdictOf = (record: LedgerRecord): string | null =>
  recordOf(record, RECORD_TYPES.cycleRed)?.data.verdict ??
  recordOf(record, RECORD_TYPES.cycleGreen)?.data.verdict ??
  recordOf(record, RECORD_TYPES.cycleRefactored)?.data.verdict ??
  recordOf(record, RECORD_TYPES.cycleReviewed)?.data.decision ??
  recordOf(record, RECORD_TYPES.cycleFinished)?.data.status ??
  null;

function viewOf(state: AmendmentState, records: readonly LedgerRecord[]): AmendmentView {
  const { record, decision, applied } = state;
  const cycle = record.subject.cycle ?? '';
  const usedBy: AmendmentUse[] = records
    .filter((r) => r.subject.cycle === cycle && r.subject.feature === record.subject.feature && USED_BY.has(r.type))
    .map((r) => ({ type: r.type, seq: r.seq, hash: r.hash, at: r.at, verdict: verdictOf(r) }));
  const rerunCycle = applied?.subject.cycle ?? null;
  const finished = rerunCycle
    ? recordsOf(records, RECORD_TYPES.cycleFinished).find((f) => f.subject.cycle === rerunCycle && f.subject.feature === record.subject.feature)
    : undefined;
  const rerun = state.status !== 'approved' ? null : !applied ? 'waiting' : !finished ? 'locked' : finished.data.status === 'escalated' ? 'escalated' : 'green';
  return {
    id: record.hash,
    seq: record.seq,
    feature: record.subject.feature ?? '',
    story: record.subject.story ?? null,
    item: record.subject.item ?? '',
    files: record.data.files.map(({ path, sha256, was, bytes }) => ({ path, sha256, was, bytes })),
    reason: record.data.reason,
    proposedBy: { kind: record.actor.kind, id: record.actor.id },
    at: record.at,
    lock: record.data.lock,
    cycle,
    status: state.status,
    decidedBy: decision?.actor.id ?? null,
    decidedAt: decision?.at ?? null,
    note: decision?.data.note ?? null,
    usedBy,
    rerun,
    rerunCycle,
  };
}

/** Fills each feature's `amendments` and `lockedTests` from the ledger. */
export function annotateAmendments(view: ProjectView, records: readonly LedgerRecord[]): ProjectView {
  if (view.layout !== 'baton' || records.length === 0) return view;
  const states = foldAmendments(records);
  return {
    ...view,
    features: view.features.map((f) => ({
      ...f,
      amendments: states.filter((s) => s.record.subject.feature === f.id).map((s) => viewOf(s, records)),
      lockedTests: f.testList.flatMap((item) => {
        const lock = itemLock(records, f.id, item.id);
        if (!lock) return [];
        const files = lock.own.map(({ path, sha256, bytes }) => ({ path, sha256, bytes }));
        return [{ item: item.id, lock: lock.record.hash, cycle: lock.record.subject.cycle ?? '', files }];
      }),
    })),
  };
}

export interface ProposeAmendmentRequest {
  readonly feature: string;
  readonly item: string;
  readonly files: readonly { readonly path: string; readonly content: Buffer | string }[];
  readonly reason: string;
  /** A person (`Name <email>`) or the Navigator (`navigator:<adapter>`). */
  readonly by: { readonly kind: 'person' | 'agent'; readonly id: string };
}

/** The largest test file an amendment takes (the channel's limit, and the Navigator's). */
const MAX_BYTES = 1_000_000;

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/**
 * Records a proposal, fail closed: a writable project, a named proposer, a reason, an item whose
 * tests are locked, only its own locked test files, each one changed, and no other amendment of
 * the item still open (checked inside the ledger's lock).
 */
export async function proposeAmendment(view: ProjectView, ledger: Ledger, req: ProposeAmendmentRequest): Promise<Result<LedgerRecord>> {
  const writable = writableProject(view, 'amendments');
  if (!writable.ok) return writable;
  if (req.by.id.trim() === '')
    return err('no-identity', 'An amendment must say who proposes it: give your name and email, e.g. "Ada Lovelace <ada@example.com>".');
  const reason = req.reason.trim();
  if (reason === '') return err('no-reason', `Say why ${req.item}'s test should change: the reason goes to the Product Owner with the diff.`);
  const feature = view.features.find((f) => f.id === req.feature);
  if (!feature) return err('not-found', `No feature "${req.feature}" in ${view.root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
  if (!feature.testList.some((t) => t.id === req.item))
    return err('not-found', `No item "${req.item}" in ${req.feature}'s test list. Items: ${feature.testList.map((t) => t.id).join(', ') || 'none'}.`);
  if (req.files.length === 0) return err('invalid-request', 'An amendment needs at least one file: the new content of a locked test.');
  try {
    return await ledger.transaction(async (tx) => {
      const lock = itemLock(tx.records, req.feature, req.item);
      if (!lock)
        return err(
          'not-locked',
          `${req.item} has no locked tests yet: an amendment changes a locked test. Until its RED is locked, change the test list instead.`,
        );
      const open = openAmendment(foldAmendments(tx.records), req.feature, req.item);
      if (open)
        return err(
          'amendment-open',
          `${req.item} already has an amendment ${open.status === 'pending' ? 'waiting for a decision' : 'approved and waiting for its re-run'} (record #${open.record.seq}). Decide or re-run that one first.`,
        );
      const files = [];
      for (const file of req.files) {
        const locked = lock.own.find((f) => f.path === file.path);
        if (!locked)
          return err(
            'not-locked',
            `${file.path} is not one of ${req.item}'s locked tests. Its locked tests: ${lock.own.map((f) => f.path).join(', ') || 'none'}.`,
          );
        const content = Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content, 'utf8');
        if (content.length > MAX_BYTES) return err('invalid-request', `The new ${file.path} is ${content.length} bytes: a test file is at most 1 MB.`);
        const hash = sha256(content);
        if (hash === locked.sha256) return err('unchanged', `The new ${file.path} is the locked one, byte for byte: there is nothing to amend.`);
        files.push({ path: file.path, sha256: hash, bytes: content.length, was: locked.sha256, content });
      }
      const record = await tx.append({
        type: RECORD_TYPES.testAmendment,
        actor: { kind: req.by.kind, id: req.by.id.trim() },
        subject: { ...lockSubject(lock.record) },
        data: { lock: lock.record.hash, files: files.map(({ content: _content, ...rest }) => rest), reason },
        blobs: files.map((f) => ({ name: `amended/${f.path}`, content: f.content })),
      });
      return ok(record);
    });
  } catch (error) {
    return err('ledger-error', `The amendment was not recorded: the ledger could not be written (${(error as Error).message}). Nothing changed; try again.`);
  }
}

const lockSubject = (lock: LockRecord) => ({
  feature: lock.subject.feature!,
  ...(lock.subject.story ? { story: lock.subject.story } : {}),
  item: lock.subject.item!,
  ...(lock.subject.cycle ? { cycle: lock.subject.cycle } : {}),
});

export interface DecideAmendmentRequest {
  readonly feature: string;
  /** The `test.amendment` record's hash. */
  readonly amendment: string;
  readonly decision: AmendmentDecision;
  readonly note?: string | undefined;
  readonly approver: string;
}

/** A person's decision on a pending amendment: one decision each; a rejection says why; an amendment of a lock since replaced is stale. */
export async function decideAmendment(view: ProjectView, ledger: Ledger, req: DecideAmendmentRequest): Promise<Result<LedgerRecord>> {
  const writable = writableProject(view, 'amendments');
  if (!writable.ok) return writable;
  if (req.approver.trim() === '')
    return err('no-identity', 'A decision on an amendment must say who makes it: give your name and email, e.g. "Ada Lovelace <ada@example.com>".');
  if (!(AMENDMENT_DECISIONS as readonly string[]).includes(req.decision))
    return err('invalid-request', `"${req.decision}" is not a decision on an amendment: use ${AMENDMENT_DECISIONS.join(' or ')}.`);
  // Amendments change what the tests prove: the test_list gate's approvers decide them.
  const refused = await policyRefusal(view, 'test_list', req.approver, signerOf(ledger), "a test amendment (the test_list gate's approvers)");
  if (refused) return refused;
  const note = req.note?.trim() ?? '';
  if (req.decision === 'reject' && note === '')
    return err('no-reason', 'Say why the amendment is rejected: the note is recorded and shown to whoever proposed it.');
  try {
    return await ledger.transaction(async (tx) => {
      const state = foldAmendments(tx.records).find((s) => s.record.hash === req.amendment && s.record.subject.feature === req.feature);
      if (!state) return err('not-found', `No amendment ${req.amendment.slice(0, 12)}… in ${req.feature}. Reload to see its amendments.`);
      if (state.status !== 'pending')
        return err('not-pending', `That amendment was already ${state.status} by ${state.decision?.actor.id ?? 'someone'}. Reload to see its state.`);
      const current = itemLock(tx.records, req.feature, state.record.subject.item ?? '');
      if (req.decision === 'approve' && current?.record.hash !== state.record.data.lock)
        return err(
          'stale-artifact',
          `${state.record.subject.item}'s tests were locked again since this amendment was proposed: reject it and propose it against the current lock.`,
        );
      const record = await tx.append({
        type: RECORD_TYPES.amendmentDecided,
        actor: { kind: 'person', id: req.approver.trim() },
        subject: { ...state.record.subject },
        data: { amendment: state.record.hash, decision: req.decision === 'approve' ? 'approved' : 'rejected', note: note === '' ? null : note },
        blobs: [],
      });
      return ok(record);
    });
  } catch (error) {
    return err('ledger-error', `The decision was not recorded: the ledger could not be written (${(error as Error).message}). Nothing changed; try again.`);
  }
}

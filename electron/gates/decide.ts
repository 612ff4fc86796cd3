/**
 * Gate decisions, fail closed. Each is one ledger transaction: the lock is held while the ledger is
 * re-folded, the disk re-read and re-hashed, the rules checked and the record appended, so two
 * people approving the same gate at once produce one approval and one refusal.
 */
import { discardRefusal } from './discard';
import { type GateName, type HashAlgorithm, type LedgerRecord } from '../../shared/ledger';
import { RECORD_TYPES, recordOf } from '../../shared/records';
import type { ProjectView } from '../../shared/model';
import { err, ok, type AppError, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import { nameProblem, noteProblem, visible } from '../../shared/text-input';
import { policyRefusal, signerOf } from './policy';
import type { Ledger, LedgerTx } from '../ledger';
import { readProject } from '../project';
import { currentHashes, describeRef, locateGate, snapshotArtifacts, type GateRef, type LocatedGate } from './artifacts';
import { approvalBlocker, staleError } from './checks';
import { unprovenAcs } from './acceptance-proof';
import { downstreamOf, PREREQUISITE } from './definitions';
import { approvalDrift } from './drift';
import { foldGates, gateKey } from './state';

export interface ApproveRequest extends GateRef {
  readonly approver: string;
  /** Artifact name → the sha256 the person was shown. */
  readonly expect: Readonly<Record<string, string>>;
  readonly comment?: string | undefined;
  /** How long the person had the evidence open before deciding, as their screen measured it. */
  readonly viewedMs?: number | undefined;
  /** Approve with exceptions (acceptance only): every unproven AC named, and why it is accepted anyway. */
  readonly exceptions?: { readonly acs: readonly string[]; readonly reason: string } | undefined;
}

export interface ReasonedRequest extends GateRef {
  readonly approver: string;
  readonly reason: string;
  readonly viewedMs?: number | undefined;
  /** Reject only: drop the story (a story's acceptance) instead of revising it. */
  readonly discard?: boolean | undefined;
}

/**
 * Whether `r` brought (part of) the evidence the gate is decided on: the design role's turn that
 * wrote the gate's artifacts, a finished item of the story or the merged suite (acceptance), the
 * deploy (deploy). The promote gate's evidence is the deploy gate's approval, its prerequisite.
 */
const bringsEvidence = (r: LedgerRecord, ref: GateRef): boolean => {
  if (ref.gate === 'acceptance')
    return (r.type === RECORD_TYPES.cycleFinished && (r.subject.story ?? null) === (ref.story ?? null)) || r.type === RECORD_TYPES.featureVerified;
  if (ref.gate === 'deploy') return r.type === RECORD_TYPES.deployRan;
  return ref.gate !== 'promote' && recordOf(r, RECORD_TYPES.designTurn)?.data.gate === ref.gate;
};

/**
 * When the gate became decidable for this decision: the latest of its prerequisite's approval, its
 * own latest rejection or withdrawal (it reopened then), its newest evidence (so the time a build
 * took is not counted as the person's), or, for the spec gate, the feature's request; null when
 * the ledger says none of these. With how long it waited and how long the evidence was open.
 */
const timing = (records: readonly LedgerRecord[], ref: GateRef, viewedMs: number | undefined) => {
  const pre = PREREQUISITE[ref.gate];
  const opened = records
    .filter(
      (r) =>
        r.subject.feature === ref.feature &&
        ((pre !== null && r.type === RECORD_TYPES.gateApproved && r.subject.gate === pre) ||
          ((r.type === RECORD_TYPES.gateRejected || r.type === RECORD_TYPES.gateWithdrawn) &&
            r.subject.gate === ref.gate &&
            (r.subject.story ?? null) === (ref.story ?? null)) ||
          (pre === null && r.type === RECORD_TYPES.featureRequested) ||
          bringsEvidence(r, ref)),
    )
    .map((r) => r.at)
    .sort()
    .at(-1);
  return {
    ...(opened ? { openedAt: opened, waitedMs: Math.max(0, Date.now() - Date.parse(opened)) } : {}),
    ...(viewedMs !== undefined ? { viewedMs } : {}),
  };
};

const refuse = (error: AppError): Result<never> => ({ ok: false, error });

/** What every decision needs before the ledger is touched: a writable project and a person. */
const preflight = (view: ProjectView, req: GateRef & { approver: string }): Result<never> | null => {
  const writable = writableProject(view, 'gates');
  if (!writable.ok) return writable;
  if (req.approver.trim() === '') {
    return err('no-identity', `A decision on ${describeRef(req)} must say who makes it: give your name and email, e.g. "Ada Lovelace <ada@example.com>".`);
  }
  // The contract refuses these words already; a caller in main (or a test) meets the same rule here.
  const badName = nameProblem(req.approver);
  return badName === null ? null : err('invalid-request', `${badName} Nothing was recorded.`);
};

/**
 * The names in `expect` must be artifacts of the gate: a name it does not cover (or a prototype key
 * such as `__proto__`) is refused, naming what the gate does cover.
 */
const unknownExpected = (ref: GateRef, expect: Readonly<Record<string, string>>, names: readonly string[]): Result<never> | null => {
  const covered = new Set(names);
  const unknown = Reflect.ownKeys(expect).filter((key) => typeof key !== 'string' || !covered.has(key));
  if (unknown.length === 0) return null;
  const listed = unknown.map((key) => `"${visible(String(key))}"`).join(', ');
  return err(
    'stale-artifact',
    `Cannot approve ${describeRef(ref)}: ${listed} ${unknown.length === 1 ? 'is' : 'are'} not among its artifacts, which are ${names.join(', ') || 'none'}. Reload the evidence, review it again and approve what you see.`,
  );
};

export const subjectOf = (ref: GateRef) => ({ feature: ref.feature, ...(ref.story ? { story: ref.story } : {}), gate: ref.gate });

/** Runs `fn` holding the ledger's writer lock; a ledger failure becomes an error Result, never a throw. */
const inTransaction = async (ledger: Ledger, fn: (tx: LedgerTx) => Promise<Result<LedgerRecord>>): Promise<Result<LedgerRecord>> => {
  try {
    return await ledger.transaction(fn);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return err('ledger-error', `The decision was not recorded: the ledger could not be written (${why}). Nothing changed; try again.`);
  }
};

/** The disk as it is inside the lock: the caller's view may be older. */
const freshView = async (view: ProjectView): Promise<Result<ProjectView>> => readProject(view.root);

/**
 * Every decision on a gate's files starts the same way: a writable project and a named person, then,
 * holding the ledger's lock, the disk re-read and the gate located in it. `fn` decides from there.
 */
export const decideOnDisk = (
  view: ProjectView,
  ledger: Ledger,
  req: GateRef & { approver: string },
  fn: (tx: LedgerTx, located: LocatedGate, current: ProjectView) => Promise<Result<LedgerRecord>>,
): Promise<Result<LedgerRecord>> => {
  const pre = preflight(view, req);
  if (pre) return Promise.resolve(pre);
  return inTransaction(ledger, async (tx) => {
    const current = await freshView(view);
    if (!current.ok) return current;
    const refused = await policyRefusal(current.value, req.gate, req.approver, signerOf(ledger));
    if (refused) return refused;
    const located = await locateGate(current.value, req);
    if (!located.ok) return located;
    return fn(tx, located.value, current.value);
  });
};

export const approveGate = (view: ProjectView, ledger: Ledger, req: ApproveRequest): Promise<Result<LedgerRecord>> =>
  decideOnDisk(view, ledger, req, async (tx, located, current) => {
    const snapshots = await snapshotArtifacts(current, located);
    const excepted = [...new Set(req.exceptions?.acs ?? [])];
    const noReason = req.exceptions ? exceptionReasonError(req, req.exceptions) : null;
    if (noReason) return noReason;
    const blocker = await approvalBlocker(located, req, foldGates(tx.records), snapshots, current.layout, tx.records, excepted);
    if (blocker) return refuse(blocker);
    // Recorded with why each AC was unproven at the moment it was accepted anyway.
    const unproven = new Map(unprovenAcs(located.feature, req, tx.records).map((ac) => [ac.id, ac.why ?? 'unproven']));
    const exceptions = req.exceptions
      ? { exceptions: excepted.map((ac) => ({ ac, why: unproven.get(ac) ?? 'unproven' })), exceptionReason: req.exceptions.reason.trim() }
      : {};
    const unknown = unknownExpected(req, req.expect, located.names);
    if (unknown) return unknown;
    // A prototype-less copy: a name is looked up as an own key, never found on Object.prototype.
    const expect: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, req.expect);
    const stale = staleError(req, expect, currentHashes(snapshots));
    if (stale) return refuse(stale);
    const approver = req.approver.trim();
    const comment = req.comment?.trim();
    const badNote = comment ? noteProblem(comment, 'The note') : null;
    if (badNote) return err('invalid-request', `${badNote} Nothing was recorded.`);
    const entries: [string, { sha256: string; algorithm: HashAlgorithm }][] = [];
    const blobs: { name: string; content: Uint8Array }[] = [];
    for (const s of snapshots) {
      // approvalBlocker has refused every missing or unreadable artifact, so each one has bytes here.
      if (s.hash === null || s.file.state !== 'ok') return err('missing-artifact', `${s.name} could not be read; nothing was approved.`);
      entries.push([s.name, { sha256: s.hash.sha256, algorithm: s.hash.algorithm }]);
      blobs.push({ name: s.name, content: s.file.bytes });
    }
    // Own properties whatever the names (fromEntries defines them; it never assigns through a prototype).
    const artifacts = Object.fromEntries(entries);
    const record = await tx.append({
      type: RECORD_TYPES.gateApproved,
      actor: { kind: 'person', id: approver },
      subject: subjectOf(req),
      data: { gate: req.gate, approver, ...(comment ? { comment } : {}), artifacts, ...exceptions, ...timing(tx.records, req, req.viewedMs) },
      blobs,
    });
    return ok(record);
  });

/** An approval with exceptions names at least one AC and says why, in words a note may hold. */
const exceptionReasonError = (ref: GateRef, exceptions: NonNullable<ApproveRequest['exceptions']>): Result<never> | null => {
  if (exceptions.acs.length === 0)
    return err('invalid-request', `An approval of ${describeRef(ref)} with exceptions must name each unproven AC it accepts anyway. Nothing was recorded.`);
  if (exceptions.reason.trim() === '')
    return err(
      'no-reason',
      `To approve ${describeRef(ref)} with exceptions, say why the unproven ACs are accepted anyway: the reason is recorded with the approval and shown for good.`,
    );
  const bad = noteProblem(exceptions.reason.trim(), 'The reason');
  return bad === null ? null : err('invalid-request', `${bad} Nothing was recorded.`);
};

const reasonError = (req: ReasonedRequest, verb: string): Result<never> | null => {
  if (req.reason.trim() === '')
    return err('no-reason', `To ${verb} ${describeRef(req)}, say why: the reason is recorded with the decision and shown to the team.`);
  const bad = noteProblem(req.reason);
  return bad === null ? null : err('invalid-request', `${bad} Nothing was recorded.`);
};

export const rejectGate = (view: ProjectView, ledger: Ledger, req: ReasonedRequest): Promise<Result<LedgerRecord>> =>
  decideOnDisk(view, ledger, req, async (tx, located, current) => {
    const noReason = reasonError(req, 'reject');
    if (noReason) return noReason;
    const cannotDiscard = req.discard ? await discardRefusal(view.root, req) : null;
    if (cannotDiscard) return cannotDiscard;
    const fold = foldGates(tx.records).get(gateKey(req));
    if (fold?.status === 'approved' && fold.approval) {
      const { site, names } = located;
      const drift = await approvalDrift(site.root, site.featureDir, fold.approval.artifacts, names);
      if (drift.length === 0)
        return err('already-approved', `${describeRef(req)} is approved and unchanged; to take the approval back, withdraw it (with a reason) instead.`);
    }
    const snapshots = await snapshotArtifacts(current, located);
    // The hashes of what was rejected, so a later approval can be compared with it.
    const artifacts = Object.fromEntries(snapshots.flatMap((s) => (s.hash ? [[s.name, { sha256: s.hash.sha256, algorithm: s.hash.algorithm }]] : [])));
    const approver = req.approver.trim();
    return ok(
      await tx.append({
        type: RECORD_TYPES.gateRejected,
        actor: { kind: 'person', id: approver },
        subject: subjectOf(req),
        data: {
          gate: req.gate,
          approver,
          reason: req.reason.trim(),
          artifacts,
          ...(req.discard ? { discard: true } : {}),
          ...timing(tx.records, req, req.viewedMs),
        },
        // What was sent back, so the revised version can be compared with it.
        blobs: snapshots.flatMap((s) => (s.file.state === 'ok' ? [{ name: s.name, content: s.file.bytes }] : [])),
      }),
    );
  });

export const withdrawGate = async (view: ProjectView, ledger: Ledger, req: ReasonedRequest): Promise<Result<LedgerRecord>> => {
  const pre = preflight(view, req) ?? reasonError(req, 'withdraw');
  if (pre) return pre;
  return inTransaction(ledger, async (tx) => {
    const refused = await policyRefusal(view, req.gate, req.approver, signerOf(ledger));
    if (refused) return refused;
    const folds = foldGates(tx.records);
    const fold = folds.get(gateKey(req));
    if (fold?.status !== 'approved') {
      // An approval of a feature or story since deleted can still be withdrawn; anything else must exist.
      const located = await locateGate(view, req);
      if (!located.ok) return located;
      return err('not-approved', `${describeRef(req)} is ${fold?.status ?? 'open'}, not approved: only an approved (or drifted) gate can be withdrawn.`);
    }
    const reopened = downstreamOf(req.gate).filter((gate: GateName) =>
      [...folds.values()].some((f) => f.feature === req.feature && f.gate === gate && f.status === 'approved'),
    );
    const approver = req.approver.trim();
    return ok(
      await tx.append({
        type: RECORD_TYPES.gateWithdrawn,
        actor: { kind: 'person', id: approver },
        subject: subjectOf(req),
        data: { gate: req.gate, approver, reason: req.reason.trim(), reopened },
      }),
    );
  });
};

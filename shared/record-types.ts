/**
 * Every record type Baton writes: everything else names a type through this table. Their schemas
 * are in shared/records.ts; this table stays free of them so the CLI can name a type without
 * loading zod.
 */
export const RECORD_TYPES = {
  gateApproved: 'gate.approved',
  gateRejected: 'gate.rejected',
  gateWithdrawn: 'gate.withdrawn',
  /** A person put a drifted gate's approved files back from their frozen blobs. */
  gateRestored: 'gate.restored',
  /** The orchestrator took up a rejection: the work it sent back is being redone and the gate waits for a new decision. */
  gateRevising: 'gate.revising',
  ledgerRepaired: 'ledger.repaired',
  /** The cycle (issue 5): each step's verdict, the lock, violations, the item's status, the end. */
  cyclePlanned: 'cycle.planned',
  cycleRed: 'cycle.red',
  cycleLocked: 'cycle.locked',
  cycleGreen: 'cycle.green',
  cycleGreened: 'cycle.greened',
  cycleViolation: 'cycle.violation',
  cycleRefactored: 'cycle.refactored',
  cycleReviewed: 'cycle.reviewed',
  /** A Driver's dependency requests and what the orchestrator did with them: the audited amendment of the locked manifest. */
  cycleDependencies: 'cycle.dependencies',
  /**
   * Mutation testing of an item's GREEN (issue 30): the changed lines of its code mutated one at a
   * time on the GREEN commit's tree, the item's locked tests run against each; what they killed, what survived.
   */
  cycleMutated: 'cycle.mutated',
  cycleFinished: 'cycle.finished',
  itemStatus: 'item.status',
  /** A run stopped before a step because an approved gate it depends on drifted (or was withdrawn). */
  runBlocked: 'run.blocked',
  /** Branch pairs (issue 4): names, parent, provider, masking, migrations and timings; never a connection URL. */
  branchCreated: 'branch.created',
  branchReset: 'branch.reset',
  branchDeleted: 'branch.deleted',
  branchCollected: 'branch.collected',
  branchAdopted: 'branch.adopted',
  branchMigrated: 'branch.migrated',
  /** Once acceptance is approved: a story's experiment branch merged into the feature branch (its pair then removed). */
  storyMerged: 'story.merged',
  /** A story dropped at acceptance (the PO's discard, taken up by the orchestrator): its items set aside, its experiment pair removed. */
  storyDiscarded: 'story.discarded',
  /**
   * After acceptance merged the stories: the merged feature branch's whole suite, run by the orchestrator
   * twice on a fresh database with every migration applied in file order (issue 30), or the GREEN run
   * that already tested that very tree. A failure stops the run before the deploy and the deploy gate.
   */
  featureVerified: 'feature.verified',
  /** `baton eval` (issue 36): one evaluation run's result, its held-out verdict included, in the run's own ledger. */
  evalRun: 'eval.run',
  deployRan: 'deploy.ran',
  /**
   * A promotion's intent, written before it moves anything (issue 32): the tier, both commits, the
   * tier database and the snapshot it will take. One with no `promote.done` or `promote.rolledback`
   * after it was interrupted, and is rolled back before the feature is promoted again.
   */
  promoteStarted: 'promote.started',
  promoteDone: 'promote.done',
  promoteRolledBack: 'promote.rolledback',
  /** A person allowed an item's code that tells a test run apart (issue 30): the tells' ids, with a reason. */
  tellsAllowed: 'tells.allowed',
  /** A person's decision on an escalated cycle (issue 5): retry, skip or abandon. */
  escalationDecided: 'escalation.decided',
  /** Intake (issue 14): a person's one-paragraph request for a new feature, with its attachments as blobs. */
  featureRequested: 'feature.requested',
  /** A design-phase role's turn: the files it wrote, or why its artifact was refused. */
  designTurn: 'design.turn',
  /** A design role's artifact was refused twice: the lifecycle escalates to a person. */
  designEscalated: 'design.escalated',
  /** A proposed change to an item's locked tests (issue 14): the new contents as `amended/<path>` blobs, the reason, the lock it would replace. */
  testAmendment: 'test.amendment',
  /** A person's decision on a proposed test amendment: approved (the item runs again against it) or rejected (the lock stays). */
  amendmentDecided: 'test.amendment.decided',
} as const;

/** A record type Baton writes. A reader may meet others (a Consort project's, a newer Baton's). */
export type RecordType = (typeof RECORD_TYPES)[keyof typeof RECORD_TYPES];

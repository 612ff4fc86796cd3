/**
 * View models: what main sends to the renderer and what `baton inspect` summarises.
 * Field names follow Consort's artifacts where they exist so a project can move between the tools.
 */
import type { ApproverProof } from './approvers';
import type { DriftEntry } from './ledger';
import type { CycleCounts } from './cycle-counts';

export const LAYOUTS = ['baton', 'consort', 'sftdd'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** `escalated`: the orchestrator gave up on the item's cycle and asks a person (never read from a test list, only from the ledger). */
export const TEST_STATUSES = ['pending', 'red', 'green', 'refactored', 'escalated', 'skipped'] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

export const TEST_KINDS = ['behavior', 'fitness', 'client'] as const;
export type TestKind = (typeof TEST_KINDS)[number];

/** The statuses a gate has on disk (Consort's gates.json; Baton's ledger folds to the same words). */
export const GATE_STATUSES = ['open', 'approved', 'superseded', 'withdrawn'] as const;
/**
 * What a person sees: the stored status, or `rejected` (a Product Owner sent it back, reason in the
 * ledger) or `drifted` (approved, but an approved artifact's hash no longer matches the disk).
 */
export type GateStatus = (typeof GATE_STATUSES)[number] | 'rejected' | 'drifted';

export const STORY_STATUSES = ['designing', 'awaiting-gate', 'ready', 'building', 'awaiting-acceptance', 'done', 'discarded'] as const;
/**
 * `unknown` when no pipeline.json entry names the story. A Baton story's status is what its ledger
 * proves (gates/annotate-stories.ts), which adds `accepted` and `shipped`.
 */
export type StoryStatus = (typeof STORY_STATUSES)[number] | 'accepted' | 'shipped' | 'unknown';

/** A located problem: the file (relative to the project root, `/`-separated) and what is wrong. */
export interface Problem {
  readonly file: string;
  readonly message: string;
}

export interface AcceptanceCriterion {
  readonly id: string;
  readonly title: string;
  readonly given: string;
  readonly when: string;
  readonly then: string;
}

export interface Experiment {
  readonly branch: string;
  readonly parent: string | null;
  readonly status: string | null;
}

export interface Story {
  readonly id: string;
  readonly title: string;
  readonly asA: string;
  readonly iWant: string;
  readonly soThat: string;
  readonly status: StoryStatus;
  readonly experiment: Experiment | null;
  readonly acs: readonly AcceptanceCriterion[];
}

export interface TestItem {
  readonly id: string;
  readonly description: string;
  readonly acId: string;
  /** The story whose acceptance criteria include `acId`, when one does. */
  readonly storyId: string | null;
  readonly status: TestStatus;
  readonly kind: TestKind | null;
  readonly scenarioFile: string | null;
  readonly invariantId: string | null;
}

export interface GateArtifact {
  readonly name: string;
  readonly sha256: string;
  /**
   * `reference`: the hash of a value rather than of a file (Consort's promote gate hashes
   * `promote_ref`, the branch that was promoted). A reference never drifts: there is no file to change.
   */
  readonly kind: 'file' | 'reference';
}

/**
 * Why a gate that waits for a decision cannot be decided yet (the same checks an approval runs):
 * an earlier gate comes first, its evidence or artifacts are missing or invalid, it was withdrawn
 * and nothing changed since, or the project is read-only.
 */
/** An acceptance approved with exceptions: each unproven AC and why, and the approver's reason. */
export interface GateExceptions {
  readonly acs: readonly { readonly ac: string; readonly why: string }[];
  readonly reason: string;
}

export interface GateBlock {
  /** `unproven`: a story's ACs lack proof; only an approval with exceptions (or the proof) can pass it. */
  readonly kind: 'earlier-gate' | 'evidence' | 'artifacts' | 'unchanged' | 'read-only' | 'amendment' | 'unproven';
  /** The earlier gate, for `earlier-gate`. */
  readonly gate: string | null;
  readonly message: string;
}

export interface Gate {
  /** spec | plan | design | test_list | acceptance | deploy | promote (as named on disk). */
  readonly name: string;
  readonly status: GateStatus;
  readonly approver: string | null;
  readonly approvedAt: string | null;
  readonly artifacts: readonly GateArtifact[];
  /** Set for per-story gates (acceptance, sprint gates). */
  readonly story: string | null;
  /** Approved artifacts whose current hash differs from the approved one (empty unless drifted). */
  readonly drift: readonly DriftEntry[];
  /** The approver's comment, or the reason of the latest rejection or withdrawal. */
  readonly note: string | null;
  /** Baton, while the gate is rejected or withdrawn: who sent it back or took the approval back, and when. */
  readonly decidedBy?: { readonly who: string; readonly at: string };
  /** When the gate started waiting for a decision (its artifacts' latest change), for the inbox order. */
  readonly pendingSince: string | null;
  /** Set when the gate waits for a decision that cannot be made yet; null when it can be (or waits for nothing). */
  readonly blockedBy: GateBlock | null;
  /** Who may decide it (emails, roles expanded) when project.json's `gates` names them; absent: anyone. */
  readonly approvers?: readonly string[];
  /** Baton: the ledger record of the approval in force. */
  readonly approvalSeq?: number;
  /** Baton: the approval in force accepted unproven ACs as exceptions (each with why it was unproven) for `reason`. */
  readonly exceptions?: GateExceptions;
  /**
   * Baton, in a project that signs checkpoints: true when the approval in force comes after the
   * newest valid checkpoint (nobody has signed for it yet). Absent when the project signs nothing.
   */
  readonly unsigned?: boolean;
  /** Baton: how far the approval in force proves who made it (signed by their key, typed, or unauthenticated). */
  readonly approverProof?: ApproverProof;
  /**
   * Baton, a rejected gate: true while its artifacts are byte for byte what was rejected (its author
   * has not answered: the Inbox lists it under Sent back), false once any changed or was added.
   * Absent when the rejection recorded no hashes.
   */
  readonly sentBack?: boolean;
}

/** What a person may decide about an escalated item: another round, set it aside, or abandon the feature. */
export const ESCALATION_DECISIONS = ['retry', 'skip', 'abandon'] as const;
export type EscalationDecision = (typeof ESCALATION_DECISIONS)[number];

/** An item whose cycle the orchestrator gave up on, waiting for a person (the inbox shows it). */
export interface EscalationView {
  readonly item: string;
  readonly story: string | null;
  /** 1 for the item's first cycle; each `retry` decision starts the next round. */
  readonly round: number;
  readonly reason: string;
  /** The `cycle.finished` record: the evidence of the escalation. */
  readonly record: string;
  readonly at: string;
  readonly repairs: number;
  readonly violations: number;
  readonly rejectedRed: number;
}

/** One file of a test amendment: the locked version it replaces and the new one (both blobs in the ledger). */
export interface AmendedFile {
  readonly path: string;
  /** The new content's SHA-256 (its `amended/<path>` blob). */
  readonly sha256: string;
  /** The locked content's SHA-256 (the lock's `locked/<path>` blob). */
  readonly was: string;
  readonly bytes: number;
}

/** A ledger record a test amendment points at: a run, a verdict or the lock of the cycle that used the old tests. */
export interface AmendmentUse {
  readonly type: string;
  readonly seq: number;
  readonly hash: string;
  readonly at: string;
  readonly verdict: string | null;
}

/** An item's own locked test files, as its latest `cycle.locked` record holds them (each content is a ledger blob by its SHA-256). */
export interface LockedTests {
  readonly item: string;
  /** The `cycle.locked` record's hash, and its cycle. */
  readonly lock: string;
  readonly cycle: string;
  readonly files: readonly { readonly path: string; readonly sha256: string; readonly bytes: number }[];
}

export const AMENDMENT_DECISIONS = ['approve', 'reject'] as const;
export type AmendmentDecision = (typeof AMENDMENT_DECISIONS)[number];

/**
 * A proposed change to an item's locked tests (from the ledger): who proposed it and why, the
 * files, the evidence that used the old version, the decision, and the re-run it started.
 */
export interface AmendmentView {
  /** The `test.amendment` record's hash. */
  readonly id: string;
  readonly seq: number;
  readonly feature: string;
  readonly story: string | null;
  readonly item: string;
  readonly files: readonly AmendedFile[];
  readonly reason: string;
  readonly proposedBy: { readonly kind: string; readonly id: string };
  readonly at: string;
  /** The lock it replaces and that lock's cycle (`F-1/T3`, `F-1/T3#2`). */
  readonly lock: string;
  readonly cycle: string;
  readonly status: 'pending' | 'approved' | 'rejected';
  readonly decidedBy: string | null;
  readonly decidedAt: string | null;
  readonly note: string | null;
  /** The records of the cycle that used the old tests: superseded once the amendment is approved. */
  readonly usedBy: readonly AmendmentUse[];
  /**
   * Approved: `waiting` until the item's next round locks the amended tests, then `locked`, and
   * `green` or `escalated` when that round ends. Null unless approved.
   */
  readonly rerun: 'waiting' | 'locked' | 'green' | 'escalated' | null;
  /** The cycle that re-runs the item against the amended tests, once it has locked them. */
  readonly rerunCycle: string | null;
}

/**
 * One TDD cycle as a person reads it in the card drawer: from the ledger (a Baton cycle, one per
 * item and round) or from a Consort `cycles/<F>/<S>/<AC>/cycle-NNN.json`. Null means "not recorded",
 * never a guess.
 */
export interface CycleRun {
  /** `F-1/T3` or `F-1/T3#2` (a Baton cycle id), or the Consort file's `cycle-001`. */
  readonly id: string;
  readonly source: 'ledger' | 'consort';
  /** The test-list items it covers (a Consort batch cycle covers several); empty when the file names none. */
  readonly items: readonly string[];
  readonly story: string | null;
  readonly ac: string | null;
  /** When the test failed for the right reason, went green, and was refactored. */
  readonly redAt: string | null;
  readonly greenAt: string | null;
  readonly refactoredAt: string | null;
  /** GREEN attempts (1 + repair rounds), when recorded. */
  readonly attempts: number | null;
  /** Its repairs, violations, rejected REDs and refactors (shared/cycle-counts.ts); null when not recorded (a Consort file). */
  readonly counts: CycleCounts | null;
  /** The Navigator's verdict (Consort's `navigator_verdict`, Baton's review decision). */
  readonly verdict: string | null;
  /** The review's outcome in words ("refactor requested: …", "accepted"), when recorded. */
  readonly review: string | null;
  /** How it ended: `done`, `escalated`, `green`, `red`, … */
  readonly outcome: string | null;
  /** The Consort file it was read from, relative to the project root. */
  readonly file: string | null;
  /** The Baton ledger record that ends it (`cycle.finished`), or its latest record while it runs. */
  readonly record: { readonly seq: number; readonly hash: string } | null;
}

/** A cycle shows for the items it names; one that names none (an older Consort file), for every item of its AC. */
export const cycleCovers = (cycle: Pick<CycleRun, 'items' | 'ac'>, item: Pick<TestItem, 'id' | 'acId'>): boolean =>
  cycle.items.length > 0 ? cycle.items.includes(item.id) : cycle.ac !== null && cycle.ac === item.acId;

/** One gate a blocked run depends on, as it is now: drifted, or no longer approved. */
export interface RunBlockGate {
  readonly gate: string;
  readonly story: string | null;
  readonly status: GateStatus;
  readonly drift: readonly DriftEntry[];
  /** The drifted files, relative to the project root. */
  readonly files: readonly string[];
}

/**
 * A run that stopped before a step because a gate it builds on is no longer approved as it stands
 * (a `run.blocked` record), while that is still so: restoring the files, or withdrawing and
 * re-approving the gate, clears it.
 */
export interface RunBlockView {
  /** The `run.blocked` record. */
  readonly record: { readonly seq: number; readonly hash: string; readonly at: string };
  /** The lifecycle state and step the run stopped before, and the item it was about to build. */
  readonly phase: string;
  readonly step: string;
  readonly item: string | null;
  readonly message: string;
  /** The gates it named that are still not approved as they stand, as they are now. */
  readonly gates: readonly RunBlockGate[];
}

export interface Feature {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly stories: readonly Story[];
  readonly testList: readonly TestItem[];
  readonly gates: readonly Gate[];
  /** Number of cycles run: Consort cycle-NNN.json files, or Baton cycles in the ledger. */
  readonly cycles: number;
  /** Those cycles, oldest first. */
  readonly cycleRuns: readonly CycleRun[];
  /** Escalations waiting for a decision, oldest first (from the ledger). */
  readonly escalations: readonly EscalationView[];
  /** Test amendments proposed for its items, oldest first (from the ledger). */
  readonly amendments: readonly AmendmentView[];
  /** Each item's locked tests as its latest lock holds them (what an amendment may change), from the ledger. */
  readonly lockedTests: readonly LockedTests[];
  /** The feature's last run stopped on a drifted or withdrawn gate, and it is still so; else null. */
  readonly runBlock: RunBlockView | null;
}

export interface ProjectView {
  /** Absolute path of the folder the user opened. */
  readonly root: string;
  /** A display name: the name a Consort project gives itself in its own files, else the folder's base name. */
  readonly name: string;
  readonly layout: Layout;
  /** Absolute path of the artifact root (`.baton`, `.consort`, `.sftdd`, or the folder itself). */
  readonly artifactRoot: string;
  /** True when the layout is foreign (Consort) or a bundle: Baton never writes it. */
  readonly readOnly: boolean;
  /** Set when the project was opened from an exported review bundle (`baton export`). */
  readonly bundle: string | null;
  readonly features: readonly Feature[];
  readonly problems: readonly Problem[];
  /**
   * A run another process is making on this project now (it holds the run lock: the CLI, another
   * window): what it does lands on the board as it is recorded, but its live output is not here.
   * Absent when no other process runs.
   */
  readonly runElsewhere?: RunElsewhere;
}

/** Who holds a project's run lock, when it is not this process. */
export interface RunElsewhere {
  readonly pid: number | null;
  readonly host: string | null;
  /** When that run took the lock (ISO time), when it said. */
  readonly since: string | null;
}

export interface RecentProject {
  readonly path: string;
  readonly name: string;
  readonly openedAt: string;
}

export interface AppInfo {
  readonly version: string;
  readonly host: 'electron' | 'browser';
}

/**
 * The ledger's record shape and the gate/verification views built from it (ARCHITECTURE.md,
 * "On-disk layout"). Pure types and constants: the hashing and file I/O live in electron/ledger/.
 */
import type { TestStatus } from './model';
import type { AppErrorCode } from './result';

export type ActorKind = 'orchestrator' | 'agent' | 'person';
export interface Actor {
  readonly kind: ActorKind;
  /** A person: "Name <email>"; an agent: its role and adapter; the orchestrator: "baton". */
  readonly id: string;
}

export interface Subject {
  readonly feature?: string;
  readonly story?: string;
  readonly item?: string;
  readonly cycle?: string;
  readonly gate?: string;
}

export interface BlobRef {
  /** What the blob is to this record, e.g. `feature-spec.json` or `stdout`. */
  readonly name: string;
  /** SHA-256 of the blob's (uncompressed) content; also its file name under ledger/blobs/. */
  readonly sha256: string;
  readonly bytes: number;
}

/**
 * One line of `.baton/ledger/events.jsonl`. `hash` is SHA-256 of the RFC 8785 canonical JSON of
 * the record without `hash`; `prev` is the previous record's `hash`, or GENESIS_HASH for seq 1.
 */
export interface LedgerRecord {
  readonly seq: number;
  readonly at: string;
  readonly type: string;
  readonly actor: Actor;
  readonly subject: Subject;
  readonly data: Readonly<Record<string, unknown>>;
  readonly blobs: readonly BlobRef[];
  readonly prev: string;
  readonly hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

export type HashAlgorithm = 'jcs-sha256' | 'text-sha256';

/** Baton's gates, in the order a feature passes them. `acceptance` is per story. */
export const GATE_NAMES = ['spec', 'design', 'test_list', 'acceptance', 'deploy', 'promote'] as const;
export type GateName = (typeof GATE_NAMES)[number];

/** The gate each gate needs approved first (fail closed: no prerequisite, no approval). */
export const PREREQUISITE: Readonly<Record<GateName, GateName | null>> = {
  spec: null,
  design: 'spec',
  test_list: 'design',
  acceptance: 'test_list',
  deploy: 'test_list',
  promote: 'deploy',
};

export interface DriftEntry {
  /** Artifact path relative to the feature folder, `/`-separated (as in Consort's artifact_hashes). */
  readonly artifact: string;
  /** The approved hash; null for a file the gate now covers that was not part of the approval. */
  readonly expected: string | null;
  /** null when the artifact is gone. */
  readonly actual: string | null;
}

export interface VerifyProblem {
  readonly file: string;
  readonly seq?: number;
  readonly message: string;
}

/** signed: every checkpoint verifies, by trusted keys; untrusted: valid, but a signer is on no trusted list. */
export type SignatureState = 'signed' | 'unsigned' | 'invalid' | 'untrusted';

/** The signed checkpoints (electron/ledger/signing.ts) as verify judged them. */
export interface CheckpointSummary {
  readonly count: number;
  /** The newest valid checkpoint's record; null when none. */
  readonly signedSeq: number | null;
  /** Records after it, which nobody has signed for. */
  readonly unsignedTail: number;
  readonly untrustedKeys: readonly string[];
  readonly message: string | null;
}

/** `baton verify --json`. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly records: number;
  readonly head: string | null;
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number };
  readonly gates: readonly {
    readonly feature: string;
    readonly story?: string;
    readonly gate: string;
    readonly status: string;
    readonly drift: readonly DriftEntry[];
    /** Hashed names that are references, not files (Consort's `promote_ref`): never drift. */
    readonly references?: readonly string[];
  }[];
  readonly signature: SignatureState;
  readonly checkpoints?: CheckpointSummary;
  /** Who made each approval, as far as signatures prove it (electron/core/approver-proofs.ts). */
  readonly approvals?: ApprovalSummary;
  /** `--strict`: what made a strict verify fail beyond the problems (no trusted checkpoint, an unsigned tail). */
  readonly strict?: readonly string[];
  readonly problems: readonly VerifyProblem[];
}

/** The approvals in the ledger by how far they prove who made them (shared/approvers.ts `approverProof`). */
export interface ApprovalSummary {
  readonly signed: number;
  /** Under no policy, and not signed by a key listed for the approver: a typed name, trusted as today. */
  readonly typed: number;
  /** Under a policy, and unsigned, signed by a key it does not list, or with a signature that fails. */
  readonly unauthenticated: readonly { readonly seq: number; readonly gate: string; readonly approver: string; readonly why: string }[];
}

/** One artifact as the approver sees it: the current text, and what was approved before. */
export interface EvidenceArtifact {
  /** Path relative to the feature folder, `/`-separated (e.g. `feature-spec.json`, `stories/S-1/story.json`). */
  readonly name: string;
  readonly algorithm: HashAlgorithm;
  /** Current hash; null when the file is missing. */
  readonly sha256: string | null;
  /** Current text (null when missing or binary). */
  readonly text: string | null;
  /** Why this artifact cannot be approved (missing, malformed, schema-invalid), or null. */
  readonly problem: string | null;
  /** The previously approved version (frozen blob), if any. */
  readonly approved: { readonly sha256: string; readonly text: string | null; readonly approvedAt: string; readonly approver: string } | null;
  /**
   * Never approved at this gate, but this very version (same hash) is approved at another gate of the
   * feature in force now (an AC approved with the spec, shown at acceptance); absent otherwise.
   */
  readonly approvedElsewhere?: { readonly gate: string; readonly sha256: string; readonly approvedAt: string; readonly approver: string } | null;
  /** The version a person sent back (the gate's latest decision is a rejection), to compare the revision with; absent otherwise. */
  readonly sentBack?: { readonly sha256: string; readonly text: string | null; readonly at: string; readonly by: string; readonly reason: string } | null;
}

/** A ledger record a screen can link to (`#/evidence/<seq>`). */
export interface RecordRef {
  readonly seq: number;
  readonly hash: string;
  readonly at: string;
}

/** One test-list item as the evidence shows it: its status and what proves it, all from the ledger. */
export interface ItemProof {
  readonly id: string;
  readonly description: string;
  readonly acId: string;
  readonly storyId: string | null;
  readonly status: TestStatus;
  /** Cycles (rounds) run for it. */
  readonly cycles: number;
  /** Null when not recorded (a foreign project's files keep no such count). */
  readonly repairs: number | null;
  readonly violations: number | null;
  readonly rejectedRed: number | null;
  /** The orchestrator's GREEN attestation (`cycle.greened`) with the commit it made; null when it never went green. */
  readonly green: (RecordRef & { readonly commit: string | null }) | null;
  /**
   * The orchestrator's test runs behind its verdicts that ran without the sandbox (bubblewrap
   * missing, or `"sandbox": "off"`): code under test could read the machine and reach the network
   * there, so those verdicts prove less. Null when not recorded (a foreign project).
   */
  readonly unsandboxedRuns: readonly RecordRef[] | null;
  /**
   * Mutation testing of its GREEN (issue 30): the share of mutants of its changed lines its tests
   * killed, the mutants that survived, and whether the score is below the project's `minScore`
   * (`weak`). Null when none is recorded (not yet, turned off, never GREEN, a foreign project).
   */
  readonly mutation: MutationProof | null;
  /** The orchestrator's last test run for it: the step, its verdict and its totals. */
  readonly lastRun:
    (RecordRef & { readonly step: string; readonly verdict: string | null; readonly passed: number | null; readonly failed: number | null }) | null;
}

/** An item's mutation score, as its `cycle.mutated` record says. */
export interface MutationProof extends RecordRef {
  readonly score: number | null;
  readonly minScore: number;
  readonly tested: number;
  readonly killed: number;
  readonly survived: readonly SurvivedMutant[];
  /** Below `minScore`: its tests let too many changes of its code pass. */
  readonly weak: boolean;
  /** The strengthening round's part (mutation/strengthen.ts): survivors its added tests killed, whether they were kept, why it fell short. */
  readonly strengthened?: { readonly killed: number; readonly kept: boolean; readonly why: string | null };
  /**
   * After an approved test amendment: the score of the tests it replaced (the item's last mutation
   * record before the amendment's lock), side by side with this one; `weaker` when the new score is lower.
   */
  readonly replaced?: { readonly seq: number; readonly score: number | null; readonly amendmentSeq: number; readonly weaker: boolean };
}

/**
 * A mutant of an item's code its tests did not kill: the file, the 1-based line and column of the
 * replaced span, the mutation (arithmetic, equality, boundary, relational, logical, boolean,
 * negation, unary, update, condition, block, string, math), the code before and after.
 */
export interface SurvivedMutant {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly operator: string;
  readonly original: string;
  readonly replacement: string;
}

/** One acceptance criterion and the items that cover it. */
export interface AcProof {
  readonly id: string;
  readonly title: string;
  readonly storyId: string | null;
  readonly items: readonly string[];
  /** Every covering item is green or refactored with a GREEN record and tests that are not weak (never true with no items). */
  readonly proven: boolean;
  /** Why it is not proven, in a PO's words ("T3 is escalated"); null when it is. */
  readonly why: string | null;
}

/**
 * What a feature (or, for an acceptance gate, a story) has been shown to do: folded from the
 * ledger's records for a Baton project, read from the test list and cycle files for a Consort one.
 * The artifacts on disk are used for their hashes only, never for statuses.
 */
export interface EvidenceSummary {
  readonly feature: string;
  /** Set when the summary covers one story (its acceptance gate). */
  readonly story: string | null;
  /** Where the statuses come from: Baton's ledger, or a foreign project's own files. */
  readonly source: 'ledger' | 'files';
  readonly testItems: number;
  readonly byStatus: Readonly<Partial<Record<TestStatus, number>>>;
  readonly cycles: number;
  /** Null when not recorded (a foreign project's files keep no such count): never a made-up zero. */
  readonly repairs: number | null;
  readonly violations: number | null;
  readonly rejectedRed: number | null;
  /** Escalations waiting for a person. */
  readonly escalations: number;
  /** Ledger records about this feature (or story). */
  readonly records: number;
  readonly lastRecordAt: string | null;
  readonly items: readonly ItemProof[];
  readonly acs: readonly AcProof[];
  /** Packages the orchestrator added at a Driver's request, in code that went GREEN (the manifest amendments). */
  readonly dependencies: readonly DependencyProof[];
}

/** One package added to the manifest for an item, and the record of the amendment. */
export interface DependencyProof {
  readonly item: string;
  readonly name: string;
  readonly spec: string;
  readonly version: string;
  readonly dev: boolean;
  readonly record: RecordRef;
}

/** Everything a Product Owner needs to decide one gate. */
export interface GateEvidence {
  readonly feature: string;
  readonly story: string | null;
  readonly gate: string;
  readonly status: string;
  readonly artifacts: readonly EvidenceArtifact[];
  readonly summary: EvidenceSummary;
  /** Gate conformance failures (spec, design, test_list in Baton's layout): each blocks approval. */
  readonly conformance: readonly string[];
  /**
   * Whether an approval could succeed now, and if not why (fail closed). `code` is the refusal's
   * (`unproven`: only unproven ACs stand in the way, so "Approve with exceptions" naming each of
   * `summary.acs` that is not proven can pass it).
   */
  readonly approvable: { readonly ok: boolean; readonly reason: string | null; readonly code?: AppErrorCode | null };
}

export interface LedgerPage {
  readonly total: number;
  readonly offset: number;
  /** Oldest first, `limit` records from `offset`. */
  readonly records: readonly LedgerRecord[];
  readonly head: string | null;
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number };
  readonly problems: readonly VerifyProblem[];
}

/** A blob is read a page at a time (`ledger:blob`): this much unless asked otherwise, never more than the maximum. */
export const BLOB_PAGE_BYTES = 256 * 1024;
export const MAX_BLOB_PAGE_BYTES = 1024 * 1024;

/** One page of a blob's content: `length` bytes from byte `offset`. */
export interface BlobView {
  readonly sha256: string;
  /** The blob's whole size, as its record states. */
  readonly bytes: number;
  /** Where this page starts, in bytes of content. */
  readonly offset: number;
  /** How many bytes of content the page holds (a text page ends on a whole UTF-8 character). */
  readonly length: number;
  /** The content's size as read, when the read reached its end; null when the page stopped before it. */
  readonly total: number | null;
  /** The page as UTF-8 text, or null when it is binary. */
  readonly text: string | null;
  /** Content follows this page: the next one starts at `offset + length`. */
  readonly more: boolean;
  /** The page is not the whole content (content comes before it or after it). */
  readonly truncated: boolean;
}

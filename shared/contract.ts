/**
 * The one contract between the renderer and main: every invoke channel (`domain:verb`) with its
 * request schema and response type, and every pushed event (`domain:happened`).
 * Both transports (Electron IPC and the browser host's WebSocket) carry exactly this.
 * Add a channel here and nowhere else; the preload and the host derive their allow-lists from it.
 */
import { z } from 'zod';
import type { BranchCreated, BranchListView, BranchPairView, BranchProgress, PairMigrations, ProviderKind, SchemaDiff } from './branches';
import { GATE_NAMES, MAX_BLOB_PAGE_BYTES, type BlobView, type GateEvidence, type LedgerPage, type LedgerRecord, type VerifyReport } from './ledger';
import { AMENDMENT_DECISIONS, ESCALATION_DECISIONS, type AppInfo, type ProjectView, type RecentProject } from './model';
import type { Result } from './result';
import type { RunFeedEvent, RunStateView } from './run';
import { CHANNEL_NAMES, EVENT_NAMES, type Channel, type EventName } from './channel-names';
import { AGENT_ROLES, agentConfigSchema, type AgentCheck, type AgentSettingsView } from './agents';
import { textProblem, type TextKind } from './text-input';
import type { MetricsScreen } from './metrics/screen';
import { settingsChangesSchema, type ProjectSettingsView, type SettingsIssue } from './project-settings';

export { BRIDGE_KEY, isChannel, isEventName, type Channel, type EventName } from './channel-names';

/** A phantom marker for a response type: carries the type, holds no value at run time. */
const returns = <T>(): T => undefined as unknown as T;

const empty = z.object({}).strict();

/** A filesystem path typed by a person or picked in a dialog: non-empty, no NUL bytes. */
const pathSchema = z
  .string()
  .min(1, 'path is empty')
  .max(4096, 'path is longer than 4096 characters')
  .refine((p) => !p.includes('\0'), 'path contains a NUL byte');

const id = z.string().min(1, 'is empty').max(200, 'is longer than 200 characters');
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'is not a lowercase hex SHA-256');
/** A person's words as shared/text-input.ts accepts them: no control characters that could steer a terminal, bounded length. */
const words = (kind: TextKind, what: string) => (value: string, ctx: z.RefinementCtx) => {
  const problem = textProblem(value, kind, what);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
};
/** Who decides: "Name <email>" or any non-empty name a person confirmed; one line, no control characters. */
const approver = z.string().trim().min(1, 'is required: say who approves').superRefine(words('name', 'The approver name'));
const gateRef = { feature: id, story: id.optional(), gate: z.enum(GATE_NAMES) };
const reason = z.string().trim().min(1, 'is required').superRefine(words('note', 'The reason'));
/** An optional note (an approval's comment, a decision's note): the same rules as a reason. */
const note = z.string().superRefine(words('note', 'The note')).optional();
/** Approve with exceptions: each unproven AC the approval accepts anyway, and why. */
const exceptions = z.object({ acs: z.array(id).min(1, 'names no AC').max(500, 'names more than 500 ACs'), reason }).strict();
/** Names no artifact can have: refused, never silently dropped (zod leaves a `__proto__` key out of a record). */
const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];
const noReservedKey = (raw: unknown): boolean =>
  typeof raw !== 'object' || raw === null || !Reflect.ownKeys(raw).some((key) => typeof key === 'string' && RESERVED_KEYS.includes(key));
const RESERVED_MESSAGE = 'names __proto__, constructor or prototype, which is no artifact of any gate: name the artifacts the evidence lists';
const artifactName = z.string().min(1).max(1000);
/** Artifact name → the hash a person was shown; a prototype key is refused before the record is read. */
const expectHashes = z.custom<Record<string, string>>(noReservedKey, RESERVED_MESSAGE).pipe(z.record(artifactName, sha256Hex));
/** Artifact name → its current hash as shown (null: missing), with the same refusal. */
const expectDrift = z.custom<Record<string, string | null>>(noReservedKey, RESERVED_MESSAGE).pipe(z.record(artifactName, sha256Hex.nullable()));
/** How long the decider had the evidence open, as their screen measured it (at most 30 days). */
const viewedMs = z
  .number()
  .int()
  .min(0)
  .max(30 * 86_400_000)
  .optional();

/** A client-made id naming one long branch operation, so its progress and its cancel can find it. */
const opId = z.string().regex(/^[a-zA-Z0-9-]{1,64}$/, 'must be 1 to 64 letters, digits or dashes');
// Control characters (NUL included) never belong in a branch name; git's own rules are checked by the branch service.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A git branch or pair name as a person typed it. */
const branchName = z
  .string()
  .min(1, 'is empty')
  .max(200, 'is longer than 200 characters')
  .refine((name) => !CONTROL.test(name), 'contains a control character');
const branchOp = { opId, name: branchName };

/** The Branches screen's and the top bar's view of the project's database provider. */
export interface BranchStatusView {
  /** The configured provider, or null when this project cannot have branches (`message` says why). */
  readonly provider: ProviderKind | null;
  readonly experimental: boolean;
  /** `idle`: configured, not started yet; `ready`: opened and answering; `failed`: opening it failed; `unavailable`: not a Baton project in git. */
  readonly state: 'idle' | 'ready' | 'failed' | 'unavailable';
  readonly message: string | null;
  /** Problems that do not stop branches from working (a warm pool that cannot refill). */
  readonly warnings: readonly string[];
}

/** A batch of a run's live events (main flushes them every ~100 ms, long output cut to its ends). */
export interface RunProgressedEvent {
  readonly runId: string;
  /** Batches are numbered from 1 per project; RunStateView.seq says how many a state includes. */
  readonly seq: number;
  readonly events: readonly RunFeedEvent[];
}

/** Progress of one branch operation, named by the opId its request carried. */
export interface BranchProgressEvent {
  readonly opId: string;
  readonly event: BranchProgress;
}

export const channels = {
  /** Which host answers and its version. */
  'app:info': { request: empty, response: returns<AppInfo>() },
  /** The "needs you" count on the app's icon (the desktop app's dock or taskbar badge; 0 clears it). Other hosts have none: `shown` false. */
  'app:badge': { request: z.object({ count: z.number().int().min(0).max(9999) }).strict(), response: returns<{ readonly shown: boolean }>() },
  /** Open a project folder (or a Consort artifact root) and make it current. */
  'project:open': { request: z.object({ path: pathSchema }).strict(), response: returns<ProjectView>() },
  /** The current project, or null when none is open. */
  'project:current': { request: empty, response: returns<ProjectView | null>() },
  /** Re-read the current project from disk. */
  'project:reload': { request: empty, response: returns<ProjectView>() },
  /** Recently opened projects, newest first. */
  'project:recent': { request: empty, response: returns<readonly RecentProject[]>() },
  /** Ask the person for a folder (Electron only; the browser host takes a path argument instead). */
  'project:pick': { request: empty, response: returns<{ readonly path: string | null }>() },
  /** The approver identity to offer by default (git user.name <user.email>), or null. */
  'identity:default': { request: empty, response: returns<{ readonly approver: string | null }>() },
  /** What a gate decision is about: artifacts (current and previously approved), evidence summary. */
  'gates:evidence': { request: z.object(gateRef).strict(), response: returns<GateEvidence>() },
  /** Approve a gate; `expect` carries the hashes the person was shown (fail closed on any difference). */
  'gates:approve': {
    request: z.object({ ...gateRef, approver, expect: expectHashes, comment: note, viewedMs, exceptions: exceptions.optional() }).strict(),
    response: returns<LedgerRecord>(),
  },
  /** `discard` (a story's acceptance only): drop the story instead of revising it. */
  'gates:reject': {
    request: z.object({ ...gateRef, approver, reason, viewedMs, discard: z.boolean().optional() }).strict(),
    response: returns<LedgerRecord>(),
  },
  /** Withdraw an approval (cascades: withdrawing spec reopens design and test_list). */
  'gates:withdraw': { request: z.object({ ...gateRef, approver, reason }).strict(), response: returns<LedgerRecord>() },
  /**
   * Put a drifted gate's approved files back from the ledger; `expect` is the drift the person was
   * shown (artifact → its current hash, null when missing): anything else on disk is refused.
   */
  'gates:restore': {
    request: z.object({ ...gateRef, approver, expect: expectDrift }).strict(),
    response: returns<LedgerRecord>(),
  },
  /** Decide an escalated item: `retry` (a new round), `skip` (set it aside) or `abandon` the feature (note required). */
  'escalations:decide': {
    request: z.object({ feature: id, item: id, decision: z.enum(ESCALATION_DECISIONS), note, approver }).strict(),
    response: returns<LedgerRecord>(),
  },
  /**
   * Allow an item's code that tells a test run apart (issue 30), with a reason: the tells its violations
   * named (`tells`: their ids; none: all of them not allowed yet). The item then needs a `retry` to run again.
   */
  'tells:allow': {
    request: z.object({ feature: id, item: id, tells: z.array(sha256Hex).max(100).optional(), reason, approver }).strict(),
    response: returns<LedgerRecord>(),
  },
  /** Propose new content for locked test files of an item (a person's proposal; the Navigator's come from its REVIEW turn). */
  'amendments:propose': {
    request: z
      .object({
        feature: id,
        item: id,
        files: z
          .array(z.object({ path: z.string().min(1).max(1000), content: z.string().max(1_000_000, 'is longer than 1 MB') }).strict())
          .min(1, 'name at least one locked test file')
          .max(10, 'at most 10 files'),
        reason,
        approver,
      })
      .strict(),
    response: returns<LedgerRecord>(),
  },
  /** Approve (the item re-runs RED/GREEN against the amended tests) or reject (note required; the lock stays) a pending amendment. */
  'amendments:decide': {
    request: z.object({ feature: id, amendment: sha256Hex, decision: z.enum(AMENDMENT_DECISIONS), note, approver }).strict(),
    response: returns<LedgerRecord>(),
  },
  /** Intake: a new feature from a one-paragraph request and optional text attachments, recorded in the ledger. */
  'features:new': {
    request: z
      .object({
        title: z.string().trim().min(1, 'is required: name the feature').superRefine(words('title', 'The feature title')),
        request: z.string().trim().min(1, 'is required: write one paragraph saying what the feature is for').superRefine(words('request', 'The request')),
        attachments: z
          .array(z.object({ name: z.string().min(1).max(100), text: z.string().max(1_000_000) }).strict())
          .max(10, 'at most 10 attachments')
          .optional(),
        id: id.optional(),
        approver,
      })
      .strict(),
    response: returns<{ feature: string; record: LedgerRecord }>(),
  },
  /** A page of the ledger, oldest first, with the chain's verification state. */
  'ledger:list': {
    request: z.object({ offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(1000).optional() }).strict(),
    response: returns<LedgerPage>(),
  },
  /** One blob's content (runner output, diff, frozen artifact). */
  'ledger:blob': {
    // A page of the content: `limit` bytes (default BLOB_PAGE_BYTES, at most MAX_BLOB_PAGE_BYTES) from byte `offset`.
    request: z
      .object({ sha256: sha256Hex, offset: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(MAX_BLOB_PAGE_BYTES).optional() })
      .strict(),
    response: returns<BlobView>(),
  },
  /** Verify the chain, the blobs and every gate's approved hashes against the disk. */
  'ledger:verify': {
    // ownTrust: only this user's own keys and trusted-keys.json count, not the folder's project.json.
    request: z.object({ ownTrust: z.boolean().optional() }).strict(),
    response: returns<VerifyReport>(),
  },
  /** The Metrics screen: `baton metrics --json`'s figures of every feature (or `feature`'s), the smell report, and the records behind each figure. */
  'metrics:get': { request: z.object({ feature: id.optional() }).strict(), response: returns<MetricsScreen>() },
  /** Which database provider the project uses and whether it is running; never starts it. */
  'branches:status': { request: empty, response: returns<BranchStatusView>() },
  /** The Branch tree: tiers, feature and experiment pairs, orphans. */
  'branches:list': { request: empty, response: returns<BranchListView>() },
  /** Make a pair (git branch, worktree, database branch); `connectionUrl` arrives with its password redacted. */
  'branches:create': {
    request: z.object({ opId, gitBranch: branchName, parent: branchName.optional() }).strict(),
    response: returns<BranchCreated>(),
  },
  /** Remove a pair: its worktree, git branch and database branch. Tiers and active pairs are refused. */
  'branches:delete': { request: z.object(branchOp).strict(), response: returns<{ readonly name: string }>() },
  /** Fork a pair's database again from its parent; the git half is kept. */
  'branches:reset': { request: z.object(branchOp).strict(), response: returns<BranchPairView>() },
  /** The pair's schema against its parent's. */
  'branches:diff': { request: z.object(branchOp).strict(), response: returns<SchemaDiff>() },
  /** Each pair's database against its code's migrations (connects to every database: slow on a big tree; asked for, never polled). */
  'branches:migrations': { request: z.object({ opId }).strict(), response: returns<readonly PairMigrations[]>() },
  /** Cancel a running operation; `cancelled` is false when none runs under that opId. */
  'branches:cancel': { request: z.object({ opId }).strict(), response: returns<{ readonly cancelled: boolean }>() },
  /**
   * Start the enforced loop on the current project (one run at a time; refused for bundles and
   * Consort layouts). Answers once the run is under way; its progress arrives as `run:progressed`.
   */
  'run:start': {
    request: z.object({ feature: id.optional(), until: z.enum([...GATE_NAMES, 'done']).optional() }).strict(),
    response: returns<{ readonly runId: string }>(),
  },
  /** Stop the run; it keeps its snapshots and resumes from them next time. `stopped` is false when none runs. */
  'run:stop': { request: empty, response: returns<{ readonly stopped: boolean }>() },
  /** The live run (or the last one, or the persisted phase when nothing ran here yet). */
  'run:state': { request: empty, response: returns<RunStateView>() },
  /** Each role's agent from project.json, and how agents are contained here. */
  'agents:settings': { request: empty, response: returns<AgentSettingsView>() },
  /** Save one role's agent to project.json (validated; refused on a read-only project). */
  'agents:save': { request: z.object({ role: z.enum(AGENT_ROLES), config: agentConfigSchema }).strict(), response: returns<AgentSettingsView>() },
  /** The preflight of an agent setting: is the program there, is it logged in. Saves nothing. */
  'agents:check': { request: z.object({ role: z.enum(AGENT_ROLES), config: agentConfigSchema }).strict(), response: returns<AgentCheck>() },
  /** The project.json keys a Product Owner tunes (gate policy, budgets, deploy, thresholds), the webhook masked. */
  'settings:project': { request: empty, response: returns<ProjectSettingsView>() },
  /** What project.json's schema would refuse in these changes (key by key); writes nothing. */
  'settings:check': { request: settingsChangesSchema, response: returns<{ readonly issues: readonly SettingsIssue[] }>() },
  /** Save the changes to project.json, atomically, when the whole file still validates; refused on a read-only project. */
  'settings:save': { request: settingsChangesSchema, response: returns<ProjectSettingsView>() },
} as const satisfies Record<Channel, { request: z.ZodType; response: unknown }>;

// The allow-list in channel-names.ts and this table must name the same channels.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _channelsMatch: Same<keyof typeof channels, Channel> = true;
void _channelsMatch;

export type RequestOf<C extends Channel> = z.input<(typeof channels)[C]['request']>;
export type ResponseOf<C extends Channel> = (typeof channels)[C]['response'];

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES;

/** Events main pushes to the renderer. */
export interface Events {
  /** The current project was opened or re-read. */
  'project:changed': ProjectView;
  /** A step of a running branch operation (create, reset, delete, diff). */
  'branches:progressed': BranchProgressEvent;
  /** A batch of the running run's events. */
  'run:progressed': RunProgressedEvent;
}
const _eventsMatch: Same<keyof Events, EventName> = true;
void _eventsMatch;
export const EVENTS: readonly EventName[] = EVENT_NAMES;

/** What the renderer sees, whichever transport carries it. */
export interface BatonApi {
  invoke<C extends Channel>(channel: C, request: RequestOf<C>): Promise<Result<ResponseOf<C>>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
}

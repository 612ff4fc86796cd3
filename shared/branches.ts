/**
 * Database branches as the renderer and the CLI see them: providers, pairs (a git branch with its
 * worktree and a database branch of the same sanitized name), schema differences and progress.
 * Pure: no Node, DOM or Electron.
 */

export const PROVIDER_KINDS = ['pglite', 'postgres', 'neon', 'lakebase'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Providers that talk to a cloud API Baton cannot reach from CI; labelled experimental in UI and README. */
export const EXPERIMENTAL_PROVIDERS: readonly ProviderKind[] = ['neon', 'lakebase'];

/** What the top bar shows beside the provider's dot. */
export const PROVIDER_LABELS: Readonly<Record<ProviderKind, string>> = {
  pglite: 'embedded',
  postgres: 'local server',
  neon: 'Neon',
  lakebase: 'Lakebase',
};

/** A database-name prefix (`branches.prefix`) is at most this long, so at least 40 characters of the branch's own name remain. */
export const MAX_PREFIX_LENGTH = 23;
export const PREFIX_PATTERN = /^[a-z0-9][a-z0-9_-]{0,22}$/;

/** A protected tier: never deleted, never written by an agent. */
export type Tier = 'production' | 'staging';

/** One row of the Branch tree: the git half and the database half side by side. */
export interface BranchPairView {
  /** The sanitized name shared by both halves (the database branch's name). */
  readonly name: string;
  /** The git branch, or null when only the database half exists (an orphan). */
  readonly gitBranch: string | null;
  /** Absolute path of the pair's worktree, or null (tiers use the main checkout; orphans have none). */
  readonly worktree: string | null;
  /** The database half, or null when only the git half exists (an orphan). */
  readonly database: DatabaseBranchView | null;
  /** The parent pair's name, or null for a root. */
  readonly parent: string | null;
  readonly tier: Tier | null;
  /** `feature` for a child of a tier, `experiment` below that. */
  readonly kind: 'tier' | 'feature' | 'experiment';
  readonly masked: boolean;
  /** `git-missing`: database without its git branch; `database-missing`: the reverse. */
  readonly orphan: 'git-missing' | 'database-missing' | null;
  /** ISO time the pair (or the database branch, for an orphan) was created. */
  readonly createdAt: string | null;
  /** ISO time after which `baton branch gc` may remove it, or null for no time-to-live. */
  readonly expiresAt: string | null;
  /** Held by an active cycle (a live lease): never garbage-collected. */
  readonly active: boolean;
  /**
   * Whether the pair's git branch is merged into its parent's (every commit of it is there); null
   * for a root, an orphan, a parent without a git branch, or a branch with nothing of its own yet
   * (its head is on the parent's first-parent line). Absent from older hosts.
   */
  readonly merged?: boolean | null;
}

/** One pair's database against its code's migrations (`branches:migrations`, `baton branch list --migrations`). */
export interface PairMigrations {
  readonly name: string;
  readonly gitBranch: string;
  readonly migrations: MigrationState;
}

export interface DatabaseBranchView {
  readonly name: string;
  readonly provider: ProviderKind;
  readonly parent: string | null;
  readonly createdAt: string | null;
  readonly sizeBytes: number | null;
  /** 0 for a root; a child's depth is its parent's plus one. */
  readonly depth: number;
}

export interface BranchListView {
  readonly provider: ProviderKind;
  readonly experimental: boolean;
  readonly pairs: readonly BranchPairView[];
}

/** What `baton branch create` prints (the password in `connectionUrl` redacted unless asked). */
export interface BranchCreated {
  readonly name: string;
  readonly gitBranch: string;
  readonly database: string;
  readonly parent: string;
  readonly connectionUrl: string;
  readonly createdMs: number;
  readonly worktree: string;
  readonly masked: boolean;
}

export const SCHEMA_CHANGE_KINDS = [
  'table-added',
  'table-removed',
  'column-added',
  'column-removed',
  'column-type-changed',
  'column-nullability-changed',
  'column-default-changed',
  'primary-key-changed',
  'constraint-added',
  'constraint-removed',
  'constraint-changed',
  'index-added',
  'index-removed',
  'index-changed',
] as const;
export type SchemaChangeKind = (typeof SCHEMA_CHANGE_KINDS)[number];

/** One difference between a branch's schema and its parent's. `before` is the parent's side. */
export interface SchemaChange {
  readonly kind: SchemaChangeKind;
  /** Schema-qualified table name, e.g. `public.orders`. */
  readonly table: string;
  /** The column, constraint or index name; absent for table-level changes. */
  readonly name?: string;
  readonly before: string | null;
  readonly after: string | null;
}

export interface SchemaDiff {
  readonly branch: string;
  readonly parent: string;
  readonly changes: readonly SchemaChange[];
  /** A provider's own textual diff when it has one (Neon's compare_schema); else absent. */
  readonly text?: string;
}

/** Long work reports progress, tagged by kind; the UI shows `step` and a bar when `total` is known. */
export type BranchProgress =
  | { readonly kind: 'branch.step'; readonly op: BranchOp; readonly name: string; readonly step: string }
  | { readonly kind: 'branch.bytes'; readonly op: BranchOp; readonly name: string; readonly done: number; readonly total: number | null }
  | { readonly kind: 'branch.retry'; readonly op: BranchOp; readonly name: string; readonly attempt: number; readonly reason: string }
  | { readonly kind: 'branch.done'; readonly op: BranchOp; readonly name: string; readonly ms: number };
export type BranchOp = 'create' | 'delete' | 'reset' | 'diff' | 'gc' | 'migrate' | 'mask' | 'serve' | 'snapshot' | 'adopt';

/** `postgresql://user:secret@host/db` → `postgresql://user:***@host/db`; anything unparseable is returned with no password-like part. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@]*):[^@/?#]*@/i, '$1:***@').replace(/([?&](?:password|pass|token|sslpassword)=)[^&#]*/gi, '$1***');
}

/** What `baton branch gc` found and (unless a dry run) removed. */
export interface GcReport {
  readonly dryRun: boolean;
  readonly removed: readonly GcEntry[];
  /** Candidates left alone, with why: a tier, or held by an active cycle. */
  readonly kept: readonly GcEntry[];
  /** Half-made databases a crashed create or reset left (over an hour old, nobody connected): removed, or listed on a dry run. */
  readonly leftovers: readonly string[];
}
export interface GcEntry {
  readonly name: string;
  readonly gitBranch: string | null;
  readonly reason: 'git-missing' | 'database-missing' | 'expired' | 'tier' | 'active';
}

/** Migrations applied to a branch, in order. */
/**
 * A database against the migrations of the code it pairs with (SQL-folder migrations; a command
 * tool keeps its own books: `unknown`). `code-ahead`: files not applied yet; `database-ahead`:
 * applied migrations the code does not have (a branch switched, a rollback, a hand-applied file);
 * `changed`: an applied file that was edited since.
 */
export interface MigrationState {
  readonly state: 'current' | 'code-ahead' | 'database-ahead' | 'diverged' | 'unknown';
  readonly codeAhead: readonly string[];
  readonly databaseAhead: readonly string[];
  readonly changed: readonly string[];
}

/** The state in words, for `baton branch list --migrations`, a run that refuses, and the Branches screen. */
export function describeMigrationState(name: string, m: MigrationState): string {
  const parts = [
    m.codeAhead.length ? `code ahead of the database: ${m.codeAhead.join(', ')} not applied` : null,
    m.databaseAhead.length ? `database ahead of the code: ${m.databaseAhead.join(', ')} applied but not in the code` : null,
    m.changed.length ? `${m.changed.join(', ')} changed since applied` : null,
  ].filter((p): p is string => p !== null);
  if (m.state === 'unknown') return `${name}: the migration tool keeps its own record; Baton cannot compare`;
  return parts.length ? `${name}: ${parts.join('; ')}` : `${name}: migrated to the code`;
}

export interface MigrationReport {
  readonly tool: 'sql' | 'node-pg-migrate' | 'knex' | 'command' | 'none';
  readonly applied: readonly string[];
  /** Already applied before this run (recorded in the versions table). */
  readonly skipped: readonly string[];
}

/** Which git branches are protected by default, and how (`branches.tiers` in project.json overrides it). */
export const DEFAULT_TIERS: Readonly<Record<string, 'production' | 'staging'>> = {
  main: 'production',
  master: 'production',
  production: 'production',
  staging: 'staging',
};

/** Why a pair cannot be changed, in the words every host shows: the branch service refuses with it, `baton branch` checks it before asking to confirm. */
export interface PairRefusal {
  readonly code: 'not-found' | 'protected' | 'busy' | 'has-children';
  readonly message: string;
}

/** The pair a person named: by its name, else by its git branch. */
export function findPairNamed(pairs: readonly BranchPairView[], nameOrGit: string): BranchPairView | undefined {
  return pairs.find((p) => p.name === nameOrGit) ?? pairs.find((p) => p.gitBranch === nameOrGit);
}

export function pairNotFound(nameOrGit: string): PairRefusal {
  return { code: 'not-found', message: `No branch pair or database branch named "${nameOrGit}". Run \`baton branch list\` to see the branches.` };
}

/** A tier or a pair a running cycle holds is never `verb` (deleted, reset); a pair with children (given `pairs`) is not deleted before them. */
export function changeRefusal(pair: BranchPairView, verb: 'deleted' | 'reset', pairs: readonly BranchPairView[] = []): PairRefusal | null {
  if (pair.kind === 'tier') {
    return {
      code: 'protected',
      message: `"${pair.name}" is a ${pair.tier ?? 'protected'} tier: tiers are never ${verb}. Pick a feature or experiment branch instead.`,
    };
  }
  if (pair.active) {
    return { code: 'busy', message: `"${pair.name}" is in use by a running cycle, so it cannot be ${verb} now. Try again when the cycle has finished.` };
  }
  const children = pairs.filter((p) => p.parent === pair.name || p.database?.parent === pair.name);
  if (children.length) {
    return {
      code: 'has-children',
      message: `"${pair.name}" has child branches (${children.map((c) => c.name).join(', ')}). Delete them first, then delete "${pair.name}".`,
    };
  }
  return null;
}

/** The git branch a feature's accepted stories are merged into: `baton/<feature>`, lower-cased. */
export const featureBranch = (feature: string): string => `baton/${feature}`.toLowerCase();

/** The experiment branch a story of a feature is built on: `baton/<feature>--<story>`, lower-cased. */
export const storyBranch = (feature: string, story: string): string => `${featureBranch(feature)}--${story}`.toLowerCase();

/**
 * The branch service: what the CLI (`baton branch …`) and the Workbench use. It pairs each git
 * branch (and its worktree) with a database branch from the configured provider, applies
 * masking and migrations to new branches, protects tiers, and collects garbage.
 * Implemented in service.ts; opened with `openBranchService`.
 */
import type { BranchCreated, BranchListView, BranchPairView, GcReport, MigrationReport, MigrationState, ProviderKind, SchemaDiff } from '../../shared/branches';
import type { ProjectSettings } from '../project/settings';
import type { BranchProvider, CallOptions } from './provider';
import type { Adopted } from './service-adopt';

export interface BranchServiceOptions {
  /** The project's root: a git repository with `.baton/project.json`. */
  readonly root: string;
  readonly settings: ProjectSettings;
  /** Overrides `settings.branchProvider`. */
  readonly provider?: ProviderKind;
  /** The postgres provider's admin connection URL (else the env variable named in settings). */
  readonly postgresUrl?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Per-project data folder (data directories, worktrees, registry, leases); default projectDataDir(root). */
  readonly dataDir?: string;
  readonly now?: () => Date;
}

export interface BranchService {
  readonly kind: ProviderKind;
  readonly provider: BranchProvider;
  /** What the names of the databases this service makes start with ('' for none; see service-adopt.ts). */
  readonly prefix: string;
  /** Tiers, feature and experiment pairs with orphans, as the Branch tree shows them. */
  list(options?: CallOptions): Promise<BranchListView>;
  /**
   * Make the pair: git branch (from the parent's git branch), worktree, database branch (from the
   * parent's database, masked and migrated). Undoes every step made if any step fails.
   * `connectionUrl` holds the real password: redact before printing.
   */
  create(gitBranch: string, options?: CallOptions & { readonly parent?: string; readonly ttlHours?: number | null }): Promise<BranchCreated>;
  /** Remove the pair (worktree, git branch, database branch). Refuses tiers (`protected`) and active pairs (`busy`). */
  delete(name: string, options?: CallOptions): Promise<void>;
  /** Fork the database half again from its parent (masking and migrations re-applied). */
  reset(name: string, options?: CallOptions): Promise<BranchPairView>;
  diff(name: string, options?: CallOptions): Promise<SchemaDiff>;
  migrate(name: string, options?: CallOptions): Promise<MigrationReport>;
  /** Where the pair's database stands against its code's migrations (a tier: the main checkout's); changes nothing. */
  migrationStatus(name: string, options?: CallOptions): Promise<MigrationState>;
  connectionUrl(name: string, options?: CallOptions): Promise<string>;
  gc(options: CallOptions & { readonly dryRun: boolean }): Promise<GcReport>;
  /**
   * Pairs the tier `gitBranch` (the default branch or one under branches.tiers) with an existing
   * database (`baton branch adopt`); the database it paired with before is left as it was.
   */
  adopt(database: string, gitBranch: string, options?: CallOptions): Promise<Adopted>;
  /** What a person should know that fails no call: a root other projects may share, a pool that cannot refill. */
  warnings(): string[];
  /** True for tiers: agents must not write them and nobody may delete them. */
  isProtected(nameOrGitBranch: string): boolean;
  close(): Promise<void>;
}

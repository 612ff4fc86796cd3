/**
 * The port every database branch provider implements (pglite, postgres, neon, lakebase).
 * Names passed in are already sanitized (see names.ts). Every call takes an AbortSignal and a
 * progress callback; slow steps report `BranchProgress` and stop at the next safe point when the
 * signal aborts (throwing `BranchError` with code `cancelled`, leaving nothing half-made behind).
 */
import type { BranchProgress, ProviderKind, SchemaDiff } from '../../shared/branches';
import { CommandError } from '../process/run-command';

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: BranchProgress) => void;
}

/** What a provider knows about one of its database branches. */
export interface DatabaseBranch {
  readonly name: string;
  readonly parent: string | null;
  /** ISO time. */
  readonly createdAt: string | null;
  readonly sizeBytes: number | null;
  /** 0 for a root. */
  readonly depth: number;
}

export interface CreateOptions extends CallOptions {
  /**
   * Runs on the new branch before its name is handed to anyone (masking, migrations). Receives a
   * connection URL with the real password (on the postgres provider, the branch role's); must not log it.
   */
  readonly prepare?: (connectionUrl: string) => Promise<void>;
  /**
   * The branch is this process's alone (a test run's or a turn's throwaway): an embedded server for
   * it exits as soon as this process is gone, not only at its idle timeout. Other providers ignore it.
   */
  readonly owned?: boolean;
  /**
   * Background work (mutation testing): an embedded server for the branch runs at the lowest CPU
   * priority, so the work it serves never slows the cycles beside it. Other providers ignore it.
   */
  readonly background?: boolean;
}

export interface RootOptions extends CallOptions {
  /**
   * The root must already exist (a database someone named: `branches.root`, `baton branch adopt`):
   * `not-found` instead of making it, and no stand-in (Neon's or Lakebase's default branch).
   */
  readonly mustExist?: boolean;
}

export interface ResetOptions extends CreateOptions {
  readonly from?: string;
}

export interface BranchProvider {
  readonly kind: ProviderKind;
  readonly experimental: boolean;
  /**
   * The root branch (a tier such as `main`): made if it does not exist (unless `mustExist`), taken
   * over if it exists; refused (`invalid`) when it is another branch's child. Idempotent.
   */
  ensureRoot(name: string, options?: RootOptions): Promise<DatabaseBranch>;
  /** Fork `name` from `parent`. Fails with `exists` if `name` exists, `not-found` if `parent` does not. */
  create(name: string, parent: string, options?: CreateOptions): Promise<DatabaseBranch>;
  /** Remove a branch. Fails with `has-children` while it has children, `not-found` if absent. */
  delete(name: string, options?: CallOptions): Promise<void>;
  list(options?: CallOptions): Promise<DatabaseBranch[]>;
  /**
   * Fork the branch again from its parent's current state, keeping its name (and its parent).
   * `from` forks it from that branch instead: how a root (a tier) is rolled back to a snapshot of
   * itself. Providers that cannot refuse `from` with `invalid`.
   */
  reset(name: string, options?: ResetOptions): Promise<DatabaseBranch>;
  /**
   * A URL any Postgres client can use (pglite: starts serving on demand). Contains the password:
   * on the postgres provider the branch's own role's, never the admin's (postgres/roles.ts).
   */
  connectionUrl(name: string, options?: CallOptions): Promise<string>;
  schemaDiff(branch: string, parent: string, options?: CallOptions): Promise<SchemaDiff>;
  /**
   * Databases a crashed create or reset left half-made (never a branch anyone can list), older
   * than `olderThanMs` and with nobody connected: listed, and dropped unless `dryRun`. Optional:
   * providers without such helpers leave it out.
   */
  collectLeftovers?(options: CallOptions & { readonly dryRun: boolean; readonly olderThanMs: number }): Promise<string[]>;
  /** Problems that do not fail a call but a person should know of (a warm pool that cannot refill), in words. */
  warnings?(): string[];
  /** Stop servers and pool refills this provider started; idempotent. */
  close(): Promise<void>;
}

export type BranchErrorCode = 'exists' | 'not-found' | 'has-children' | 'protected' | 'busy' | 'cancelled' | 'unreachable' | 'auth' | 'invalid' | 'failed';

/** A failure a person reads: what happened, on which branch, and what to do next. Never carries a password. */
export class BranchError extends Error {
  constructor(
    readonly code: BranchErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BranchError';
  }
}

/** A command's failure (process/run-command) in the branches' words: the same code and message, as a BranchError. */
export const asBranchError = (error: unknown): unknown =>
  error instanceof CommandError ? new BranchError(error.code, error.message, { cause: error }) : error;

/** Throws `cancelled` if the signal has aborted; call between steps. */
export function throwIfCancelled(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new BranchError('cancelled', `${what} was cancelled; nothing was left half-made.`);
}

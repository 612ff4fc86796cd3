/**
 * Neon database branches through the Neon API v2 (experimental: Baton cannot reach Neon from CI;
 * it is tested against fake-neon-server.ts, which replays the documented shapes).
 *
 * A Baton branch is a Neon branch of the same name with one read-write compute. Creating one
 * returns background operations that are polled until Neon reports them finished; `prepare`
 * (masking, migrations) then runs on the new branch, and any failure or cancellation before the
 * end deletes the half-made branch. Reset is Neon's "reset from parent" (a restore to the
 * parent's head). The schema diff is Neon's own `compare_schema`, parsed by neon-diff.ts.
 */
import type { SchemaDiff } from '../../../shared/branches';
import { BranchError, throwIfCancelled } from '../provider';
import type { BranchProvider, CallOptions, CreateOptions, DatabaseBranch, ResetOptions, RootOptions } from '../provider';
import { secretHint } from '../secrets';
import { BranchTree, Reporter, type CloudBranch } from './branch-tree';
import { NeonApi, toCloudBranch, type NeonOperation } from './neon-api';
import { parseNeonSchemaDiff } from './neon-diff';
import { isCancelled, sleep, type Fetch } from './rest-client';
import { passwordOf, safeCause, safeMessage } from './secret-safe';

export interface NeonProviderOptions {
  readonly apiKey: string;
  readonly projectId: string;
  /** Default https://console.neon.tech/api/v2. */
  readonly apiUrl?: string;
  /** Database inside each branch that connection URLs and schema diffs use. Default `neondb`. */
  readonly database?: string;
  /** Role for connection URLs. Default `neondb_owner`. */
  readonly role?: string;
  readonly fetch?: Fetch;
  /** Pause between polls of Neon's operations. Default 1 s. */
  readonly pollIntervalMs?: number;
  /** How long Neon's operations may run before Baton gives up. Default 10 min. */
  readonly pollTimeoutMs?: number;
  /** First pause after a 423 Locked; it doubles. Default 500 ms. */
  readonly retryDelayMs?: number;
}

const FINISHED = new Set(['finished', 'skipped']);

export class NeonProvider implements BranchProvider {
  readonly kind = 'neon' as const;
  readonly experimental = true;
  private readonly api: NeonApi;
  private readonly database: string;
  private readonly role: string;
  /** Baton root name → Neon branch id, for a root Baton calls differently (see ensureRoot). */
  private readonly aliases = new Map<string, string>();

  constructor(private readonly options: NeonProviderOptions) {
    this.database = options.database ?? 'neondb';
    this.role = options.role ?? 'neondb_owner';
    this.api = new NeonApi({
      apiKey: options.apiKey,
      projectId: options.projectId,
      apiUrl: options.apiUrl ?? 'https://console.neon.tech/api/v2',
      authHint: secretHint('neon'),
      fetch: options.fetch,
      retryDelayMs: options.retryDelayMs,
    });
  }

  /** The branch named `name`, else the project's default branch, which Baton then knows as `name`. */
  async ensureRoot(name: string, options?: RootOptions): Promise<DatabaseBranch> {
    throwIfCancelled(options?.signal, `Finding the Neon root branch ${name}`);
    const tree = await this.tree(`finding the root branch ${name}`, options);
    const found = tree.find(name);
    if (found) return tree.view(found);
    if (options?.mustExist)
      throw new BranchError(
        'not-found',
        `Neon project ${this.options.projectId} has no branch named ${name}: check the name in the Neon console, then try again.`,
      );
    const root = tree.defaultBranch();
    if (!root)
      throw new BranchError('not-found', `Neon project ${this.options.projectId} has no default branch: create a branch named ${name} in the Neon console.`);
    this.aliases.set(name, root.id);
    return tree.view(root);
  }

  async create(name: string, parent: string, options?: CreateOptions): Promise<DatabaseBranch> {
    const report = new Reporter('create', name, options);
    throwIfCancelled(options?.signal, `Creating Neon branch ${name}`);
    const tree = await this.tree(`checking branches before creating ${name}`, options);
    if (tree.find(name))
      throw new BranchError('exists', `Neon branch ${name} already exists in project ${this.options.projectId}: delete it first or pick another name.`);
    const from = this.require(tree, parent);
    report.step(`creating Neon branch from ${parent}`);
    const created = await this.api.createBranch(name, from.id, this.ctx(`creating branch ${name} from ${parent}`, report, options));
    const branch = toCloudBranch(created.branch);
    let pending: readonly NeonOperation[] = created.operations ?? [];
    try {
      pending = await this.waitFor(pending, report, options?.signal, `creating branch ${name}`);
      await this.prepare(branch, report, options);
      throwIfCancelled(options?.signal, `Creating Neon branch ${name}`);
    } catch (error) {
      throw await this.discard(branch, pending, 'create', error);
    }
    report.done();
    return new BranchTree([...tree.branches, branch], this.aliases).view(branch);
  }

  async delete(name: string, options?: CallOptions): Promise<void> {
    const report = new Reporter('delete', name, options);
    throwIfCancelled(options?.signal, `Deleting Neon branch ${name}`);
    const tree = await this.tree(`checking branches before deleting ${name}`, options);
    const branch = this.require(tree, name);
    if (branch.isDefault)
      throw new BranchError(
        'protected',
        `Neon branch ${name} is the project's default branch, which Neon never deletes: pick another default in the Neon console first.`,
      );
    const children = tree.children(branch.id).map((c) => tree.nameOf(c));
    if (children.length) throw new BranchError('has-children', `Neon branch ${name} has child branches (${children.join(', ')}): delete them first.`);
    report.step('deleting Neon branch');
    const answer = await this.api.deleteBranch(branch.id, this.ctx(`deleting branch ${name}`, report, options));
    for (const [alias, id] of this.aliases) if (id === branch.id) this.aliases.delete(alias);
    try {
      await this.waitFor(answer.operations ?? [], report, options?.signal, `deleting branch ${name}`);
    } catch (error) {
      if (isCancelled(error))
        throw new BranchError('cancelled', `Stopped waiting for Neon to delete branch ${name}; Neon finishes the deletion in the background.`);
      throw error;
    }
    report.done();
  }

  async reset(name: string, options?: ResetOptions): Promise<DatabaseBranch> {
    if (options?.from !== undefined)
      throw new BranchError(
        'invalid',
        `Baton cannot yet restore Neon branch ${name} from ${options.from}: do it in the Neon console (Restore), or create a new branch from ${options.from}.`,
      );
    const report = new Reporter('reset', name, options);
    throwIfCancelled(options?.signal, `Resetting Neon branch ${name}`);
    const tree = await this.tree(`checking branches before resetting ${name}`, options);
    const branch = this.require(tree, name);
    const parent = branch.parentId ? tree.get(branch.parentId) : undefined;
    if (!parent) throw new BranchError('invalid', `Neon branch ${name} is a root branch: it has no parent to reset from.`);
    const children = tree.children(branch.id).map((c) => tree.nameOf(c));
    // Neon would keep the old state under a new name (preserve_under_name) to hold the children.
    if (children.length)
      throw new BranchError('has-children', `Neon branch ${name} has child branches (${children.join(', ')}): delete them before resetting it.`);
    report.step(`resetting from ${tree.nameOf(parent)}`);
    const answer = await this.api.restoreFromParent(branch.id, parent.id, this.ctx(`resetting branch ${name}`, report, options));
    let pending: readonly NeonOperation[] = answer.operations ?? [];
    try {
      pending = await this.waitFor(pending, report, options?.signal, `resetting branch ${name}`);
      await this.prepare(branch, report, options);
    } catch (error) {
      // Without `prepare` the reset completes on its own; with it, an unprepared branch (perhaps
      // unmasked) must not be left behind.
      if (isCancelled(error) && !options?.prepare)
        throw new BranchError('cancelled', `Stopped waiting for Neon to reset branch ${name}; Neon finishes the reset in the background.`);
      throw await this.discard(branch, pending, 'reset', error);
    }
    report.done();
    return tree.view(branch);
  }

  async list(options?: CallOptions): Promise<DatabaseBranch[]> {
    throwIfCancelled(options?.signal, 'Listing Neon branches');
    return (await this.tree('listing branches', options)).views();
  }

  async connectionUrl(name: string, options?: CallOptions): Promise<string> {
    throwIfCancelled(options?.signal, `Connecting to Neon branch ${name}`);
    const branch = this.require(await this.tree(`finding branch ${name}`, options), name);
    return this.api.connectionUri(branch.id, this.database, this.role, this.ctx(`getting the connection URI of ${name}`, undefined, options));
  }

  async schemaDiff(branch: string, parent: string, options?: CallOptions): Promise<SchemaDiff> {
    const report = new Reporter('diff', branch, options);
    throwIfCancelled(options?.signal, `Comparing Neon branch ${branch}`);
    const tree = await this.tree(`finding branches ${branch} and ${parent}`, options);
    const compared = this.require(tree, branch);
    const base = this.require(tree, parent);
    report.step(`comparing ${this.database} with ${parent}`);
    const text = await this.api.compareSchema(compared.id, base.id, this.database, this.ctx(`comparing ${branch} with ${parent}`, report, options));
    report.done();
    return { branch, parent, changes: text.trim() ? parseNeonSchemaDiff(text) : [], text };
  }

  async close(): Promise<void> {
    // Nothing held open: every call is a plain HTTPS request.
  }

  /** Polls until every operation has finished; returns those still pending if interrupted. */
  private async waitFor(operations: readonly NeonOperation[], report: Reporter, signal: AbortSignal | undefined, what: string): Promise<NeonOperation[]> {
    let pending = operations.filter((op) => !FINISHED.has(op.status));
    const deadline = Date.now() + (this.options.pollTimeoutMs ?? 600_000);
    let summary = '';
    while (pending.length) {
      const now = pending.map((op) => `${op.action} ${op.status}`).join(', ');
      if (now !== summary) report.step(`waiting for Neon: ${(summary = now)}`);
      if (Date.now() > deadline) {
        throw new BranchError(
          'failed',
          `Neon's operations (${now}) did not finish within ${Math.round((this.options.pollTimeoutMs ?? 600_000) / 60_000)} min while ${what}: check the project's Monitoring → Operations page in the Neon console.`,
        );
      }
      await sleep(this.options.pollIntervalMs ?? 1000, signal, what);
      const next: NeonOperation[] = [];
      for (const op of pending) {
        const fresh = await this.api.getOperation(op.id, this.ctx(`${what} (polling ${op.action})`, report, { signal }));
        if (FINISHED.has(fresh.status)) continue;
        if (fresh.status === 'cancelled') throw new BranchError('failed', `Neon cancelled its ${fresh.action} operation while ${what}: try again.`);
        // A failed operation is not terminal on Neon: it is retried (reference/api/operations).
        if (fresh.status === 'failed')
          report.retry(fresh.failures_count ?? 1, `Neon's ${fresh.action} operation failed${fresh.error ? ` (${fresh.error})` : ''}; Neon retries it`);
        next.push(fresh);
      }
      pending = next;
    }
    return pending;
  }

  private async prepare(branch: CloudBranch, report: Reporter, options: CreateOptions | undefined): Promise<void> {
    if (!options?.prepare) return;
    report.step('preparing the new branch');
    const url = await this.api.connectionUri(branch.id, this.database, this.role, this.ctx(`getting the connection URI of ${branch.name}`, report, options));
    try {
      await options.prepare(url);
    } catch (error) {
      const secrets = [passwordOf(url), this.options.apiKey];
      const code = error instanceof BranchError ? error.code : 'failed';
      throw new BranchError(code, `Preparing Neon branch ${branch.name} failed: ${safeMessage(error, secrets)}`, { cause: safeCause(error, secrets) });
    }
  }

  /** Removes a half-made branch and returns the error to throw, saying what happened to it. */
  private async discard(branch: CloudBranch, pending: readonly NeonOperation[], op: 'create' | 'reset', error: unknown): Promise<BranchError> {
    const verb = op === 'create' ? 'Creating' : 'Resetting';
    let outcome = 'the half-made branch was deleted';
    try {
      // Cleanup runs to the end whatever the caller's signal says; Neon locks the project until
      // the pending operations finish, so wait for them first.
      const quiet = new Reporter(op, branch.name, undefined);
      await this.waitFor(pending, quiet, undefined, `cleaning up branch ${branch.name}`).catch(() => undefined);
      const answer = await this.api.deleteBranch(branch.id, this.ctx(`deleting the half-made branch ${branch.name}`, quiet, undefined));
      await this.waitFor(answer.operations ?? [], quiet, undefined, `deleting the half-made branch ${branch.name}`);
    } catch (cleanup) {
      if (cleanup instanceof BranchError && cleanup.code === 'not-found') outcome = 'nothing was left behind';
      else outcome = `deleting the half-made branch also failed (${safeMessage(cleanup, [this.options.apiKey])}): delete ${branch.name} in the Neon console`;
    }
    if (isCancelled(error)) return new BranchError('cancelled', `${verb} Neon branch ${branch.name} was cancelled; ${outcome}.`);
    const code = error instanceof BranchError ? error.code : 'failed';
    const message =
      error instanceof BranchError
        ? error.message.replace(/\.\s*$/, '')
        : `${verb} Neon branch ${branch.name} failed: ${safeMessage(error, [this.options.apiKey])}`;
    return new BranchError(code, `${message}; ${outcome}.`, { cause: error });
  }

  private async tree(what: string, options: CallOptions | undefined): Promise<BranchTree> {
    const branches = await this.api.listBranches(this.ctx(what, undefined, options));
    // The tree reads `aliases` live, so an alias recorded later shows in its views.
    return new BranchTree(branches.map(toCloudBranch), this.aliases);
  }

  private require(tree: BranchTree, name: string): CloudBranch {
    const branch = tree.find(name);
    if (!branch)
      throw new BranchError('not-found', `Neon project ${this.options.projectId} has no branch named ${name}: check the name with \`baton branch list\`.`);
    return branch;
  }

  private ctx(
    what: string,
    report: Reporter | undefined,
    options: CallOptions | undefined,
  ): { what: string; signal?: AbortSignal; onRetry: (attempt: number, reason: string) => void } {
    return { what, signal: options?.signal, onRetry: (attempt, reason) => report?.retry(attempt, `Neon answered ${reason}; retrying`) };
  }
}

/**
 * Databricks Lakebase (Autoscaling) database branches through the Lakebase Postgres API
 * (experimental: Baton cannot reach Databricks from CI; it is tested against
 * fake-lakebase-server.ts, which replays the documented shapes).
 *
 * A Baton branch is a Lakebase branch whose id is Baton's name. Creating one is a long-running
 * operation polled until `done`; every branch gets a read-write compute (`primary`) from
 * Lakebase. Connection URLs use that compute's host, the caller's Databricks user name as role
 * and a freshly generated credential (a one-hour OAuth token) as password. The REST API
 * documents no reset-from-parent call, so reset deletes the branch and creates it again from its
 * parent under the same id. The schema diff connects to both branches with `pg`.
 */
import type { SchemaDiff } from '../../../shared/branches';
import { BranchError, throwIfCancelled } from '../provider';
import type { BranchProvider, CallOptions, CreateOptions, DatabaseBranch, ResetOptions, RootOptions } from '../provider';
import { secretHint } from '../secrets';
import { BranchTree, Reporter, type CloudBranch } from '../neon/branch-tree';
import { isCancelled, sleep, type Fetch } from '../neon/rest-client';
import { passwordOf, safeCause, safeMessage } from '../neon/secret-safe';
import { LakebaseApi, isProtected, readWriteHost, toCloudBranch, type LakebaseBranch, type LakebaseOperation } from './lakebase-api';
import { diffOverConnections } from './lakebase-schema-diff';

export interface LakebaseProviderOptions {
  /** The workspace URL, e.g. https://adb-1234.5.azuredatabricks.net. */
  readonly host: string;
  /** A Databricks personal access or OAuth token (DATABRICKS_TOKEN). */
  readonly token: string;
  /** The Lakebase project id. */
  readonly project: string;
  /** Database inside each branch. Default `databricks_postgres`. */
  readonly database?: string;
  /** Postgres role; default the token owner's Databricks user name (SCIM Me). */
  readonly user?: string;
  /** `require` (default; Lakebase only accepts TLS) or `disable` (tests against a local server). */
  readonly sslMode?: 'require' | 'disable';
  readonly fetch?: Fetch;
  readonly pollIntervalMs?: number;
  readonly pollTimeoutMs?: number;
  readonly retryDelayMs?: number;
}

/** Lakebase branch ids: 1–63 characters, lowercase letters, digits and hyphens, starting with a letter. */
const BRANCH_ID = /^[a-z][a-z0-9-]{0,62}$/;

export class LakebaseProvider implements BranchProvider {
  readonly kind = 'lakebase' as const;
  readonly experimental = true;
  private readonly api: LakebaseApi;
  private readonly database: string;
  private readonly aliases = new Map<string, string>();
  private user: string | undefined;

  constructor(private readonly options: LakebaseProviderOptions) {
    this.database = options.database ?? 'databricks_postgres';
    this.user = options.user;
    this.api = new LakebaseApi({
      host: options.host,
      token: options.token,
      project: options.project,
      authHint: secretHint('lakebase'),
      fetch: options.fetch,
      retryDelayMs: options.retryDelayMs,
    });
  }

  async ensureRoot(name: string, options?: RootOptions): Promise<DatabaseBranch> {
    throwIfCancelled(options?.signal, `Finding the Lakebase root branch ${name}`);
    const { tree } = await this.tree(`finding the root branch ${name}`, options);
    const found = tree.find(name);
    if (found) return tree.view(found);
    if (options?.mustExist)
      throw new BranchError(
        'not-found',
        `Lakebase project ${this.options.project} has no branch named ${name}: check the name in the Lakebase UI, then try again.`,
      );
    const root = tree.defaultBranch();
    if (!root)
      throw new BranchError('not-found', `Lakebase project ${this.options.project} has no default branch: create a branch named ${name} in the Lakebase UI.`);
    this.aliases.set(name, root.id);
    return tree.view(root);
  }

  async create(name: string, parent: string, options?: CreateOptions): Promise<DatabaseBranch> {
    const report = new Reporter('create', name, options);
    throwIfCancelled(options?.signal, `Creating Lakebase branch ${name}`);
    if (!BRANCH_ID.test(name))
      throw new BranchError('invalid', `${name} cannot be a Lakebase branch id: use 1–63 lowercase letters, digits and hyphens, starting with a letter.`);
    const { tree } = await this.tree(`checking branches before creating ${name}`, options);
    if (tree.find(name))
      throw new BranchError('exists', `Lakebase branch ${name} already exists in project ${this.options.project}: delete it first or pick another name.`);
    const from = this.require(tree, parent);
    const branch = await this.fork(name, from, report, options);
    report.done();
    return new BranchTree([...tree.branches, branch], this.aliases).view(branch);
  }

  async delete(name: string, options?: CallOptions): Promise<void> {
    const report = new Reporter('delete', name, options);
    throwIfCancelled(options?.signal, `Deleting Lakebase branch ${name}`);
    const { tree, raw } = await this.tree(`checking branches before deleting ${name}`, options);
    const branch = this.require(tree, name);
    this.refuseProtected(branch, raw.get(branch.id), 'deleted');
    this.refuseChildren(tree, branch, 'delete it');
    try {
      await this.remove(branch, report, options?.signal);
    } catch (error) {
      if (isCancelled(error))
        throw new BranchError('cancelled', `Stopped waiting for Lakebase to delete branch ${name}; Lakebase finishes the deletion in the background.`);
      throw error;
    }
    report.done();
  }

  /** Delete and fork again from the parent: the REST API has no reset-from-parent call. */
  async reset(name: string, options?: ResetOptions): Promise<DatabaseBranch> {
    if (options?.from !== undefined)
      throw new BranchError(
        'invalid',
        `Baton cannot yet restore Lakebase branch ${name} from ${options.from}: do it in the Lakebase UI, or create a new branch from ${options.from}.`,
      );
    const report = new Reporter('reset', name, options);
    throwIfCancelled(options?.signal, `Resetting Lakebase branch ${name}`);
    const { tree, raw } = await this.tree(`checking branches before resetting ${name}`, options);
    const branch = this.require(tree, name);
    const parent = branch.parentId ? tree.get(branch.parentId) : undefined;
    if (!parent) throw new BranchError('invalid', `Lakebase branch ${name} is a root branch: it has no parent to reset from.`);
    this.refuseProtected(branch, raw.get(branch.id), 'reset');
    this.refuseChildren(tree, branch, 'reset it');
    // Once the old branch is going, stopping halfway would lose it: the signal is honoured up to
    // here, and the delete and the new fork then run to the end.
    const uncancellable: CreateOptions = { onProgress: options?.onProgress, prepare: options?.prepare };
    report.step('deleting the old branch');
    await this.remove(branch, report, undefined);
    let fresh: CloudBranch;
    try {
      fresh = await this.fork(branch.name, parent, report, uncancellable);
    } catch (error) {
      const detail = error instanceof BranchError ? error.message : safeMessage(error, [this.options.token]);
      throw new BranchError(
        error instanceof BranchError ? error.code : 'failed',
        `Lakebase branch ${name} was deleted for the reset but could not be created again: ${detail.replace(/\.\s*$/, '')}. Run the reset again, or create it anew.`,
        { cause: error },
      );
    }
    report.done();
    return new BranchTree([...tree.branches.filter((b) => b.id !== branch.id), fresh], this.aliases).view(fresh);
  }

  async list(options?: CallOptions): Promise<DatabaseBranch[]> {
    throwIfCancelled(options?.signal, 'Listing Lakebase branches');
    return (await this.tree('listing branches', options)).tree.views();
  }

  async connectionUrl(name: string, options?: CallOptions): Promise<string> {
    throwIfCancelled(options?.signal, `Connecting to Lakebase branch ${name}`);
    const { tree } = await this.tree(`finding branch ${name}`, options);
    return this.urlFor(this.require(tree, name), undefined, options);
  }

  async schemaDiff(branch: string, parent: string, options?: CallOptions): Promise<SchemaDiff> {
    const report = new Reporter('diff', branch, options);
    throwIfCancelled(options?.signal, `Comparing Lakebase branch ${branch}`);
    const { tree } = await this.tree(`finding branches ${branch} and ${parent}`, options);
    const urls = {
      branch: await this.urlFor(this.require(tree, branch), report, options),
      parent: await this.urlFor(this.require(tree, parent), report, options),
    };
    report.step(`comparing ${this.database} with ${parent}`);
    const diff = await diffOverConnections({ branch, parent }, urls, options);
    report.done();
    return diff;
  }

  async close(): Promise<void> {
    // Nothing held open: API calls are plain HTTPS requests and diff connections are closed after use.
  }

  /** Creates `name` from `from`, waits for it and prepares it; deletes it again on any failure. */
  private async fork(name: string, from: CloudBranch, report: Reporter, options: CreateOptions | undefined): Promise<CloudBranch> {
    report.step(`creating Lakebase branch from ${from.name}`);
    const operation = await this.api.createBranch(name, from.id, this.ctx(`creating branch ${name} from ${from.name}`, report, options));
    const fallback: CloudBranch = { id: this.api.branchName(name), name, parentId: from.id, createdAt: null, sizeBytes: null, isDefault: false };
    let finished: LakebaseOperation | null = null;
    try {
      finished = await this.waitFor(operation, report, options?.signal, `creating branch ${name}`);
      const branch = isBranch(finished.response) ? toCloudBranch(finished.response) : fallback;
      if (options?.prepare) {
        report.step('preparing the new branch');
        const url = await this.urlFor(branch, report, options);
        await this.prepare(options.prepare, url, name);
      }
      throwIfCancelled(options?.signal, `Creating Lakebase branch ${name}`);
      return branch;
    } catch (error) {
      throw await this.discard(fallback, finished ? null : operation, error);
    }
  }

  private async prepare(prepare: (url: string) => Promise<void>, url: string, name: string): Promise<void> {
    try {
      await prepare(url);
    } catch (error) {
      const secrets = [passwordOf(url), this.options.token];
      throw new BranchError(error instanceof BranchError ? error.code : 'failed', `Preparing Lakebase branch ${name} failed: ${safeMessage(error, secrets)}`, {
        cause: safeCause(error, secrets),
      });
    }
  }

  private async discard(branch: CloudBranch, pending: LakebaseOperation | null, error: unknown): Promise<BranchError> {
    let outcome = 'the half-made branch was deleted';
    try {
      const quiet = new Reporter('create', branch.name, undefined);
      // Cleanup runs to the end whatever the caller's signal says. A create that failed on
      // Lakebase's side may have left nothing to delete.
      if (pending) await this.waitFor(pending, quiet, undefined, `cleaning up branch ${branch.name}`).catch(() => undefined);
      await this.remove(branch, quiet, undefined);
    } catch (cleanup) {
      if (cleanup instanceof BranchError && cleanup.code === 'not-found') outcome = 'nothing was left behind';
      else outcome = `deleting the half-made branch also failed (${safeMessage(cleanup, [this.options.token])}): delete ${branch.name} in the Lakebase UI`;
    }
    if (isCancelled(error)) return new BranchError('cancelled', `Creating Lakebase branch ${branch.name} was cancelled; ${outcome}.`);
    const code = error instanceof BranchError ? error.code : 'failed';
    const message =
      error instanceof BranchError
        ? error.message.replace(/\.\s*$/, '')
        : `Creating Lakebase branch ${branch.name} failed: ${safeMessage(error, [this.options.token])}`;
    return new BranchError(code, `${message}; ${outcome}.`, { cause: error });
  }

  private async remove(branch: CloudBranch, report: Reporter, signal: AbortSignal | undefined): Promise<void> {
    const operation = await this.api.deleteBranch(branch.id, this.ctx(`deleting branch ${branch.name}`, report, { signal }));
    for (const [alias, id] of this.aliases) if (id === branch.id) this.aliases.delete(alias);
    await this.waitFor(operation, report, signal, `deleting branch ${branch.name}`);
  }

  /** Polls a long-running operation until `done`; a done operation with `error` is a failure. */
  private async waitFor(operation: LakebaseOperation, report: Reporter, signal: AbortSignal | undefined, what: string): Promise<LakebaseOperation> {
    const timeoutMs = this.options.pollTimeoutMs ?? 600_000;
    const deadline = Date.now() + timeoutMs;
    let current = operation;
    let polls = 0;
    while (!current.done && current.name) {
      if (polls === 0) report.step(`waiting for Lakebase to finish ${what}`);
      if (Date.now() > deadline)
        throw new BranchError('failed', `Lakebase did not finish ${what} within ${Math.round(timeoutMs / 60_000)} min: check the project in the Lakebase UI.`);
      await sleep(this.options.pollIntervalMs ?? 1000, signal, what);
      current = await this.api.getOperation(current.name, this.ctx(`${what} (polling)`, report, { signal }));
      polls++;
    }
    if (current.error) {
      const code = current.error.error_code ? ` ${current.error.error_code}` : '';
      throw new BranchError(
        'failed',
        this.api.client.scrub(
          `Lakebase failed ${what} (${code.trim() || 'operation error'}): ${(current.error.message ?? 'no reason given').replace(/\.\s*$/, '')}.`,
        ),
      );
    }
    return current;
  }

  private async urlFor(branch: CloudBranch, report: Reporter | undefined, options: CallOptions | undefined): Promise<string> {
    const endpoints = await this.api.listEndpoints(branch.id, this.ctx(`finding the compute of ${branch.name}`, report, options));
    const found = readWriteHost(endpoints);
    if (!found)
      throw new BranchError(
        'not-found',
        `Lakebase branch ${branch.name} has no read-write compute with a host yet: add one in the Lakebase UI, or wait for it to start and try again.`,
      );
    const token = await this.api.generateCredential(found.endpoint.name, this.ctx(`generating a database credential for ${branch.name}`, report, options));
    this.user ??= await this.api.currentUser(this.ctx('finding the Databricks user name', report, options));
    const ssl = this.options.sslMode ?? 'require';
    return `postgresql://${encodeURIComponent(this.user)}:${encodeURIComponent(token)}@${found.host}/${encodeURIComponent(this.database)}?sslmode=${ssl}`;
  }

  private async tree(what: string, options: CallOptions | undefined): Promise<{ tree: BranchTree; raw: Map<string, LakebaseBranch> }> {
    const branches = await this.api.listBranches(this.ctx(what, undefined, options));
    return { tree: new BranchTree(branches.map(toCloudBranch), this.aliases), raw: new Map(branches.map((b) => [b.name, b])) };
  }

  private require(tree: BranchTree, name: string): CloudBranch {
    const branch = tree.find(name);
    if (!branch)
      throw new BranchError('not-found', `Lakebase project ${this.options.project} has no branch named ${name}: check the name with \`baton branch list\`.`);
    return branch;
  }

  private refuseProtected(branch: CloudBranch, raw: LakebaseBranch | undefined, verb: string): void {
    if (branch.isDefault) throw new BranchError('protected', `Lakebase branch ${branch.name} is the project's default branch and cannot be ${verb}.`);
    if (raw && isProtected(raw))
      throw new BranchError(
        'protected',
        `Lakebase branch ${branch.name} is protected in Lakebase and cannot be ${verb}: remove its protection in the Lakebase UI first.`,
      );
  }

  private refuseChildren(tree: BranchTree, branch: CloudBranch, action: string): void {
    const children = tree.children(branch.id).map((c) => tree.nameOf(c));
    if (children.length)
      throw new BranchError('has-children', `Lakebase branch ${branch.name} has child branches (${children.join(', ')}): delete them before you ${action}.`);
  }

  private ctx(
    what: string,
    report: Reporter | undefined,
    options: CallOptions | undefined,
  ): { what: string; signal?: AbortSignal; onRetry: (attempt: number, reason: string) => void } {
    return { what, signal: options?.signal, onRetry: (attempt, reason) => report?.retry(attempt, `Databricks answered ${reason}; retrying`) };
  }
}

function isBranch(value: unknown): value is LakebaseBranch {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    (value as { name: string }).name.includes('/branches/')
  );
}

/**
 * The `postgres` provider: database branches on a local or remote PostgreSQL 15+ server reached
 * through an admin URL (a superuser, or a role with CREATEDB and CREATEROLE). A branch is a database named exactly the branch
 * name, marked with a JSON comment (layout.ts). Branches are forked from a frozen snapshot of the
 * parent (snapshot.ts) so the parent keeps serving, and usually claimed from a warm pool of
 * pre-forked copies (warm-pool.ts) so creating one is a rename. Each branch has a login role of its
 * own that owns what is in its database, not the database (roles.ts): the URLs handed out log in as
 * that role, never as the admin, and that role can reach no other database Baton decides about (reach.ts).
 */
import pg from 'pg';
import type { ProviderKind, SchemaDiff } from '../../../shared/branches';
import { BranchError, throwIfCancelled } from '../provider';
import type { BranchProvider, CallOptions, CreateOptions, DatabaseBranch, ResetOptions, RootOptions } from '../provider';
import { compareSchemas, type Queryable } from '../schema/index';
import { Admin, asQueryable } from './admin';
import { PG, codeOf, redactionFor, scrub, translateError } from './errors';
import { forkBranch } from './fork';
import { checkBranchName, ident, isBranchMeta, metaLiteral, newTempName, parseMeta, poolPrefix, snapshotPrefix, type BranchMeta } from './layout';
import { collectLeftovers } from './leftovers';
import { BranchRoles } from './roles';
import { DEFAULT_RETRY, Snapshots, type RetryPolicy } from './snapshot';
import { WarmPool } from './warm-pool';

export interface PostgresProviderOptions {
  /** postgresql://USER:PASSWORD@HOST:PORT/DB; DB is where Baton's own sessions live (usually `postgres`). */
  readonly adminUrl: string;
  /** Pre-forked databases kept per parent snapshot; 0 disables the warm pool. Default 2. */
  readonly poolSize?: number;
  readonly now?: () => Date;
  /** How long to keep trying to snapshot a parent other sessions are connected to. */
  readonly retry?: Partial<RetryPolicy>;
}

/** Whether the branch is an adopted root (its comment says so), and the snapshot its new database was copied from. */
type CopySource = { readonly adopted: boolean; readonly copyOf: string };

const BRANCHES_SQL = `
select d.datname as name, c.comment, case when $1::bool then pg_database_size(d.oid) end as size
from pg_database d cross join lateral (select shobj_description(d.oid, 'pg_database') as comment) c
where c.comment like '{"baton":1,"role":"%' and not starts_with(d.datname, 'baton_')`;

export class PostgresProvider implements BranchProvider {
  readonly kind: ProviderKind = 'postgres';
  readonly experimental = false;
  private readonly admin: Admin;
  private readonly snapshots: Snapshots;
  private readonly pool: WarmPool;
  private readonly roles: BranchRoles;
  private readonly now: () => Date;
  private closing: Promise<void> | null = null;

  constructor(options: PostgresProviderOptions) {
    const poolSize = options.poolSize ?? 2;
    if (!Number.isInteger(poolSize) || poolSize < 0)
      throw new BranchError('invalid', `poolSize must be a whole number of databases (0 or more), not ${poolSize}.`);
    this.admin = new Admin(options.adminUrl, 10);
    this.snapshots = new Snapshots(this.admin, { ...DEFAULT_RETRY, ...options.retry });
    this.roles = new BranchRoles(this.admin);
    this.pool = new WarmPool(this.admin, poolSize, {
      prepare: (entry) => this.roles.preparePoolEntry(entry),
      retire: (entries) => this.roles.dropPlaceholders(entries),
    });
    this.now = options.now ?? (() => new Date());
  }

  async ensureRoot(name: string, options: RootOptions = {}): Promise<DatabaseBranch> {
    checkBranchName(name, this.admin.database);
    throwIfCancelled(options.signal, `Preparing root branch "${name}"`);
    let fresh = false;
    const made = await this.admin.withClient(`preparing root branch "${name}"`, async (client) => {
      const [entry] = await this.admin.catalog(client, [name]);
      if (entry && isBranchMeta(entry.meta)) {
        if (entry.meta.parent !== null)
          throw new BranchError(
            'invalid',
            `Database "${name}" is a branch of "${entry.meta.parent}", not a root: adopt the database it was forked from, or another one.`,
          );
        // Adopted by an earlier Baton, or its owner opened it again since: closed now.
        if (entry.meta.adopted) await this.roles.closeRoot(client, name);
        return this.describe(client, name, entry.meta);
      }
      if (!entry && options.mustExist)
        throw new BranchError('not-found', `There is no database "${name}" on the server. Create it (or check the name with \`psql -l\`), then try again.`);
      const createdAt = this.now().toISOString();
      let meta: BranchMeta = { baton: 1, role: 'branch', parent: null, createdAt, depth: 0 };
      if (entry) {
        meta = { ...meta, adopted: true, previousComment: entry.comment };
      } else {
        try {
          await this.admin.run(client, `CREATE DATABASE ${ident(name)}`, options.signal);
          fresh = true;
        } catch (error) {
          if (codeOf(error) === PG.duplicateDatabase) return null; // made by a concurrent ensureRoot: look again
          throw error;
        }
      }
      // A database Baton makes is closed to PUBLIC at once; an adopted one to branch roles only (reach.ts).
      const close = fresh ? `; REVOKE ALL ON DATABASE ${ident(name)} FROM PUBLIC` : '';
      await client.query(`COMMENT ON DATABASE ${ident(name)} IS ${metaLiteral(meta)}${close}`);
      if (!fresh) await this.roles.closeRoot(client, name);
      return this.describe(client, name, meta);
    });
    if (made && fresh) await this.roles.provision(name, name);
    return made ?? this.ensureRoot(name, options);
  }

  async create(name: string, parent: string, options: CreateOptions & { readonly fresh?: boolean } = {}): Promise<DatabaseBranch> {
    const started = performance.now();
    checkBranchName(name, this.admin.database);
    checkBranchName(parent, this.admin.database);
    if (name === parent) throw new BranchError('invalid', `A branch cannot be its own parent ("${name}").`);
    const what = `creating branch "${name}" from "${parent}"`;
    const createdAt = this.now().toISOString();
    const role = options.prepare ? 'pending' : 'branch';
    const made = await this.fork('create', name, parent, name, (depth) => ({ baton: 1, role, parent, createdAt, depth }), options);
    await this.finish(name, name, options, what, made.meta, { adopted: false, copyOf: made.from });
    options.onProgress?.({ kind: 'branch.done', op: 'create', name, ms: Math.round(performance.now() - started) });
    return { name, parent, createdAt, sizeBytes: null, depth: made.meta.depth };
  }

  async reset(name: string, options: ResetOptions & { readonly fresh?: boolean } = {}): Promise<DatabaseBranch> {
    const started = performance.now();
    checkBranchName(name, this.admin.database);
    const what = `resetting branch "${name}"`;
    const meta = await this.admin.withClient(what, async (client) => this.branchMeta(client, name));
    const source = options.from ?? meta.parent;
    if (source === null) throw new BranchError('invalid', `Branch "${name}" is a root: it has no parent to reset from. Delete and recreate it instead.`);
    if (source === name) throw new BranchError('invalid', `A branch cannot be reset from itself ("${name}").`);
    checkBranchName(source, this.admin.database);
    const parent = meta.parent;
    // Build the replacement under a temporary name, so a failure leaves the branch as it was.
    const temp = newTempName();
    // The replacement's own comment carries when it was started, so a crashed reset's leftover can be aged.
    const made = await this.fork(
      'reset',
      name,
      source,
      temp,
      (depth) => ({ baton: 1, role: 'pending', parent, createdAt: this.now().toISOString(), depth, for: name }),
      options,
    );
    await this.finish(name, temp, options, what, null, { adopted: meta.adopted === true, copyOf: made.from });
    const { adopted, previousComment } = meta;
    const resetAt = this.now().toISOString();
    const resetMeta: BranchMeta = {
      baton: 1,
      role: 'branch',
      parent,
      createdAt: meta.createdAt,
      depth: meta.depth,
      resetAt,
      ...(adopted ? { adopted, previousComment } : {}),
    };
    await this.admin.withClient(what, async (client) => {
      // From here on nothing is cancelled: the swap is two statements that must both happen.
      await this.admin.terminateSessions(client, [temp]);
      try {
        await this.admin.remove(client, name);
      } catch (error) {
        await this.admin.drop(client, temp, true).catch(() => undefined); // the branch is intact: undo
        throw error;
      }
      try {
        await client.query(`ALTER DATABASE ${ident(temp)} RENAME TO ${ident(name)}; COMMENT ON DATABASE ${ident(name)} IS ${metaLiteral(resetMeta)}`);
      } catch (error) {
        const said = translateError(error, what, this.admin.redaction).message;
        throw new BranchError(
          'failed',
          `${said} The old "${name}" is gone; its replacement is kept as "${temp}": rename it to "${name}" by hand, or delete and recreate the branch.`,
        );
      }
      // The branch's own snapshot and pool copied its old content.
      await this.dropHelpers(client, name);
    });
    options.onProgress?.({ kind: 'branch.done', op: 'reset', name, ms: Math.round(performance.now() - started) });
    return { name, parent, createdAt: meta.createdAt, sizeBytes: null, depth: meta.depth };
  }

  async delete(name: string, options: CallOptions = {}): Promise<void> {
    const started = performance.now();
    checkBranchName(name, this.admin.database);
    await this.admin.withClient(`deleting branch "${name}"`, async (client) => {
      await this.branchMeta(client, name);
      const children = (await this.branches(client, false)).filter((entry) => entry.meta.parent === name).map((entry) => entry.name);
      if (children.length > 0) {
        const shown = children.slice(0, 5).join(', ') + (children.length > 5 ? `, and ${children.length - 5} more` : '');
        throw new BranchError(
          'has-children',
          `Branch "${name}" has ${children.length} child branch${children.length === 1 ? '' : 'es'} (${shown}); delete them first.`,
        );
      }
      throwIfCancelled(options.signal, `Deleting branch "${name}"`);
      options.onProgress?.({ kind: 'branch.step', op: 'delete', name, step: 'ending its sessions and dropping it' });
      await this.admin.remove(client, name);
      await this.dropHelpers(client, name);
    });
    // The role must go too: it logs in with the URL handed out. What keeps it is a copy of the branch
    // (its snapshot, a pool entry a refill made just now): those are dropped again before saying so.
    if (!(await this.roles.drop(name))) {
      await this.admin.withClient(`deleting branch "${name}"`, (client) => this.dropHelpers(client, name));
      if (!(await this.roles.drop(name))) throw await this.roles.outlived(name);
    }
    options.onProgress?.({ kind: 'branch.done', op: 'delete', name, ms: Math.round(performance.now() - started) });
  }

  async list(options: CallOptions = {}): Promise<DatabaseBranch[]> {
    throwIfCancelled(options.signal, 'Listing branches');
    const entries = await this.admin.withClient('listing branches', (client) => this.branches(client, true));
    return entries
      .filter((entry) => entry.meta.role === 'branch')
      .map((entry) => ({ name: entry.name, parent: entry.meta.parent, createdAt: entry.meta.createdAt, sizeBytes: entry.size, depth: entry.meta.depth }))
      .sort((a, b) => a.depth - b.depth || a.name.localeCompare(b.name));
  }

  async collectLeftovers(options: CallOptions & { readonly dryRun: boolean; readonly olderThanMs: number }): Promise<string[]> {
    throwIfCancelled(options.signal, 'Looking for leftover databases');
    return collectLeftovers(this.admin, this.roles, this.now().getTime() - options.olderThanMs, options.dryRun);
  }

  async connectionUrl(name: string, options: CallOptions = {}): Promise<string> {
    checkBranchName(name, this.admin.database);
    throwIfCancelled(options.signal, `Finding branch "${name}"`);
    const meta = await this.admin.withClient(`finding branch "${name}"`, (client) => this.branchMeta(client, name));
    return this.roles.connectionUrl(name, meta.adopted === true);
  }

  async schemaDiff(branch: string, parent: string, options: CallOptions = {}): Promise<SchemaDiff> {
    const started = performance.now();
    const what = `comparing the schema of "${branch}" with "${parent}"`;
    // Each side is read as its own role: a branch's schema is its role's to shape, never run as the admin.
    const urls = [await this.connectionUrl(branch, options), await this.connectionUrl(parent, options)];
    options.onProgress?.({ kind: 'branch.step', op: 'diff', name: branch, step: 'reading both schemas' });
    const clients = urls.map((url) => new pg.Client({ connectionString: url, application_name: 'baton-diff' }));
    // A delete or reset that ends these sessions fails the query in hand; unheard, the 'error' event would end the host.
    for (const client of clients) client.on('error', () => undefined);
    try {
      await Promise.all(clients.map((client) => client.connect()));
      const [a, b] = clients.map(asQueryable) as [Queryable, Queryable];
      const diff = await compareSchemas(a, b, { branch, parent });
      options.onProgress?.({ kind: 'branch.done', op: 'diff', name: branch, ms: Math.round(performance.now() - started) });
      return diff;
    } catch (error) {
      throw translateError(error, what, this.admin.redaction);
    } finally {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    }
  }

  /** Takes the parent's snapshot and fills its warm pool now, so the next create is a rename. */
  async prewarm(parent: string, options: CallOptions = {}): Promise<void> {
    checkBranchName(parent, this.admin.database);
    await this.snapshots.refresh(parent, { branch: `a warm copy of "${parent}"`, force: false, signal: options.signal, onProgress: options.onProgress });
    this.pool.refill(parent);
    await this.pool.idle();
  }

  /** Resolves when background pool refills have finished. */
  idle(): Promise<void> {
    return this.pool.idle();
  }

  warnings(): string[] {
    const error = this.pool.lastError;
    const pool = error
      ? [`The warm pool could not be refilled (${error.message}). Creates still work, each as a full copy; the pool tries again after the next create.`]
      : [];
    return [...pool, ...this.roles.warnings()];
  }

  close(): Promise<void> {
    this.closing ??= this.pool
      .close()
      .then(() => this.roles.end())
      .then(() => this.admin.end());
    return this.closing;
  }

  private fork(
    op: 'create' | 'reset',
    name: string,
    parent: string,
    target: string,
    meta: (depth: number) => BranchMeta,
    options: CreateOptions & { readonly fresh?: boolean },
  ) {
    if (this.closing) throw new BranchError('failed', `The postgres provider was closed; cannot ${op} "${name}".`);
    return forkBranch({ admin: this.admin, snapshots: this.snapshots, pool: this.pool }, { op, name, parent, target, meta, options });
  }

  /**
   * After the fork: gives `target` (a copy of snapshot `from.copyOf`) to the branch's role, runs `prepare` on it as that role, then
   * marks it a branch (create) or leaves the swap to the caller (reset). Any failure or
   * cancellation removes the half-made database (and a create's role).
   */
  private async finish(name: string, target: string, options: CreateOptions, what: string, meta: BranchMeta | null, from: CopySource): Promise<void> {
    try {
      throwIfCancelled(options.signal, capitalize(what));
      const url = await this.roles.prepareFor(name, target, from.adopted, from.copyOf);
      if (options.prepare) {
        throwIfCancelled(options.signal, capitalize(what));
        options.onProgress?.({ kind: 'branch.step', op: target === name ? 'create' : 'reset', name, step: 'preparing (masking, migrations)' });
        try {
          await options.prepare(url);
        } catch (error) {
          const said = scrub(scrub(error instanceof Error ? error.message : String(error), this.admin.redaction), redactionFor(url));
          const code = error instanceof BranchError ? error.code : 'failed';
          throw new BranchError(code, `Preparing branch "${name}" failed: ${said} The half-made database was removed.`);
        }
        throwIfCancelled(options.signal, capitalize(what));
        if (meta)
          await this.admin.withClient(what, (client) => client.query(`COMMENT ON DATABASE ${ident(name)} IS ${metaLiteral({ ...meta, role: 'branch' })}`));
      }
    } catch (error) {
      await this.admin.withClient(`removing half-made "${target}"`, (client) => this.admin.drop(client, target, true)).catch(() => undefined);
      if (target === name) await this.roles.drop(name).catch(() => false);
      throw error;
    }
  }

  private async branchMeta(client: pg.ClientBase, name: string): Promise<BranchMeta> {
    const [entry] = await this.admin.catalog(client, [name]);
    if (entry && isBranchMeta(entry.meta)) return entry.meta;
    const why = entry ? 'exists but Baton does not manage it (no Baton comment)' : 'does not exist';
    throw new BranchError('not-found', `Branch "${name}" ${why} on ${this.admin.redaction.url}. Run \`baton branch list\` to see the branches.`);
  }

  private async describe(client: pg.ClientBase, name: string, meta: BranchMeta): Promise<DatabaseBranch> {
    const { rows } = await client.query<{ size: string | null }>('select pg_database_size($1::text) as size', [name]);
    return { name, parent: meta.parent, createdAt: meta.createdAt, sizeBytes: rows[0]?.size ? Number(rows[0].size) : null, depth: meta.depth };
  }

  /** Every database Baton marked as a branch (or a branch being prepared). */
  private async branches(client: pg.ClientBase, withSize: boolean): Promise<Array<{ name: string; meta: BranchMeta; size: number | null }>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { rows } = await client.query<{ name: string; comment: string; size: string | null }>(BRANCHES_SQL, [withSize]);
        return rows.flatMap((row) => {
          const meta = parseMeta(row.comment);
          return isBranchMeta(meta) ? [{ name: row.name, meta, size: row.size === null ? null : Number(row.size) }] : [];
        });
      } catch (error) {
        // Sizing a database another process dropped after the scan fails: read again.
        if (attempt >= 3 || codeOf(error) !== PG.undefinedDatabase) throw error;
      }
    }
  }

  /** Drops the snapshots and pool entries made for `name` (a refill still running drops its own late copy). */
  private async dropHelpers(client: pg.ClientBase, name: string): Promise<void> {
    const entries = await this.admin.catalog(client, [], [snapshotPrefix(name), poolPrefix(name)]);
    const names = entries.map((entry) => entry.name);
    await this.admin.dropMany(names, `dropping the snapshot and pool of "${name}"`);
    await this.roles.dropPlaceholders(names);
  }
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

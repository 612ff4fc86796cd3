/**
 * The embedded default provider: each branch is a PGlite data directory under
 * `<dataDir>/pglite/` (see layout.ts), a new branch is a copy of its parent's, and a branch is
 * served on demand over 127.0.0.1 by a detached pglite-server.ts process so any Postgres client
 * can use it through a connection URL, and the URL outlives a short-lived CLI. The URL carries the
 * server's random password: only who was given it gets in (password-gate.ts).
 *
 * Limits, for the README:
 * - A data directory may be open in one process only (serve.lock enforces it, even between the
 *   app and a CLI). Forking or resetting from a branch that is being served first stops its
 *   server cleanly: its clients are disconnected and the next connectionUrl() starts a new
 *   server on a new port.
 * - One Postgres session underneath: by default a server takes one client at a time (see
 *   `maxConnections`); a second client is refused until the first disconnects.
 * - A first serve costs a process start plus opening PGlite (about 2 s on this 2-core
 *   machine); a server then lives until `idleSeconds` pass with no client.
 * - Between processes, names are claimed by mkdir, pool entries taken by rename and copies checked
 *   against the generation counter; deleting or resetting one branch from two processes at once
 *   is not locked across processes.
 * - On Windows a stop is not a signal the server can catch: PGlite recovers from its WAL on the
 *   next open, as Postgres does after a crash.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { BranchError, throwIfCancelled } from '../provider';
import type { BranchProvider, CallOptions, CreateOptions, DatabaseBranch, ResetOptions, RootOptions } from '../provider';
import { compareSchemas } from '../schema';
import type { SchemaDiff } from '../../../shared/branches';
import { childrenOf, describe, ensureTemplate, finishCreate, reserve } from './branch-folders';
import { copyDir } from './copy-dir';
import { KeyedLock } from '../../platform/keyed-lock';
import { pidAlive } from '../../platform/fs-facts';
import { assertBranchName, bumpGeneration, dataOf, listHomes, PgliteLayout, readMeta, removeDir, writeMeta, type BranchMeta } from './layout';
import { asQueryable, connectClient, localUrl, reporter, type Reporter } from './progress';
import { connectionCount, liveServer, lockHolder, readServeInfo, startServer, stopServer } from './server-process';
import { WarmPool } from './warm-pool';
import { collectLeftovers, type LeftoverOptions } from './leftovers';
import { ReadyPool, type ReadyRequest, type ReadyTaken } from './ready-pool';

export interface PgliteProviderOptions {
  /** The per-project data folder (projectDataDir); everything goes under `<dataDir>/pglite/`. */
  readonly dataDir: string;
  /**
   * Warm copies kept per parent (default 2), and ready throwaways (served and prepared, see
   * ready-pool.ts) per parent and key, at most 2; 0 turns both pools off.
   */
  readonly poolSize?: number;
  /**
   * Clients one server accepts at once (default 1). PGlite is a single Postgres session:
   * pglite-socket multiplexes extra clients onto it, so they share session state (SET, temporary
   * tables, prepared statements) and one client's open transaction holds up the others. Raise it
   * only for clients that open a pool but use one connection at a time.
   */
  readonly maxConnections?: number;
  /** A server with no client for this long exits (default 300). */
  readonly idleSeconds?: number;
  readonly now?: () => Date;
}

/** How a branch's server starts: as its meta records, or as the create about to record it says. */
type Spawn = Pick<BranchMeta, 'owner' | 'background'>;
const serverOptions = (how: Spawn) => ({ ...(how.owner ? { ownerPid: how.owner } : {}), ...(how.background ? { background: true } : {}) });

export class PgliteProvider implements BranchProvider {
  readonly kind = 'pglite' as const;
  readonly experimental = false;
  private readonly layout: PgliteLayout;
  private readonly lock = new KeyedLock();
  private readonly pool: WarmPool;
  private readonly ready: ReadyPool;
  private readonly maxConnections: number;
  private readonly idleSeconds: number;
  private readonly now: () => Date;

  constructor(options: PgliteProviderOptions) {
    this.layout = new PgliteLayout(options.dataDir);
    this.pool = new WarmPool(this.layout, options.poolSize ?? 2, this.lock);
    this.ready = new ReadyPool(
      {
        // Ready throwaways are this process's own: their servers go when it goes.
        create: async (name, parent, prepare, signal) => void (await this.make(name, parent, { prepare, signal, owned: true }, false)),
        remove: (name) => this.delete(name),
        generation: async (parent) => (await readMeta(this.layout.home(parent)))?.generation ?? null,
        exists: async (name) => (await readMeta(this.layout.home(name))) !== null,
        connections: (name) => connectionCount(this.layout.home(name)),
      },
      Math.min(options.poolSize ?? 2, 2),
    );
    this.maxConnections = options.maxConnections ?? 1;
    this.idleSeconds = options.idleSeconds ?? 300;
    this.now = options.now ?? (() => new Date());
  }

  async ensureRoot(name: string, options: RootOptions = {}): Promise<DatabaseBranch> {
    assertBranchName(name);
    const report = reporter('create', name, options);
    const home = this.layout.home(name);
    const meta = await this.lock.run(name, async () => {
      const existing = await readMeta(home);
      if (existing && existing.parent !== null)
        throw new BranchError(
          'invalid',
          `Database branch "${name}" is a branch of "${existing.parent}", not a root: adopt the branch it was forked from, or another one.`,
        );
      if (existing) return existing;
      if (options.mustExist)
        throw new BranchError(
          'not-found',
          `There is no embedded database branch "${name}" in this project's data folder. Check the name with \`baton branch list\`.`,
        );
      await this.lock.run('\0template', () => ensureTemplate(this.layout, report, options.signal));
      await reserve(this.layout, name, '');
      return finishCreate(home, { name, parent: null, createdAt: this.now().toISOString(), generation: 0 }, async () => {
        report.step('copy empty database');
        await copyDir(this.layout.template, dataOf(home), options.signal);
      });
    });
    this.pool.schedule(name);
    report.done();
    return describe(this.layout, meta);
  }

  create(name: string, parent: string, options: CreateOptions = {}): Promise<DatabaseBranch> {
    return this.make(name, parent, options, true);
  }

  /**
   * A throwaway branch of `parent` prepared under `key`, made ahead of need (ready-pool.ts), or null
   * when none is ready: the caller then creates its own. Taken once; the caller deletes it.
   */
  takeThrowaway<T>(request: ReadyRequest<T>): Promise<ReadyTaken<T> | null> {
    assertBranchName(request.parent);
    return this.ready.take(request);
  }

  /** `mayStopParent` false (background work): a served parent is not stopped to copy it, the create fails `busy`. */
  private async make(name: string, parent: string, options: CreateOptions, mayStopParent: boolean): Promise<DatabaseBranch> {
    assertBranchName(name);
    assertBranchName(parent);
    const report = reporter('create', name, options);
    throwIfCancelled(options.signal, `Creating database branch "${name}"`);
    if (!(await readMeta(this.layout.home(parent)))) {
      throw new BranchError(
        'not-found',
        `Cannot create "${name}": its parent database branch "${parent}" does not exist. Choose an existing parent (baton branch list).`,
      );
    }
    const home = await reserve(this.layout, name, parent);
    const spawn: Spawn = { ...(options.owned ? { owner: process.pid } : {}), ...(options.background ? { background: true } : {}) };
    const meta = await finishCreate(home, { name, parent, createdAt: this.now().toISOString(), generation: 0, ...spawn }, async () => {
      await this.copyFromParent(parent, dataOf(home), report, options.signal, mayStopParent);
      throwIfCancelled(options.signal, `Creating database branch "${name}"`);
      // Served from its final place and left running: the caller usually connects next.
      if (options.prepare) await this.prepare(home, options.prepare, report, options.signal, spawn);
      throwIfCancelled(options.signal, `Creating database branch "${name}"`);
    });
    this.pool.schedule(parent);
    report.done();
    return describe(this.layout, meta);
  }

  async delete(name: string, options: CallOptions = {}): Promise<void> {
    assertBranchName(name);
    const report = reporter('delete', name, options);
    const home = this.layout.home(name);
    // Ready throwaways are its children too, and nobody's yet: they go with it.
    await this.ready.discard(name);
    await this.lock.run(name, async () => {
      if (!(await readMeta(home))) throw notFound(name);
      const children = await childrenOf(this.layout, name);
      if (children.length > 0) {
        throw new BranchError('has-children', `Cannot delete database branch "${name}": it is the parent of ${children.join(', ')}. Delete those first.`);
      }
      throwIfCancelled(options.signal, `Deleting database branch "${name}"`);
      report.step('stop server');
      await stopServer(home);
      await this.pool.discard(name);
      report.step('remove data');
      // Out of branches/ in one rename, so the branch is gone at once even if removal is slow.
      const trash = await this.layout.newStaging(`deleted-${name}`);
      await fs.rename(home, join(trash, 'branch'));
      await removeDir(trash);
    });
    report.done();
  }

  /**
   * What killed processes left behind: branch folders never finished (their creator is gone, or no
   * marker for a minute), work folders under staging/ and throwaway test databases (`tmp-…`) older
   * than `olderThanMs`. Removed unless `dryRun`; returns what was (or would be) removed.
   */
  collectLeftovers(options: LeftoverOptions): Promise<string[]> {
    return collectLeftovers(this.layout, this.now().getTime() - options.olderThanMs, options);
  }

  async list(options: CallOptions = {}): Promise<DatabaseBranch[]> {
    throwIfCancelled(options.signal, 'Listing database branches');
    // The ready pool's stock is the provider's own, like its warm copies: not a branch of anyone's
    // (listed, a parent with ready children could not be deleted by the run that made them).
    const homes = (await listHomes(this.layout)).filter((name) => !this.ready.holds(name));
    const metas = (await Promise.all(homes.map((name) => readMeta(this.layout.home(name))))).filter((meta): meta is BranchMeta => meta !== null);
    const branches = await Promise.all(metas.map((meta) => describe(this.layout, meta)));
    return branches.sort((a, b) => a.name.localeCompare(b.name));
  }

  async reset(name: string, options: ResetOptions = {}): Promise<DatabaseBranch> {
    assertBranchName(name);
    const report = reporter('reset', name, options);
    const home = this.layout.home(name);
    const meta = await readMeta(home);
    if (!meta) throw notFound(name);
    const source = options.from ?? meta.parent;
    if (source === null) throw new BranchError('invalid', `Cannot reset "${name}": it is a root branch with no parent to copy from.`);
    if (source === name) throw new BranchError('invalid', `A branch cannot be reset from itself ("${name}").`);
    assertBranchName(source);
    const staging = await this.layout.newStaging(`reset-${name}`);
    let next: BranchMeta;
    try {
      await this.copyFromParent(source, dataOf(staging), report, options.signal);
      throwIfCancelled(options.signal, `Resetting database branch "${name}"`);
      if (options.prepare) {
        await this.prepare(staging, options.prepare, report, options.signal);
        await stopServer(staging);
      }
      throwIfCancelled(options.signal, `Resetting database branch "${name}"`);
      next = await this.lock.run(name, async () => {
        const current = await readMeta(home);
        if (!current) throw notFound(name);
        report.step('stop server');
        await stopServer(home);
        report.step('replace data');
        await fs.rename(dataOf(home), join(staging, 'old'));
        await fs.rename(dataOf(staging), dataOf(home)).catch(async (error: unknown) => {
          await fs.rename(join(staging, 'old'), dataOf(home));
          throw error;
        });
        const replaced = { ...current, generation: current.generation + 1 };
        await writeMeta(home, replaced);
        await this.pool.discard(name);
        return replaced;
      });
    } finally {
      await stopServer(staging);
      await removeDir(staging);
    }
    if (meta.parent !== null) this.pool.schedule(meta.parent);
    report.done();
    return describe(this.layout, next);
  }

  async connectionUrl(name: string, options: CallOptions = {}): Promise<string> {
    assertBranchName(name);
    const report = reporter('serve', name, options);
    const home = this.layout.home(name);
    if (!(await readMeta(home))) throw notFound(name);
    const url = await this.lock.run(name, () => this.serve(home, report, options.signal));
    report.done();
    return url;
  }

  async schemaDiff(branch: string, parent: string, options: CallOptions = {}): Promise<SchemaDiff> {
    const report = reporter('diff', branch, options);
    // One server takes one client by default: a branch against itself needs one connection.
    if (branch === parent) {
      const client = await connectClient(await this.connectionUrl(branch, options), branch, this.maxConnections);
      try {
        return await compareSchemas(asQueryable(client), asQueryable(client), { branch, parent });
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    const [branchUrl, parentUrl] = await Promise.all([this.connectionUrl(branch, options), this.connectionUrl(parent, options)]);
    throwIfCancelled(options.signal, `Comparing "${branch}" with "${parent}"`);
    report.step('compare schemas');
    const clients = await Promise.allSettled([connectClient(branchUrl, branch, this.maxConnections), connectClient(parentUrl, parent, this.maxConnections)]);
    try {
      const [a, b] = clients.map((result) => {
        if (result.status === 'rejected') throw result.reason;
        return result.value;
      });
      const diff = await compareSchemas(asQueryable(a!), asQueryable(b!), { branch, parent });
      report.done();
      return diff;
    } finally {
      await Promise.all(clients.map((result) => (result.status === 'fulfilled' ? result.value.end().catch(() => undefined) : undefined)));
    }
  }

  /** Stops background pool work only: servers are meant to outlive the process (see stopServers). */
  async close(): Promise<void> {
    await this.ready.close();
    await this.pool.close();
  }

  /** Stop every server of this data folder's branches (tests, shutdown of a whole project). */
  async stopServers(): Promise<void> {
    const names = await listHomes(this.layout);
    await Promise.all(names.map((name) => this.lock.run(name, () => stopServer(this.layout.home(name)))));
  }

  /** Resolves when no warm-pool refill is in flight (tests, benchmarks). */
  async poolIdle(): Promise<void> {
    await this.ready.idle();
    await this.pool.idle();
  }

  warnings(): string[] {
    const error = this.pool.lastError ?? this.ready.lastError;
    return error
      ? [
          `The warm pool could not be refilled (${error instanceof Error ? error.message : String(error)}). Creates still work, each as a full copy; the pool tries again after the next create.`,
        ]
      : [];
  }

  /**
   * Put a copy of `parent`'s data at `dst`: a warm-pool rename when one is valid, else a copy with
   * the parent's server stopped. A copy during which the parent's generation moved (another
   * process served it meanwhile) may be torn, so it is thrown away and made again.
   */
  private async copyFromParent(parent: string, dst: string, report: Reporter, signal?: AbortSignal, mayStopParent = true): Promise<void> {
    const parentHome = this.layout.home(parent);
    const meta = await readMeta(parentHome);
    if (!meta) throw new BranchError('not-found', `The parent database branch "${parent}" was deleted while copying from it.`);
    if (await this.pool.take(parent, meta.generation, dst)) {
      report.step('copy from warm pool');
      return;
    }
    for (let attempt = 1; ; attempt++) {
      const whole = await this.lock.run(parent, async () => {
        const info = await readServeInfo(parentHome);
        const served = (info !== null && pidAlive(info.pid)) || (await lockHolder(parentHome)) !== null;
        if (served && !mayStopParent) throw new BranchError('busy', `"${parent}" is being served: it is not stopped for work made ahead of need.`);
        if (info && pidAlive(info.pid)) report.step(`stop "${parent}" server to copy it`);
        await stopServer(parentHome);
        const before = (await readMeta(parentHome))?.generation;
        throwIfCancelled(signal, `Copying "${parent}"`);
        report.step('copy parent data');
        await copyDir(dataOf(parentHome), dst, signal);
        if ((await readMeta(parentHome))?.generation === before && (await lockHolder(parentHome)) === null) return true;
        await removeDir(dst);
        return false;
      });
      if (whole) return;
      if (attempt === 3) {
        throw new BranchError(
          'busy',
          `"${parent}" kept being opened by another process while it was copied. Stop other Baton commands using it and try again.`,
        );
      }
      report.retry(attempt, `"${parent}" was opened by another process during the copy`);
    }
  }

  private async prepare(home: string, prepare: (url: string) => Promise<void>, report: Reporter, signal?: AbortSignal, spawn?: Spawn): Promise<void> {
    const url = await this.serve(home, report, signal, spawn);
    throwIfCancelled(signal, 'Preparing the new database branch');
    report.step('prepare');
    await prepare(url);
  }

  /**
   * The URL of `home`'s server, started if none is alive. Call under `home`'s lock (or unpublished).
   * `spawn` (else what the branch's meta records): the process whose going stops the server, and
   * whether it serves background work (the lowest CPU priority).
   */
  private async serve(home: string, report: Reporter, signal?: AbortSignal, spawn?: Spawn): Promise<string> {
    // The probe is a connection, so it also restarts the server's idle clock: whoever asked for
    // the URL gets the full idle time to connect.
    const live = await liveServer(home);
    if (live) return localUrl(live);
    throwIfCancelled(signal, 'Starting the PGlite server');
    report.step('serve');
    // Before and after: a pool copy that overlapped the start in any process is never used.
    await bumpGeneration(home);
    try {
      const how = spawn ?? (await readMeta(home)) ?? {};
      const info = await startServer(home, { maxConnections: this.maxConnections, idleSeconds: this.idleSeconds, ...serverOptions(how) }, signal);
      return localUrl(info);
    } finally {
      await bumpGeneration(home);
    }
  }
}

const notFound = (name: string) =>
  new BranchError('not-found', `There is no pglite database branch named "${name}" (baton branch list shows the existing ones).`);

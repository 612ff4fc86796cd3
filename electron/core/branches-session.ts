/**
 * The open project's branch service, opened on first use and closed with the project. Each
 * operation runs under the client's opId with its own AbortController (so `branches:cancel`
 * can stop it) and forwards its progress as `branches:progressed` events. Failures come back as
 * Result errors carrying the BranchError's code and words, never a password.
 */
import {
  EXPERIMENTAL_PROVIDERS,
  redactUrl,
  type BranchCreated,
  type BranchListView,
  type BranchPairView,
  type GcReport,
  type PairMigrations,
  type ProviderKind,
  type SchemaDiff,
} from '../../shared/branches';
import type { BranchProgressEvent, BranchStatusView, RequestOf } from '../../shared/contract';
import type { ProjectView } from '../../shared/model';
import { err, ok, type AppError, type Result } from '../../shared/result';
import type { CallOptions } from '../branches/provider';
import type { Adopted } from '../branches/service-adopt';
import type { BranchService, BranchServiceOptions } from '../branches/service-api';
import { branchFailure, redactProgress } from './branches-errors';
import { loadBranchSettings } from './branches-settings';

export type OpenBranchService = (options: BranchServiceOptions) => Promise<BranchService>;

/** What a host adds to every branch operation beyond what the channels carry (the CLI's `--provider`, `--url`, `--ttl-hours`). */
export interface BranchHostOptions {
  /** Overrides the project's `branchProvider`. */
  readonly provider?: ProviderKind;
  /** The postgres provider's admin URL (else the environment variable the settings name). */
  readonly postgresUrl?: string;
  /** The time-to-live of the pairs created (null: none); default the service's. */
  readonly ttlHours?: number | null;
}

export interface BranchSessionDeps {
  readonly open: OpenBranchService;
  readonly emit: (event: BranchProgressEvent) => void;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: () => Date;
  readonly host?: BranchHostOptions;
}

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<unknown>;
}

/** How long closing waits for cancelled operations to reach a safe point before closing anyway. */
const CLOSE_WAIT_MS = 15_000;

/** The identity of a project as far as branches care; a reload with the same key keeps the session. */
export const sessionKey = (view: ProjectView): string => JSON.stringify([view.root, view.layout, view.bundle, view.readOnly]);

export class BranchSession {
  readonly key: string;
  private opened: { readonly service: BranchService; readonly text: string } | null = null;
  private opening: Promise<Result<BranchService>> | null = null;
  private openError: AppError | null = null;
  private readonly running = new Map<string, Running>();
  private internalIds = 0;
  private closed = false;

  constructor(
    private readonly view: ProjectView,
    private readonly deps: BranchSessionDeps,
  ) {
    this.key = sessionKey(view);
  }

  /** The configured provider and whether it runs; reads settings only, never starts a provider. */
  async status(): Promise<BranchStatusView> {
    const loaded = await loadBranchSettings(this.view);
    if (!loaded.ok) {
      const state = loaded.error.code === 'unavailable' ? 'unavailable' : 'failed';
      return { provider: null, experimental: false, state, message: loaded.error.message, warnings: [] };
    }
    const provider = this.opened?.service.kind ?? this.deps.host?.provider ?? loaded.value.settings.branchProvider;
    const state = this.opened ? 'ready' : this.openError ? 'failed' : 'idle';
    const warnings = this.opened?.service.warnings() ?? [];
    return {
      provider,
      experimental: EXPERIMENTAL_PROVIDERS.includes(provider),
      state,
      message: this.opened ? null : (this.openError?.message ?? null),
      warnings,
    };
  }

  list(): Promise<Result<BranchListView>> {
    return this.run(`_list-${++this.internalIds}`, 'Listing branches', (service, options) => service.list(options));
  }

  create(request: RequestOf<'branches:create'>): Promise<Result<BranchCreated>> {
    return this.run(request.opId, `Creating ${request.gitBranch}`, async (service, options) => {
      const ttlHours = this.deps.host?.ttlHours;
      const created = await service.create(request.gitBranch, {
        ...options,
        ...(request.parent ? { parent: request.parent } : {}),
        ...(ttlHours !== undefined ? { ttlHours } : {}),
      });
      // The UI never receives a password: the real URL stays in main.
      return { ...created, connectionUrl: redactUrl(created.connectionUrl) };
    });
  }

  delete(request: RequestOf<'branches:delete'>): Promise<Result<{ name: string }>> {
    return this.run(request.opId, `Deleting ${request.name}`, async (service, options) => {
      await service.delete(request.name, options);
      return { name: request.name };
    });
  }

  reset(request: RequestOf<'branches:reset'>): Promise<Result<BranchPairView>> {
    return this.run(request.opId, `Resetting ${request.name}`, (service, options) => service.reset(request.name, options));
  }

  diff(request: RequestOf<'branches:diff'>): Promise<Result<SchemaDiff>> {
    return this.run(request.opId, `Comparing ${request.name} with its parent`, (service, options) => service.diff(request.name, options));
  }

  gc(request: { opId: string; dryRun: boolean }): Promise<Result<GcReport>> {
    const what = request.dryRun ? 'Listing what branch garbage collection would remove' : 'Collecting orphaned and expired branches';
    return this.run(request.opId, what, (service, options) => service.gc({ ...options, dryRun: request.dryRun }));
  }

  /** Each pair's database against its code's migrations (`baton branch list --migrations`); no channel carries it. */
  migrations(request: { readonly opId: string }): Promise<Result<readonly PairMigrations[]>> {
    return this.run(request.opId, 'Comparing each pair’s database with its code’s migrations', async (service, options) => {
      const { pairs } = await service.list(options);
      const out: PairMigrations[] = [];
      for (const pair of pairs.filter((p) => p.database && p.gitBranch))
        out.push({ name: pair.name, gitBranch: pair.gitBranch!, migrations: await service.migrationStatus(pair.name, options) });
      return out;
    });
  }

  /** Pairs a tier with an existing database (`baton branch adopt`); no channel carries it. */
  adopt(request: { readonly opId: string; readonly database: string; readonly gitBranch: string }): Promise<Result<Adopted>> {
    return this.run(request.opId, `Adopting ${request.database} as ${request.gitBranch}`, (service, options) =>
      service.adopt(request.database, request.gitBranch, options),
    );
  }

  /** The real URL, password included: only for a host whose person asked for it (`baton branch url`). */
  connectionUrl(request: { readonly opId: string; readonly name: string }): Promise<Result<string>> {
    return this.run(request.opId, `Finding the connection URL of ${request.name}`, (service, options) => service.connectionUrl(request.name, options));
  }

  cancel(opId: string): { cancelled: boolean } {
    const running = this.running.get(opId);
    if (!running || running.controller.signal.aborted) return { cancelled: false };
    running.controller.abort();
    return { cancelled: true };
  }

  /** Cancels what runs, waits (bounded) for it to stop at a safe point, then closes the service. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { controller } of this.running.values()) controller.abort();
    const settled = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([settled, new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    // A service still opening closes itself when it sees `closed`.
    await this.opening;
    const service = this.opened?.service;
    this.opened = null;
    await service?.close().catch(() => undefined);
  }

  private async run<T>(opId: string, what: string, fn: (service: BranchService, options: CallOptions) => Promise<T>): Promise<Result<T>> {
    if (this.closed) return err('no-project', 'The project was closed while this was asked. Open it again.');
    if (this.running.has(opId)) return err('busy', `An operation with id ${opId} is already running; wait for it or cancel it first.`);
    const controller = new AbortController();
    const options: CallOptions = {
      signal: controller.signal,
      onProgress: (event) => this.deps.emit({ opId, event: redactProgress(event) }),
    };
    const work = (async (): Promise<Result<T>> => {
      const service = await this.acquire(opId);
      if (!service.ok) return service;
      if (controller.signal.aborted) return err('cancelled', `${what} was cancelled before it started; nothing was changed.`);
      try {
        return ok(await fn(service.value, options));
      } catch (cause) {
        return { ok: false, error: branchFailure(cause, what) };
      }
    })();
    this.running.set(opId, { controller, done: work });
    try {
      return await work;
    } finally {
      this.running.delete(opId);
    }
  }

  /** The service, opened on first use; reopened when project.json changed and nothing runs on it. */
  private async acquire(opId: string): Promise<Result<BranchService>> {
    const loaded = await loadBranchSettings(this.view);
    if (!loaded.ok) return loaded;
    if (this.opening) {
      const pending = await this.opening;
      if (!pending.ok || this.opened?.text === loaded.value.text) return pending;
    }
    // Changed settings take effect once nothing else runs on the old service.
    const othersRunning = [...this.running.keys()].some((id) => id !== opId);
    if (this.opened && (this.opened.text === loaded.value.text || othersRunning)) return ok(this.opened.service);
    const stale = this.opened?.service;
    this.opened = null;
    this.opening = this.openService(loaded.value.settings, loaded.value.text, stale);
    try {
      return await this.opening;
    } finally {
      this.opening = null;
    }
  }

  private async openService(settings: BranchServiceOptions['settings'], text: string, stale: BranchService | undefined): Promise<Result<BranchService>> {
    await stale?.close().catch(() => undefined);
    try {
      const host = this.deps.host;
      const service = await this.deps.open({
        root: this.view.root,
        settings,
        ...(host?.provider ? { provider: host.provider } : {}),
        ...(host?.postgresUrl ? { postgresUrl: host.postgresUrl } : {}),
        ...(this.deps.env ? { env: this.deps.env } : {}),
        ...(this.deps.now ? { now: this.deps.now } : {}),
      });
      if (this.closed) {
        await service.close().catch(() => undefined);
        return err('no-project', 'The project was closed while its branches were opening. Open it again.');
      }
      this.opened = { service, text };
      this.openError = null;
      return ok(service);
    } catch (cause) {
      this.openError = branchFailure(cause, `Opening the ${this.deps.host?.provider ?? settings.branchProvider} branch provider for ${this.view.root}`);
      return { ok: false, error: this.openError };
    }
  }
}

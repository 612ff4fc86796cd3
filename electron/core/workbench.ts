/**
 * The Workbench: the one object every host (Electron, browser host, CLI) wires up.
 * It owns the current project and tells listeners when it changes; hosts only translate.
 */
import { createFeature } from '../engine/intake';
import { realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { BranchCreated, BranchListView, BranchPairView, GcReport, PairMigrations, SchemaDiff } from '../../shared/branches';
import type { BranchStatusView, Events, EventName, RequestOf } from '../../shared/contract';
import type { BlobView, EvidenceSummary, GateEvidence, LedgerPage, LedgerRecord, VerifyReport } from '../../shared/ledger';
import type { ProjectView, RecentProject } from '../../shared/model';
import type { RunStateView } from '../../shared/run';
import { err, ok, type Result } from '../../shared/result';
import { writableProject } from '../../shared/read-only';
import { approveGate, gateEvidence, rejectGate, withdrawGate } from '../gates';
import { decideEscalation } from '../gates/escalations';
import { allowTells } from '../gates/tell-allowances';
import { decideAmendment, proposeAmendment } from '../gates/amendments';
import { evidenceSummary } from '../gates/proof';
import { checkpointIfKeyed, Ledger, loadSigningKey } from '../ledger';
import { watchOpenProject, type ProjectWatch } from './project-watch';
import { restoreGate } from '../gates/restore';
import { BranchSession, sessionKey, type BranchHostOptions, type OpenBranchService } from './branches-session';
import type { Adopted } from '../branches/service-adopt';
import { defaultDataDir, projectDataDir } from '../platform/data-dir';
import type { DesktopHooks } from './desktop-hooks';
import { defaultIdentity } from './identity';
import { blobView, ledgerPage } from './ledger-view';
import { loadProject, type LoadedProject } from './load-project';
import { loadRecent, rememberRecent } from './recent-projects';
import { persistedRunState, RunSession, type RunEnd, type RunFeatureFn, type RunHostOptions, type RunRequest } from './run-session';
import { verifyProject } from './verify-project';

export interface WorkbenchOptions extends DesktopHooks {
  readonly host: 'electron' | 'browser' | 'cli';
  readonly version: string;
  readonly configDir: string;
  readonly now?: () => Date;
  /** Opens the project's branch service; default: the real one (electron/branches/service.ts), loaded on first use. */
  readonly openBranchService?: OpenBranchService;
  /** The environment the branch service reads (provider URLs, API keys, BATON_DATA_DIR); default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Drives a feature's run; default: the real runFeature (electron/engine/run-feature.ts), loaded on first use. */
  readonly runFeature?: RunFeatureFn;
  /** What this host adds to every run it starts, beyond what `run:start` carries (the CLI's overrides). */
  readonly run?: RunHostOptions;
  /** What this host adds to every branch operation, beyond what the `branches:*` channels carry (the CLI's overrides). */
  readonly branches?: BranchHostOptions;
  /**
   * Watch the open project folder and refresh on any change another process makes (project-watch.ts).
   * The long-lived hosts do (hostDefaults); a CLI command is over before anything could change.
   */
  readonly watch?: boolean;
}

type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;
type Decision<C extends 'gates:reject' | 'gates:withdraw' | 'gates:approve'> = RequestOf<C>;

const NO_PROJECT = 'No project is open. Open a project folder first.';

export class Workbench {
  private loaded: LoadedProject | null = null;
  private readonly listeners = new Set<Listener>();
  /** The current project's branch service, opened on first use; replaced when the project changes. */
  private branchSession: BranchSession | null = null;
  /** Sessions of earlier projects still closing (cancelling their operations). */
  private readonly closing = new Set<Promise<void>>();
  /** The run of the enforced loop started from this workbench (one at a time), kept after it ends for `run:state`. */
  private runSession: RunSession | null = null;
  /** The open project folder's watcher (none for a bundle, or on the CLI). */
  private watcher: ProjectWatch | null = null;

  constructor(readonly options: WorkbenchOptions) {}

  /** Subscribe to pushed events; returns the unsubscribe function. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get project(): ProjectView | null {
    return this.loaded?.view ?? null;
  }

  async open(path: string): Promise<Result<ProjectView>> {
    const target = resolve(path);
    const result = await loadProject(target);
    if (!result.ok) return result;
    const previous = this.loaded;
    this.loaded = result.value;
    if (this.branchSession && this.branchSession.key !== sessionKey(result.value.view)) this.retireBranches();
    if (this.runSession && this.runSession.root !== result.value.view.root) this.retireRun();
    if (previous && previous !== result.value) await previous.dispose();
    // Replaced on every open: it only ever refreshes the project it was made for.
    this.watcher?.close();
    this.watcher = this.options.watch ? watchOpenProject(result.value.view, () => this.reload()) : null;
    await rememberRecent(this.options.configDir, result.value.view.bundle ?? result.value.view.root, this.now()).catch(() => undefined);
    this.emit('project:changed', result.value.view);
    return ok(result.value.view);
  }

  /** Re-reads the open project (after a decision, on request, during a run); recent projects are untouched. */
  async reload(): Promise<Result<ProjectView>> {
    const current = this.loaded;
    if (!current) return err('no-project', NO_PROJECT);
    return this.refresh(current);
  }

  /** Releases what the current project holds (an extracted bundle); call when the host stops. */
  async close(): Promise<void> {
    this.watcher?.close();
    this.retireRun();
    this.retireBranches();
    await Promise.all(this.closing);
    await this.loaded?.dispose();
    this.loaded = null;
  }

  recent(): Promise<RecentProject[]> {
    return loadRecent(this.options.configDir);
  }

  async pick(): Promise<Result<{ path: string | null }>> {
    if (!this.options.pickFolder) {
      return err('unsupported', 'This host has no folder picker. Type the folder path, or pass it to `baton serve <dir>`.');
    }
    return ok({ path: await this.options.pickFolder() });
  }

  async identity(): Promise<{ approver: string | null }> {
    return { approver: await defaultIdentity(this.loaded?.view.root ?? process.cwd()) };
  }

  evidence(ref: RequestOf<'gates:evidence'>): Promise<Result<GateEvidence>> {
    return this.withProject((p) => gateEvidence(p.view, p.ledger, ref));
  }

  /** A feature's (or a story's) evidence as every gate's summary shows it: folded from the ledger. */
  featureEvidence(feature: string, story: string | null = null): Result<EvidenceSummary> {
    const project = this.loaded;
    if (!project) return err('no-project', NO_PROJECT);
    const found = project.view.features.find((f) => f.id === feature);
    if (!found) return err('not-found', `No feature "${feature}" in ${project.view.root}.`);
    return ok(evidenceSummary(found, project.ledger ? project.records : null, story));
  }

  approve(request: Decision<'gates:approve'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => approveGate(p.view, ledger, request));
  }

  reject(request: Decision<'gates:reject'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => rejectGate(p.view, ledger, request));
  }

  withdraw(request: Decision<'gates:withdraw'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => withdrawGate(p.view, ledger, request));
  }

  /** Puts a drifted gate's approved files back; the run it blocked can then go on. */
  restore(request: RequestOf<'gates:restore'>): Promise<Result<LedgerRecord>> {
    // It changes files rather than deciding a gate: refused in the words the run-block panel and `baton restore` show.
    return this.decide((p, ledger) => restoreGate(p.view, ledger, request), 'changes');
  }

  decideEscalation(request: RequestOf<'escalations:decide'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => decideEscalation(p.view, ledger, request), 'escalations');
  }

  /** A person allows an item's code that tells a test run apart, with a reason. */
  allowTells(request: RequestOf<'tells:allow'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => allowTells(p.view, ledger, request), 'escalations');
  }

  /** A person's proposal to change an item's locked tests: recorded, for a decision in the inbox. */
  proposeAmendment(request: RequestOf<'amendments:propose'>): Promise<Result<LedgerRecord>> {
    const by = { kind: 'person' as const, id: request.approver };
    return this.decide((p, ledger) => proposeAmendment(p.view, ledger, { ...request, by }), 'amendments');
  }

  decideAmendment(request: RequestOf<'amendments:decide'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => decideAmendment(p.view, ledger, request), 'amendments');
  }

  /** Intake: the new feature's folder and its ledger record; the project is re-read so it shows at once. */
  async newFeature(request: RequestOf<'features:new'>): Promise<Result<{ feature: string; record: LedgerRecord }>> {
    let made: { feature: string; record: LedgerRecord } | null = null;
    const result = await this.decide(async (p, ledger) => {
      const created = await createFeature(p.view, ledger, { ...request, requester: request.approver });
      if (!created.ok) return created;
      made = created.value;
      return ok(created.value.record);
    }, 'changes');
    return result.ok && made ? ok(made) : (result as Result<never>);
  }

  ledgerPage(offset?: number, limit?: number): Promise<Result<LedgerPage>> {
    return this.withProject(async (p) => ok(await ledgerPage(p, offset, limit)));
  }

  /** A page of a blob's content (`ledger:blob`); defaults: from the start, BLOB_PAGE_BYTES long. */
  blob(sha256: string, offset?: number, limit?: number): Promise<Result<BlobView>> {
    return this.withProject((p) => blobView(p, sha256, offset, limit));
  }

  verify(request: RequestOf<'ledger:verify'> = {}): Promise<Result<VerifyReport>> {
    return this.withProject(async (p) => ok(await verifyProject(p, { configDir: this.options.configDir, ownTrust: request.ownTrust ?? false })));
  }

  async branchStatus(): Promise<Result<BranchStatusView>> {
    const session = this.branches();
    return session.ok ? ok(await session.value.status()) : session;
  }

  listBranches(): Promise<Result<BranchListView>> {
    return this.withBranches((s) => s.list());
  }

  createBranch(request: RequestOf<'branches:create'>): Promise<Result<BranchCreated>> {
    return this.withBranches((s) => s.create(request));
  }

  deleteBranch(request: RequestOf<'branches:delete'>): Promise<Result<{ name: string }>> {
    return this.withBranches((s) => s.delete(request));
  }

  resetBranch(request: RequestOf<'branches:reset'>): Promise<Result<BranchPairView>> {
    return this.withBranches((s) => s.reset(request));
  }

  diffBranch(request: RequestOf<'branches:diff'>): Promise<Result<SchemaDiff>> {
    return this.withBranches((s) => s.diff(request));
  }

  /** Orphaned and expired pairs, removed unless `dryRun`. No channel carries it: only the CLI asks. */
  collectBranches(request: { opId: string; dryRun: boolean }): Promise<Result<GcReport>> {
    return this.withBranches((s) => s.gc(request));
  }

  /** Every pair's database against its code's migrations (`branches:migrations`, `baton branch list --migrations`). */
  branchMigrations(request: { readonly opId: string }): Promise<Result<readonly PairMigrations[]>> {
    return this.withBranches((s) => s.migrations(request));
  }

  /** Pairs a tier's git branch with an existing database (`baton branch adopt`); no channel carries it: only the CLI asks. */
  adoptBranch(request: { readonly opId: string; readonly database: string; readonly gitBranch: string }): Promise<Result<Adopted>> {
    return this.withBranches((s) => s.adopt(request));
  }

  /** A pair's connection URL with its password, for the terminal that asked (`baton branch url`); no channel carries it. */
  branchUrl(request: { readonly opId: string; readonly name: string }): Promise<Result<string>> {
    return this.withBranches((s) => s.connectionUrl(request));
  }

  cancelBranchOp(opId: string): { cancelled: boolean } {
    return this.branchSession?.cancel(opId) ?? { cancelled: false };
  }

  /** Starts the enforced loop on the current project; refused for a bundle or a Consort layout, and while a run goes on. */
  async startRun(request: RunRequest): Promise<Result<{ runId: string }>> {
    const project = this.loaded;
    if (!project) return err('no-project', NO_PROJECT);
    const view = project.view;
    const writable = writableProject(view, 'runs');
    if (!writable.ok) return writable;
    if (request.feature && !view.features.some((f) => f.id === request.feature)) {
      return err('not-found', `No feature "${request.feature}" in ${view.root}. Features: ${view.features.map((f) => f.id).join(', ') || 'none'}.`);
    }
    if (!view.features.length) return err('not-found', `${view.root} has no feature yet: write a feature spec in .baton/features, then run.`);
    const env = this.options.env ?? process.env;
    const { onEvent, ...overrides } = this.options.run ?? {};
    // The same data folder the Branches screen reads, so the run's pairs show there.
    const real = await realpath(view.root);
    const dataDir = overrides.dataDir ?? projectDataDir(real, defaultDataDir(env, process.platform, real));
    if (this.loaded?.view.root !== view.root) return err('no-project', 'Another project was opened while the run was asked for. Press Run again.');
    if (this.runSession && this.runSession.root !== view.root) this.retireRun();
    this.runSession ??= new RunSession({
      root: view.root,
      runFeature: this.options.runFeature ?? runRealFeature,
      emit: (payload) => this.emit('run:progressed', payload),
      ...(onEvent ? { tap: onEvent } : {}),
      refresh: async () => {
        if (this.loaded?.view.root === view.root && !this.loaded.view.bundle) await this.refresh(this.loaded);
      },
    });
    return this.runSession.start(request, { ...overrides, dataDir });
  }

  /** How the run `runId` started here ended, once it has (a host that waits for it: the CLI); null for another run. */
  runEnded(runId: string): Promise<RunEnd | null> {
    return this.runSession?.ended(runId) ?? Promise.resolve(null);
  }

  stopRun(): { stopped: boolean } {
    return this.runSession?.stop() ?? { stopped: false };
  }

  /** The run started here (live or ended), else what the persisted snapshots say. */
  async runState(): Promise<Result<RunStateView>> {
    const project = this.loaded;
    if (!project) return err('no-project', NO_PROJECT);
    const session = this.runSession;
    if (session && session.root === project.view.root && session.hasRun) return ok(session.state);
    return ok(await persistedRunState(project.view));
  }

  /** Stops the run in the background (it keeps its snapshots); close() waits for it. */
  private retireRun(): void {
    const session = this.runSession;
    this.runSession = null;
    if (!session) return;
    const closing = session.close().finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  /**
   * The one refresh path: re-read `current` (the project that was open when the refresh was asked
   * for), swap it in and tell the hosts, unless another project was opened meanwhile.
   */
  private async refresh(current: LoadedProject): Promise<Result<ProjectView>> {
    const result = await loadProject(current.view.bundle ?? current.view.root);
    if (!result.ok) return result;
    if (this.loaded !== current) {
      await result.value.dispose();
      return this.loaded ? ok(this.loaded.view) : err('no-project', NO_PROJECT);
    }
    this.loaded = result.value;
    if (current !== result.value) await current.dispose();
    this.emit('project:changed', result.value.view);
    return ok(result.value.view);
  }

  private branches(): Result<BranchSession> {
    if (!this.loaded) return err('no-project', NO_PROJECT);
    this.branchSession ??= new BranchSession(this.loaded.view, {
      open: this.options.openBranchService ?? openRealBranchService,
      emit: (payload) => this.emit('branches:progressed', payload),
      env: this.options.env ?? process.env,
      ...(this.options.branches ? { host: this.options.branches } : {}),
      ...(this.options.now ? { now: this.options.now } : {}),
    });
    return ok(this.branchSession);
  }

  private async withBranches<T>(fn: (session: BranchSession) => Promise<Result<T>>): Promise<Result<T>> {
    const session = this.branches();
    return session.ok ? fn(session.value) : session;
  }

  /** Closes the current branch session in the background; close() waits for it. */
  private retireBranches(): void {
    const session = this.branchSession;
    this.branchSession = null;
    if (!session) return;
    const closing = session.close().finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  private async withProject<T>(fn: (project: LoadedProject) => Promise<Result<T>>): Promise<Result<T>> {
    return this.loaded ? fn(this.loaded) : err('no-project', NO_PROJECT);
  }

  /** A gate decision, then a re-read so every view shows the new state. */
  private async decide(
    fn: (project: LoadedProject, ledger: NonNullable<LoadedProject['ledger']>) => Promise<Result<LedgerRecord>>,
    action: 'gates' | 'escalations' | 'amendments' | 'changes' = 'gates',
  ): Promise<Result<LedgerRecord>> {
    const project = this.loaded;
    if (!project) return err('no-project', NO_PROJECT);
    const writable = writableProject(project.view, action);
    if (!writable.ok) return writable;
    if (!project.ledger) return err('read-only', `${project.view.root} has no ledger to record a decision in.`);
    // A person's decision is signed with this user's key when they have one (person-signing.ts).
    const signer = await loadSigningKey(this.options.configDir).catch(() => null);
    const result = await fn(project, project.ledger.signedBy(signer));
    if (result.ok && action === 'gates') await checkpointIfKeyed(join(project.view.artifactRoot, 'ledger'), this.options.configDir, signer);
    if (result.ok) await this.reload();
    return result;
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners) listener(event, payload);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/** The real run, imported on first use: it loads the branch providers, PGlite included. */
const runRealFeature: RunFeatureFn = async (options) => {
  const { runFeature } = await import('../engine/run-feature');
  return runFeature(options);
};

/** The real service, imported on first use so opening a project (or a CLI command) never loads PGlite. */
const openRealBranchService: OpenBranchService = async (options) => {
  const { openBranchService } = await import('../branches/service');
  return openBranchService({ ...options, ledger: Ledger.forArtifactRoot(join(options.root, '.baton')) });
};

/**
 * The Workbench: the one object every host (Electron, browser host, CLI) wires up.
 * It owns the current project and tells listeners when it changes; hosts only translate.
 */
import { resolve } from 'node:path';
import type { Events, EventName, RequestOf } from '../../shared/contract';
import type { BlobView, GateEvidence, LedgerPage, LedgerRecord, VerifyReport } from '../../shared/ledger';
import type { ProjectView, RecentProject } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import { approveGate, gateEvidence, rejectGate, withdrawGate } from '../gates';
import { defaultIdentity } from './identity';
import { blobView, ledgerPage } from './ledger-view';
import { loadProject, type LoadedProject } from './load-project';
import { loadRecent, rememberRecent } from './recent-projects';
import { verifyProject } from './verify-project';

export interface WorkbenchOptions {
  readonly host: 'electron' | 'browser' | 'cli';
  readonly version: string;
  readonly configDir: string;
  /** Asks the person for a folder; only the desktop host has one. */
  readonly pickFolder?: () => Promise<string | null>;
  readonly now?: () => Date;
}

type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;
type Decision<C extends 'gates:reject' | 'gates:withdraw' | 'gates:approve'> = RequestOf<C>;

const NO_PROJECT = 'No project is open. Open a project folder first.';

export class Workbench {
  private loaded: LoadedProject | null = null;
  private readonly listeners = new Set<Listener>();

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
    if (previous && previous !== result.value) await previous.dispose();
    await rememberRecent(this.options.configDir, result.value.view.bundle ?? result.value.view.root, this.now()).catch(() => undefined);
    this.emit('project:changed', result.value.view);
    return ok(result.value.view);
  }

  async reload(): Promise<Result<ProjectView>> {
    if (!this.loaded) return err('no-project', NO_PROJECT);
    return this.open(this.loaded.view.bundle ?? this.loaded.view.root);
  }

  /** Releases what the current project holds (an extracted bundle); call when the host stops. */
  async close(): Promise<void> {
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

  approve(request: Decision<'gates:approve'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => approveGate(p.view, ledger, request));
  }

  reject(request: Decision<'gates:reject'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => rejectGate(p.view, ledger, request));
  }

  withdraw(request: Decision<'gates:withdraw'>): Promise<Result<LedgerRecord>> {
    return this.decide((p, ledger) => withdrawGate(p.view, ledger, request));
  }

  ledgerPage(offset?: number, limit?: number): Promise<Result<LedgerPage>> {
    return this.withProject(async (p) => ok(await ledgerPage(p, offset, limit)));
  }

  blob(sha256: string): Promise<Result<BlobView>> {
    return this.withProject((p) => blobView(p, sha256));
  }

  verify(): Promise<Result<VerifyReport>> {
    return this.withProject(async (p) => ok(await verifyProject(p)));
  }

  private async withProject<T>(fn: (project: LoadedProject) => Promise<Result<T>>): Promise<Result<T>> {
    return this.loaded ? fn(this.loaded) : err('no-project', NO_PROJECT);
  }

  /** A gate decision, then a re-read so every view shows the new state. */
  private async decide(
    fn: (project: LoadedProject, ledger: NonNullable<LoadedProject['ledger']>) => Promise<Result<LedgerRecord>>,
  ): Promise<Result<LedgerRecord>> {
    const project = this.loaded;
    if (!project) return err('no-project', NO_PROJECT);
    if (!project.ledger || project.view.readOnly) {
      return err('read-only', `${project.view.bundle ?? project.view.root} is read-only (a Consort project or a review bundle): gates are decided in the Baton project itself.`);
    }
    const result = await fn(project, project.ledger);
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

/**
 * The Workbench: the one object every host (Electron, browser host, CLI) wires up.
 * It owns the current project and tells listeners when it changes; hosts only translate.
 */
import { resolve } from 'node:path';
import type { Events, EventName } from '../../shared/contract';
import type { ProjectView, RecentProject } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import { readProject } from '../project';
import { loadRecent, rememberRecent } from './recent-projects';

export interface WorkbenchOptions {
  readonly host: 'electron' | 'browser' | 'cli';
  readonly version: string;
  readonly configDir: string;
  /** Asks the person for a folder; only the desktop host has one. */
  readonly pickFolder?: () => Promise<string | null>;
  readonly now?: () => Date;
}

type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;

export class Workbench {
  private current: ProjectView | null = null;
  private readonly listeners = new Set<Listener>();

  constructor(readonly options: WorkbenchOptions) {}

  /** Subscribe to pushed events; returns the unsubscribe function. */
  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get project(): ProjectView | null {
    return this.current;
  }

  async open(path: string): Promise<Result<ProjectView>> {
    const result = await readProject(resolve(path));
    if (!result.ok) return result;
    this.current = result.value;
    await rememberRecent(this.options.configDir, result.value.root, this.now()).catch(() => undefined);
    this.emit('project:changed', result.value);
    return result;
  }

  async reload(): Promise<Result<ProjectView>> {
    if (!this.current) return err('no-project', 'No project is open. Open a project folder first.');
    return this.open(this.current.root);
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

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners) listener(event, payload);
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

/**
 * The workbench's run of the enforced loop: one at a time per project, started and stopped from
 * the UI. It folds runFeature's live events into the RunStateView `run:state` answers, sends them
 * on as `run:progressed` batches (every ~100 ms, output capped), and re-reads the project after a
 * status change or a ledger record (at most twice a second) so cards move and the timeline grows.
 * Stopping aborts the run; it has persisted its snapshots and resumes from them next time.
 */
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { RunProgressedEvent } from '../../shared/contract';
import type { GateName } from '../../shared/ledger';
import type { ProjectView } from '../../shared/model';
import { err, ok, type Result } from '../../shared/result';
import {
  CYCLE_STATE_NAMES,
  LIFECYCLE_STATE_NAMES,
  type CycleStateName,
  type LifecycleStateName,
  type RunFeedEvent,
  type RunItemState,
  type RunEvent,
  type RunOutcome,
  type RunStateView,
  type RunSummary,
} from '../../shared/run';
import { foldRunEvent, IDLE_RUN } from '../../shared/run-view';
import type { RunOptions } from '../engine/run-feature';
import { StateStore } from '../engine/state-store';
import { readSnapshot } from '../engine/persisted-machine';
import { CYCLE_VERSION, cycleMachine } from '../orchestrator/cycle-machine';
import { LIFECYCLE_VERSION, lifecycleMachine } from '../orchestrator/lifecycle-machine';
import { compactBatch, Throttle } from './run-batch';

export type RunFeatureFn = (options: RunOptions) => Promise<RunSummary>;

/**
 * What a host adds to every run it starts beyond `run:start`'s request (the CLI's `--agent`,
 * `--provider`, `--url`; the demo's data folder), and a tap on the engine's own events as they
 * happen, unbatched and uncut (the CLI's `--events` and its stderr lines).
 */
export interface RunHostOptions extends Pick<RunOptions, 'agents' | 'scenario' | 'provider' | 'postgresUrl' | 'dataDir'> {
  readonly onEvent?: (event: RunEvent) => void;
}

/** How a run ended, for a host that waits for it (the CLI): its summary, or the error it threw, word for word. */
export interface RunEnd {
  readonly runId: string;
  readonly outcome: Exclude<RunOutcome, 'running'>;
  readonly summary: RunSummary | null;
  readonly error: string | null;
}

export interface RunSessionOptions {
  readonly root: string;
  readonly runFeature: RunFeatureFn;
  readonly emit: (payload: RunProgressedEvent) => void;
  /** Sees every event of the engine as it happens (RunHostOptions.onEvent). */
  readonly tap?: (event: RunEvent) => void;
  /** Re-reads the project and pushes `project:changed`. */
  readonly refresh: () => Promise<void>;
  readonly flushMs?: number;
  readonly refreshMs?: number;
  /** Lines each streaming pane keeps in the state `run:state` answers with. */
  readonly maxLines?: number;
  /** The longest output chunk one batch carries. */
  readonly maxChunk?: number;
  /** How long closing waits for a stopped run to reach a safe point. */
  readonly closeWaitMs?: number;
  readonly now?: () => Date;
  readonly newRunId?: () => string;
}

export interface RunRequest {
  readonly feature?: string;
  readonly until?: GateName | 'done';
}

interface Active {
  readonly runId: string;
  readonly controller: AbortController;
  done: Promise<RunEnd>;
}

export const RUN_DEFAULTS = { flushMs: 100, refreshMs: 500, maxLines: 1000, maxChunk: 64 * 1024, closeWaitMs: 15_000 } as const;

export class RunSession {
  readonly root: string;
  private view: RunStateView = IDLE_RUN;
  private active: Active | null = null;
  /** The last run started here, kept after it ends so a host can ask how it ended. */
  private latest: Active | null = null;
  private queue: RunFeedEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private batches = 0;
  private readonly refresher: Throttle;
  private readonly settings: Readonly<Record<keyof typeof RUN_DEFAULTS, number>>;
  private closed = false;

  constructor(private readonly options: RunSessionOptions) {
    this.root = options.root;
    this.settings = {
      flushMs: options.flushMs ?? RUN_DEFAULTS.flushMs,
      refreshMs: options.refreshMs ?? RUN_DEFAULTS.refreshMs,
      maxLines: options.maxLines ?? RUN_DEFAULTS.maxLines,
      maxChunk: options.maxChunk ?? RUN_DEFAULTS.maxChunk,
      closeWaitMs: options.closeWaitMs ?? RUN_DEFAULTS.closeWaitMs,
    };
    this.refresher = new Throttle(options.refresh, this.settings.refreshMs);
  }

  get running(): boolean {
    return this.active !== null;
  }

  /** True once a run started here: the state then says more than the persisted snapshots. */
  get hasRun(): boolean {
    return this.view.runId !== null;
  }

  /** The state as of the last batch: what is queued goes out first, so a client never folds an event twice. */
  get state(): RunStateView {
    this.flush();
    return { ...this.view, seq: this.batches };
  }

  /** Starts a run in the background; `extra` carries what the host decides (data folder, agents). */
  start(request: RunRequest, extra: Omit<RunOptions, 'root' | 'feature' | 'until' | 'signal' | 'onEvent'> = {}): Result<{ runId: string }> {
    if (this.closed) return err('no-project', 'The project was closed while the run was asked for. Open it again.');
    if (this.active) {
      return err(
        'busy',
        this.view.stopping
          ? 'The last run is still stopping (it finishes the step it is in so it can resume cleanly). Press Run again in a moment.'
          : `A run of ${this.view.feature ?? 'this project'} is already going; stop it first or let it finish.`,
      );
    }
    const runId = this.options.newRunId?.() ?? `run-${this.now().getTime().toString(36)}-${randomBytes(3).toString('hex')}`;
    const active: Active = { runId, controller: new AbortController(), done: Promise.resolve({ runId, outcome: 'finished', summary: null, error: null }) };
    this.active = active;
    this.latest = active;
    this.push({ kind: 'run.requested', runId, feature: request.feature ?? null, at: this.now().toISOString() });
    active.done = this.drive(active, {
      ...extra,
      root: this.root,
      ...(request.feature ? { feature: request.feature } : {}),
      ...(request.until ? { until: request.until } : {}),
    });
    return ok({ runId });
  }

  /** How the run `runId` ended (waits for it); null when it is not the last run started here. */
  ended(runId: string): Promise<RunEnd> | null {
    return this.latest?.runId === runId ? this.latest.done : null;
  }

  /** Aborts the run; `stopped` is false when none runs (or it is already stopping). */
  stop(): { stopped: boolean } {
    const active = this.active;
    if (!active || active.controller.signal.aborted) return { stopped: false };
    active.controller.abort();
    this.push({ kind: 'run.stopping', runId: active.runId });
    return { stopped: true };
  }

  /** Stops the run, waits (bounded) for it to reach a safe point, and sends what is left. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stop();
    const active = this.active;
    if (active) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([active.done, new Promise((resolve) => (timer = setTimeout(resolve, this.settings.closeWaitMs)))]);
      clearTimeout(timer);
    }
    this.closed = true;
    this.flush();
    this.refresher.stop();
    await this.refresher.idle();
  }

  private async drive(active: Active, options: RunOptions): Promise<RunEnd> {
    const { signal } = active.controller;
    let outcome: Exclude<RunOutcome, 'running'> = 'finished';
    let message: string | null = null;
    let summary: RunSummary | null = null;
    let error: string | null = null;
    const tap = this.options.tap;
    try {
      summary = await this.options.runFeature({
        ...options,
        signal,
        onEvent: (event) => {
          tap?.(event);
          this.push(event);
        },
      });
      this.push({ kind: 'run.finished', summary });
      // The words and colours match what happened: blocked and escalated runs did not simply finish.
      if (summary.blocked) outcome = 'blocked';
      else if (signal.aborted) outcome = 'stopped';
      else if (summary.phase === 'escalated') outcome = 'escalated';
    } catch (cause) {
      error = cause instanceof Error ? cause.message : String(cause);
      outcome = signal.aborted ? 'stopped' : 'failed';
      message = signal.aborted ? null : `The run stopped with an error: ${error}`;
    }
    if (this.active === active) this.active = null;
    this.push({ kind: 'run.ended', runId: active.runId, outcome, message, at: this.now().toISOString() });
    this.flush();
    // The last statuses the run wrote reach the board even when no record followed them.
    this.refresher.request();
    return { runId: active.runId, outcome, summary, error };
  }

  private push(event: RunFeedEvent): void {
    this.view = foldRunEvent(this.view, event, this.settings.maxLines);
    if (this.closed) return;
    this.queue.push(event);
    this.timer ??= setTimeout(() => this.flush(), this.settings.flushMs);
    if (event.kind === 'item.status' || event.kind === 'recorded') this.refresher.request();
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.queue.length || !this.view.runId) return;
    const events = compactBatch(this.queue, this.settings.maxChunk);
    this.queue = [];
    this.batches += 1;
    this.options.emit({ runId: this.view.runId, seq: this.batches, events });
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }
}

const isCycleState = (value: unknown): value is CycleStateName => (CYCLE_STATE_NAMES as readonly unknown[]).includes(value);
const isLifecycleState = (value: unknown): value is LifecycleStateName => (LIFECYCLE_STATE_NAMES as readonly unknown[]).includes(value);

interface SavedCycle {
  readonly value?: unknown;
}

/**
 * What the persisted snapshots say when nothing ran in this workbench yet (a run from the CLI, or
 * one before a restart): the feature's lifecycle state and each item's cycle state.
 */
export async function persistedRunState(view: ProjectView): Promise<RunStateView> {
  if (view.layout !== 'baton' || view.bundle) return IDLE_RUN;
  // The feature that ran last (its lifecycle saved most recently), not the first in the list: a new
  // feature's panel must not show an older run's feature as the one that ran.
  let last: { feature: (typeof view.features)[number]; store: StateStore; lifecycle: LifecycleStateName; at: number } | null = null;
  for (const feature of view.features) {
    const store = StateStore.forProject(view.root, feature.id);
    const lifecycle = (await readSnapshot(store, 'lifecycle', lifecycleMachine, LIFECYCLE_VERSION).catch(() => null)) as { value?: unknown } | null;
    if (!lifecycle || !isLifecycleState(lifecycle.value)) continue;
    const at = (await stat(store.fileOf('lifecycle')).catch(() => null))?.mtimeMs ?? 0;
    if (!last || at > last.at) last = { feature, store, lifecycle: lifecycle.value, at };
  }
  if (!last) return IDLE_RUN;
  const items: RunItemState[] = [];
  for (const item of last.feature.testList) {
    const saved = (await readSnapshot(last.store, `cycle-${item.id}`, cycleMachine, CYCLE_VERSION).catch(() => null)) as SavedCycle | null;
    if (!saved || !isCycleState(saved.value)) continue;
    items.push({ item: item.id, state: saved.value, status: item.status });
  }
  return { ...IDLE_RUN, feature: last.feature.id, lifecycle: last.lifecycle, items };
}

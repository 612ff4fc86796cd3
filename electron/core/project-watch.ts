/**
 * The open project, watched: a change any process makes under its artifact root (a decision from
 * the CLI, an artifact edited on disk, a run's records and state, its lock) is seen within a second,
 * so no host shows a project older than the disk. Bursts are debounced into one refresh; a refresh
 * is never run twice at once, nor more than once a second (a run writes its ledger and state all the
 * time), and changes that land during one are followed by one more, so the last view is always read
 * after the last change.
 */
import { watch, type FSWatcher } from 'node:fs';
import type { ProjectView } from '../../shared/model';

export interface ProjectWatch {
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last change before the refresh (default 250 ms). */
  readonly debounceMs?: number;
  /** Least time between the starts of two refreshes (default 1,000 ms). */
  readonly minIntervalMs?: number;
  /** Called when the watcher fails (a folder removed, too many watches): the host keeps its Reload. */
  readonly onError?: (error: Error) => void;
}

export function watchProject(dir: string, refresh: () => Promise<unknown>, options: WatchOptions = {}): ProjectWatch {
  const debounceMs = options.debounceMs ?? 250;
  const minIntervalMs = options.minIntervalMs ?? 1_000;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const run = (): void => {
    timer = null;
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    const wait = lastStart + minIntervalMs - Date.now();
    if (wait > 0) {
      timer = setTimeout(run, wait);
      timer.unref();
      return;
    }
    lastStart = Date.now();
    running = refresh()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        running = null;
        if (again && !closed) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = (): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
    timer.unref();
  };

  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(dir, { recursive: true, persistent: false }, schedule);
    watcher.on('error', (error) => {
      options.onError?.(error);
      watcher?.close();
    });
  } catch (error) {
    options.onError?.(error as Error);
  }
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** The watch a host keeps on the project it opened: its artifact root; none for a review bundle (a snapshot that never changes). */
export function watchOpenProject(view: ProjectView, refresh: () => Promise<unknown>): ProjectWatch | null {
  return view.bundle ? null : watchProject(view.artifactRoot, refresh);
}

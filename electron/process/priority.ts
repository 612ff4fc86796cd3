/**
 * Background work yields the processor. Mutation testing runs beside the cycles (issue 30) and
 * must not slow them: its processes (the test runs and the embedded database servers of its
 * throwaway branches) run at the lowest CPU priority, so on a busy machine the cycles' own runs
 * and turns take the cores first and mutation testing gets what is left.
 */
import { existsSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/** The lowest priority a process can have (nice 19 on POSIX, IDLE on Windows). */
export const BACKGROUND_PRIORITY = constants.priority.PRIORITY_LOW;

/** Lowers `pid` to the background priority; a process that is gone or cannot be changed is left as it is. */
export function lowerPriority(pid: number | undefined): void {
  if (!pid) return;
  try {
    setPriority(pid, BACKGROUND_PRIORITY);
  } catch {
    // Gone already, or not ours to change: it runs at its own priority, which is only slower for others.
  }
}

/**
 * `nice` to start a command under, so that every process it forks is lowered from the first
 * (lowering a sandbox launcher after it started would miss the children it forked at once); null
 * where there is none (Windows): the caller lowers the process after it starts.
 */
export const NICE_BINARY: string | null = ['/usr/bin/nice', '/bin/nice'].find((p) => existsSync(p)) ?? null;

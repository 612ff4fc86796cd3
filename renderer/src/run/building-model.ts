/**
 * What the run builds now, for the panel and the board: every item whose cycle runs (several when
 * independent stories are built in parallel), each with its cycle state and what it does. Pure.
 */
import type { CycleStateName, RunItemActivity, RunStateView } from '../../../shared/run';
import { stateWord } from './run-words';

export interface BuildingRow {
  readonly item: string;
  /** Its cycle's state as the run last told it. */
  readonly state: CycleStateName | null;
  /** What it does now, in words ("driver turn · green · attempt 2", "test run · red"); null before its first turn. */
  readonly doing: string | null;
}

type Building = Pick<RunStateView, 'active' | 'activity' | 'items'>;

export function activityWords(activity: RunItemActivity | undefined): string | null {
  if (!activity) return null;
  if (activity.kind === 'runner') return `test run · ${stateWord(activity.runner.step)}`;
  const { role, step, attempt } = activity.turn;
  return `${role} turn · ${stateWord(step)} · attempt ${attempt}`;
}

/** One row per item being built, in the order their cycles started. */
export function buildingRows(run: Building): BuildingRow[] {
  return run.active.map((item) => ({
    item,
    state: run.items.find((i) => i.item === item)?.state ?? null,
    doing: activityWords(run.activity[item]),
  }));
}

/** What screen readers hear when the set changes: "Building T1 and T3". */
export function buildingAnnouncement(items: readonly string[]): string {
  if (items.length === 0) return '';
  const names = items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
  return `Building ${names}`;
}

/** Whether a board card's item is being built by the run now. */
export const isBuilding = (run: Pick<RunStateView, 'running' | 'feature' | 'active'>, feature: string, item: string): boolean =>
  run.running && run.feature === feature && run.active.includes(item);

/**
 * The item whose cycle the panel follows unless one is picked: the first of those being built (it
 * holds still while parallel cycles take turns moving), else the one that moved last.
 */
export const followedItem = (run: Pick<RunStateView, 'active' | 'currentItem'>): string | null => run.active[0] ?? run.currentItem;

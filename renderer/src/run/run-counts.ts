/** The counts the Live run shows for an item of the run's feature: the ledger's, as its card shows them (shared/cycle-counts.ts). Pure. */
import { itemCounts, type CycleCounts } from '../../../shared/cycle-counts';
import type { ProjectView } from '../../../shared/model';

export function runCountsOf(view: ProjectView | null, feature: string | null): (item: string) => CycleCounts | null {
  const cycles = view?.features.find((f) => f.id === feature)?.cycleRuns ?? [];
  return (item) => itemCounts(cycles, { id: item });
}
